// SPDX-License-Identifier: MIT
// The command line of `layerbench slurm`, through the real binary, with a fake sbatch on PATH. The real
// Slurm is in tests/slurm_check.sh (CTest cluster/slurm).
#if LAYERBENCH_WITH_TORCH
#include "test_shell.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

using Result = layerbench::test::ShellResult;
using layerbench::test::shell;

std::string read(const fs::path& path)
{
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// An sbatch that logs its arguments and answers `answer` with `status`.
void fake_sbatch(const fs::path& bin, const std::string& answer, int status)
{
  fs::create_directories(bin);
  std::ofstream(bin / "sbatch") << "#!/bin/sh\necho \"$@\" >> " << (bin / "calls").string() << "\n"
                                << "n=$(wc -l < " << (bin / "calls").string() << ")\n"
                                << "printf '" << answer << "' \"$((100 + n))\"\nexit " << status << "\n";
  fs::permissions(bin / "sbatch", fs::perms::owner_all);
}

const std::string k_matrix = " --device cpu --layers Linear,LayerNorm,TransformerEncoder --batch-sizes 1,8 --cell-budget 0.5";

} // namespace

TEST_CASE("cli::cmd_slurm")
{
  const fs::path dir = fs::temp_directory_path() / ("layerbench-slurm-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string binary = LAYERBENCH_BINARY;
  SUBCASE("without --submit: the scripts are written and printed, with the plan and how to submit")
  {
    const auto r = shell(binary + " slurm --out-dir " + (dir / "out").string() + " --shards 3" + k_matrix);
    CHECK(r.status == 0);
    const auto array = read(dir / "out" / "layerbench-shards.sbatch");
    CHECK(array.find("#SBATCH --array=0-2\n") != std::string::npos);
    CHECK(array.find(" run --device cpu --layers Linear,LayerNorm,TransformerEncoder --batch-sizes 1,8 --cell-budget 0.5 "
                     "--shard \"$shard/3\"") != std::string::npos);
    CHECK(r.output.find(array) != std::string::npos);
    CHECK(r.output.find("layerbench: shard 1/3: expected ") != std::string::npos);
    CHECK(r.output.find("longest shard / mean") != std::string::npos);
    CHECK(r.output.find("sbatch --dependency=afterok:") != std::string::npos);
    CHECK(fs::is_directory(dir / "out" / "logs"));
    CHECK(read(dir / "out" / "layerbench-merge.sbatch").find(" validate ") != std::string::npos);
  }
  SUBCASE("an --out-dir holding another matrix's shards is refused, naming the difference; the same job reuses it")
  {
    const auto out = (dir / "reused").string();
    REQUIRE(shell(binary + " slurm --out-dir " + out + " --shards 3" + k_matrix).status == 0);
    std::ofstream(dir / "reused" / "shard-1-of-3.json") << "{}";
    const auto other = shell(binary + " slurm --out-dir " + out + " --shards 3" + k_matrix + " --axes mode=no_grad");
    CHECK(other.status == 1);
    CHECK(other.output.find("holds the results of another job (shard-1-of-3.json)") != std::string::npos);
    CHECK(other.output.find("no_grad'; choose a new --out-dir") != std::string::npos); // the line that differs
    CHECK(read(dir / "reused" / "layerbench-shards.sbatch").find("no_grad") == std::string::npos); // untouched
    const auto same = shell(binary + " slurm --out-dir " + out + " --shards 3" + k_matrix);
    CHECK(same.status == 0);
  }
  SUBCASE("--nodes and --ntasks-per-node: each task a data-parallel step of their product, started by srun")
  {
    const auto models = " --device cpu --layers ResNetTiny --batch-sizes 2 --axes mode=train";
    const auto r = shell(binary + " slurm --out-dir " + (dir / "ddp").string() + " --shards 1 --nodes 2 --ntasks-per-node 2" + models);
    CHECK(r.status == 0);
    const auto array = read(dir / "ddp" / "layerbench-shards.sbatch");
    CHECK(array.find("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=2\n") != std::string::npos);
    CHECK(array.find("exec srun --kill-on-bad-exit=1 ") != std::string::npos);
    CHECK(array.find(" --axes mode=train --world-size=4 --shard \"$shard/1\"") != std::string::npos);
    const auto layer = shell(binary + " slurm --out-dir " + (dir / "ddp2").string() + " --shards 1 --ntasks-per-node 2" + k_matrix);
    CHECK(layer.status == 2);
    CHECK(layer.output.find("--world-size 2: Linear is a layer, not a whole model") != std::string::npos);
    const auto given = shell(binary + " slurm --out-dir " + (dir / "ddp3").string() + " --shards 1 --world-size 2" + models);
    CHECK(given.status == 2);
    CHECK(given.output.find("slurm: --world-size is set for each task from --nodes x --ntasks-per-node") != std::string::npos);
  }
  SUBCASE("--submit: the array, then the merge depending on it; both ids printed")
  {
    fake_sbatch(dir / "bin", "%s\\n", 0);
    const auto r = shell("PATH=" + (dir / "bin").string() + ":$PATH " + binary + " slurm --out-dir "
                         + (dir / "out").string() + " --shards 2 --max-running 1 --partition gpu --submit" + k_matrix);
    CHECK(r.status == 0);
    CHECK(r.output.find("array job 101 (2 shards), merge job 102 -> ") != std::string::npos);
    const auto calls = read(dir / "bin" / "calls");
    CHECK(calls.find("--parsable " + (dir / "out" / "layerbench-shards.sbatch").string() + "\n") == 0);
    CHECK(calls.find("--parsable --dependency=afterok:101 --kill-on-invalid-dep=yes "
                     + (dir / "out" / "layerbench-merge.sbatch").string() + "\n")
          != std::string::npos);
    CHECK(read(dir / "out" / "layerbench-shards.sbatch").find("#SBATCH --array=0-1%1\n") != std::string::npos);
  }
  SUBCASE("sbatch missing, a refused submission, an output folder that cannot be made: one error line each")
  {
    auto r = shell("PATH=/nonexistent " + binary + " slurm --out-dir " + (dir / "out").string() + " --shards 2 --submit" + k_matrix);
    CHECK(r.status == 1);
    CHECK(r.output.find("layerbench: error: slurm: sbatch is not on PATH") == 0);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);

    fake_sbatch(dir / "bin", "sbatch: error: Batch job submission failed: Invalid account\\n", 1);
    r = shell("PATH=" + (dir / "bin").string() + ":$PATH " + binary + " slurm --out-dir " + (dir / "out").string()
              + " --shards 2 --submit" + k_matrix + " 2>&1 | grep error");
    CHECK(r.output == "layerbench: error: slurm: sbatch refused " + (dir / "out" / "layerbench-shards.sbatch").string()
                        + ": sbatch: error: Batch job submission failed: Invalid account\n");

    std::ofstream(dir / "file") << "x";
    r = shell(binary + " slurm --out-dir " + (dir / "file" / "out").string() + " --shards 2" + k_matrix);
    CHECK(r.status == 1);
    CHECK(r.output.find("layerbench: error: slurm: --out-dir " + (dir / "file" / "out").string() + ": cannot create it: ")
          == 0);
  }
  SUBCASE("usage errors: --device auto, options set per task, more shards than cells")
  {
    auto r = shell(binary + " slurm --out-dir " + (dir / "out").string() + " --shards 2");
    CHECK(r.status == 2);
    CHECK(r.output.find("slurm: --device: give cpu or cuda") != std::string::npos);
    r = shell(binary + " slurm --out-dir " + (dir / "out").string() + " --shards 2 --out x.json" + k_matrix);
    CHECK(r.status == 2);
    CHECK(r.output.find("slurm: --out is set for each task") != std::string::npos);
    r = shell(binary + " slurm --out-dir " + (dir / "out").string() + " --shards 7" + k_matrix);
    CHECK(r.status == 2);
    CHECK(r.output.find("--shard: 7 shards for a matrix of 6 cells; use at most 6") != std::string::npos);
  }
  fs::remove_all(dir);
}
#endif
