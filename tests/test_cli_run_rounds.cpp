// SPDX-License-Identifier: MIT
// `layerbench run --rounds N`, through the real binary: each round a process of its own, the rounds
// combined, a failed round kept with its reason, a resumed run continuing from the rounds' folder, a run
// stopped after a round (--stop-after-round) and bench/versions/measure.sh taking turns with it.
#if LAYERBENCH_WITH_TORCH
#include "test_shell.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

namespace fs = std::filesystem;
namespace test = layerbench::test;
using test::run_cli;

namespace {

nlohmann::json read_json(const fs::path& path)
{
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// The smallest real matrix: one cheap layer at one batch size, a short budget, no peaks.
const std::string k_tiny = "run --device cpu --layers Dropout,LayerNorm --batch-sizes 1 --cell-budget 0.02 --no-peaks";

} // namespace

TEST_CASE("cli::run_rounds")
{
  test::TempDir dir("rounds");
  SUBCASE("--rounds of 0, negative, absurd or not a number is a usage error naming the option")
  {
    for (const std::string bad : {"0", "-1", "1000", "three"}) {
      CAPTURE(bad);
      const auto r = run_cli(k_tiny + " --rounds " + bad + " --out " + (dir.path / "x.json").string());
      CHECK(r.status == 2);
      CHECK(r.output.find("--rounds") != std::string::npos);
      CHECK(!fs::exists(dir.path / "x.json.rounds"));
    }
    const auto seed = run_cli(k_tiny + " --rounds 3 --seed -5 --out " + (dir.path / "x.json").string());
    CHECK(seed.status == 2);
    CHECK(seed.output.find("--seed: -5 is outside its range, 0 to 4294967295") != std::string::npos);
  }
  SUBCASE("rounds measure the whole matrix: --shard is refused")
  {
    const auto r = run_cli(k_tiny + " --rounds 3 --shard 1/2 --out " + (dir.path / "x.json").string());
    CHECK(r.status == 2);
    CHECK(r.output.find("--rounds: measures the whole matrix in every round") != std::string::npos);
  }
  SUBCASE("three rounds in three processes: each cell keeps three rounds, in shuffled positions, and the file validates")
  {
    const auto out = dir.path / "three.json";
    const auto r = run_cli(k_tiny + " --rounds 3 --seed 11 --out " + out.string());
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(r.output.find("round 3 of 3") != std::string::npos);
    CHECK(!fs::exists(out.string() + ".rounds")); // removed once the dataset is written
    const auto d = read_json(out);
    CHECK(d["rounds"]["count"] == 3);
    CHECK(d["rounds"]["seed"] == 11);
    CHECK(d["rounds"]["runs"].size() == 3);
    for (const auto& cell : d["results"]) {
      CHECK(cell["rounds"].size() == 3);
      CHECK(cell["round_spread"]["rounds"] == 3);
      CHECK(!cell["rounds"][0]["stats"]["samples_ms"].empty());
    }
    CHECK(d["provenance"]["command_line"].get<std::string>().find("--rounds 3") != std::string::npos);
    CHECK(run_cli("validate " + out.string()).status == 0);
  }
  SUBCASE("--resume continues from the rounds' folder, keeping a failed round with its reason")
  {
    const auto out = dir.path / "resumed.json";
    const auto folder = fs::path(out.string() + ".rounds");
    fs::create_directories(folder);
    std::ofstream(folder / "seed") << "5\n";
    // Round 1 finished earlier; round 2 died; round 3 is still to run.
    const auto first = run_cli(k_tiny + " --out " + (folder / "round-1.json").string());
    REQUIRE_MESSAGE(first.status == 0, first.output);
    std::ofstream(folder / "round-2.failed") << "its process was killed by signal 9 (Killed)\n";
    const auto r = run_cli(k_tiny + " --rounds 3 --resume --out " + out.string());
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(r.output.find("round 1 of 3") == std::string::npos); // not measured again
    CHECK(r.output.find("round 3 of 3") != std::string::npos);
    const auto d = read_json(out);
    CHECK(d["rounds"]["seed"] == 5);
    CHECK(d["rounds"]["runs"][1]["status"] == "failed");
    CHECK(d["rounds"]["runs"][1]["reason"] == "its process was killed by signal 9 (Killed)");
    CHECK(d["results"][0]["rounds"].size() == 2);
    CHECK(run_cli("validate " + out.string()).status == 0);
  }
  SUBCASE("a run's rounds folder is not overwritten: without --resume it is refused; --seed must match it")
  {
    const auto out = dir.path / "left.json";
    fs::create_directories(out.string() + ".rounds");
    std::ofstream(out.string() + ".rounds/seed") << "5\n";
    const auto fresh = run_cli(k_tiny + " --rounds 3 --out " + out.string());
    CHECK(fresh.status == 1);
    CHECK(fresh.output.find("continue it with --resume, or delete the folder") != std::string::npos);
    const auto other_seed = run_cli(k_tiny + " --rounds 3 --resume --seed 6 --out " + out.string());
    CHECK(other_seed.status == 2);
    CHECK(other_seed.output.find("--seed: 6 differs from the seed of the run being resumed (5") != std::string::npos);
  }
  SUBCASE("merge --rounds joins separate runs as rounds, in matrix order; a shard or a run in rounds is refused")
  {
    std::string runs;
    for (int index = 1; index <= 3; ++index) {
      const auto file = dir.path / ("single-" + std::to_string(index) + ".json");
      const auto r = run_cli(k_tiny + " --out " + file.string());
      REQUIRE_MESSAGE(r.status == 0, r.output);
      runs += " " + file.string();
    }
    const auto out = dir.path / "joined.json";
    const auto joined = run_cli("merge --rounds --seed 3" + runs + " --out " + out.string());
    REQUIRE_MESSAGE(joined.status == 0, joined.output);
    const auto d = read_json(out);
    CHECK(d["rounds"]["count"] == 3);
    CHECK(!d["rounds"]["runs"][0].contains("order_seed"));
    CHECK(d["results"][1]["rounds"][2]["position"] == 2); // matrix order
    CHECK(run_cli("validate " + out.string()).status == 0);
    const auto again = run_cli("merge --rounds " + out.string() + " " + out.string() + " --out " + (dir.path / "x.json").string());
    CHECK(again.status == 1);
    CHECK(again.output.find("is already a run in rounds") != std::string::npos);
    const auto one = run_cli("merge --rounds " + out.string() + " --out " + (dir.path / "y.json").string());
    CHECK(one.status == 2);
    CHECK(one.output.find("--rounds: give 2 to 50 runs, not 1") != std::string::npos);
  }
  SUBCASE("--stop-after-round outside 1 to --rounds, or without rounds, is a usage error naming the option")
  {
    for (const std::string bad : {"--rounds 3 --stop-after-round 0", "--rounds 3 --stop-after-round 4",
                                  "--stop-after-round 1", "--rounds 1 --stop-after-round 1", "--rounds 3 --stop-after-round x"}) {
      CAPTURE(bad);
      const auto r = run_cli(k_tiny + " " + bad + " --out " + (dir.path / "x.json").string());
      CHECK(r.status == 2);
      CHECK(r.output.find("--stop-after-round") != std::string::npos);
      CHECK(!fs::exists(dir.path / "x.json.rounds"));
    }
    const auto above = run_cli(k_tiny + " --rounds 3 --stop-after-round 4 --out " + (dir.path / "x.json").string());
    CHECK(above.output.find("--stop-after-round: 4 is outside its range, 1 to 3 (--rounds)") != std::string::npos);
    const auto single = run_cli(k_tiny + " --stop-after-round 1 --out " + (dir.path / "x.json").string());
    CHECK(single.output.find("--stop-after-round: stops a run in rounds; give it with --rounds 2 or more") != std::string::npos);
  }
  SUBCASE("--stop-after-round 1 of 2 keeps round 1 uncombined; --resume measures round 2 only and writes both")
  {
    const auto out = dir.path / "turns.json";
    const auto folder = fs::path(out.string() + ".rounds");
    const auto first = run_cli(k_tiny + " --rounds 2 --seed 7 --stop-after-round 1 --out " + out.string());
    REQUIRE_MESSAGE(first.status == 0, first.output);
    CHECK(first.output.find("round 1 of 2 done; run again with --resume to continue") != std::string::npos);
    CHECK(!fs::exists(out));
    CHECK(fs::exists(folder / "round-1.json"));
    CHECK(!fs::exists(folder / "round-2.json"));
    // round_arguments leaves the option to the run: the round's process was not given it.
    const auto round_command = read_json(folder / "round-1.json")["provenance"]["command_line"].get<std::string>();
    CHECK(round_command.find("--order-seed") != std::string::npos);
    CHECK(round_command.find("--stop-after-round") == std::string::npos);

    const auto second = run_cli(k_tiny + " --rounds 2 --stop-after-round 2 --resume --out " + out.string());
    REQUIRE_MESSAGE(second.status == 0, second.output);
    CHECK(second.output.find("round 1 of 2") == std::string::npos); // not measured again
    CHECK(second.output.find("round 2 of 2") != std::string::npos);
    CHECK(!fs::exists(folder));
    const auto d = read_json(out);
    CHECK(d["rounds"]["count"] == 2);
    CHECK(d["rounds"]["seed"] == 7);
    CHECK(d["rounds"]["runs"].size() == 2);
    for (const auto& cell : d["results"]) {
      CHECK(cell["rounds"].size() == 2);
    }
    CHECK(run_cli("validate " + out.string()).status == 0);
  }
  SUBCASE("bench/versions/measure.sh builds every release, then measures them round by round")
  {
    const auto script = std::string(LAYERBENCH_SOURCE_DIR) + "/bench/versions/measure.sh";
    const auto r = layerbench::test::shell("MEASURE_DRY_RUN=1 " + script + " " + (dir.path / "versions").string()
                                           + " 1.0.0 2.0.0 -- --layers Linear --rounds 2");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    std::vector<std::string> commands;
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("make ", 0) == 0 || line.rfind("nice ", 0) == 0 || line.rfind("build-", 0) == 0) {
        commands.push_back(line);
      }
    }
    const auto run = [&](const std::string& release, const std::string& turn) {
      return "build-" + release + "/layerbench run --device cpu --rounds 2 " + turn + " --layers Linear --out "
             + (dir.path / "versions" / ("torch-" + release + ".json")).string();
    };
    const std::vector<std::string> expected{
      "make TORCH_VERSION=1.0.0 setup",
      "nice -n 19 make TORCH_VERSION=1.0.0 JOBS=1 build",
      "make TORCH_VERSION=2.0.0 setup",
      "nice -n 19 make TORCH_VERSION=2.0.0 JOBS=1 build",
      run("1.0.0", "--stop-after-round 1"),
      run("2.0.0", "--stop-after-round 1"),
      run("1.0.0", "--stop-after-round 2 --resume"),
      run("2.0.0", "--stop-after-round 2 --resume"),
    };
    CHECK(commands == expected);
  }
  SUBCASE("--order-seed measures one process's cells in a shuffled order")
  {
    const auto out = dir.path / "ordered.json";
    const auto r = run_cli(k_tiny + " --order-seed 3 --out " + out.string());
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(run_cli("validate " + out.string()).status == 0);
  }
}

#endif
