// SPDX-License-Identifier: MIT
// `layerbench run --world-size N`'s refusals (engine/cli/run_ranks.cpp), through the real binary: each
// must come before any rank is started and before any rank waits for the others.
#if LAYERBENCH_WITH_TORCH
#include "test_shell.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <string>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
namespace test = layerbench::test;

namespace {

// A ResNetTiny training step, as tests/ddp_run_check.sh runs it.
std::string training_run(const std::string& environment, int world_size, const fs::path& out)
{
  return environment + " " + std::string(LAYERBENCH_BINARY) + " run --device cpu --layers ResNetTiny --axes mode=train "
         + "--batch-sizes 1 --no-peaks --cell-budget 0.1 --world-size " + std::to_string(world_size) + " --out "
         + out.string();
}

} // namespace

TEST_CASE("cli::check_world_fits")
{
  test::TempDir dir("ranks");
  const auto out = dir.path / "x.json";
  SUBCASE("more ranks than cores is refused with both numbers, and no rank is started")
  {
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    const int world_size = cores + 1;
    const auto r = layerbench::test::shell(training_run("", world_size, out));
    CAPTURE(r.output);
    CHECK(r.status == 2);
    CHECK(r.output.find("--world-size " + std::to_string(world_size) + ": this machine has ") != std::string::npos);
    CHECK(r.output.find("each rank needs one of its own") != std::string::npos);
    CHECK(r.output.find("give --world-size ") != std::string::npos);
    CHECK(r.output.find("starting") == std::string::npos);
    CHECK(r.output.find("[rank ") == std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
}

TEST_CASE("cli::rank_role")
{
  test::TempDir dir("ranks");
  const auto out = dir.path / "x.json";
  SUBCASE("a rendezvous of two ranks with --world-size 1 is the usage error that names both")
  {
    const auto r = layerbench::test::shell(training_run("RANK=0 WORLD_SIZE=2", 1, out));
    CAPTURE(r.output);
    CHECK(r.status == 2);
    CHECK(r.output.find("--world-size 1: the rendezvous in the environment has WORLD_SIZE=2 ranks") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
  SUBCASE("so is a step of two srun tasks with --world-size 1")
  {
    const auto r = layerbench::test::shell(training_run("SLURM_PROCID=1 SLURM_NTASKS=2", 1, out));
    CAPTURE(r.output);
    CHECK(r.status == 2);
    CHECK(r.output.find("--world-size 1: the rendezvous in the environment has SLURM_NTASKS=2 ranks") != std::string::npos);
  }
}

TEST_CASE("cli::rank_rendezvous")
{
  test::TempDir dir("ranks");
  SUBCASE("a MASTER_ADDR that cannot be resolved is named at once, not reported as the store's timeout")
  {
    const auto r = layerbench::test::shell(training_run(
      "RANK=1 WORLD_SIZE=2 LOCAL_RANK=1 MASTER_ADDR=no-such-host.invalid MASTER_PORT=29999", 2, dir.path / "x.json"));
    CAPTURE(r.output);
    CHECK(r.status == 1);
    CHECK(r.output.find("layerbench: error: MASTER_ADDR=no-such-host.invalid cannot be resolved (") != std::string::npos);
    CHECK(r.output.find("timeout") == std::string::npos);
  }
}
#endif
