// SPDX-License-Identifier: MIT
#include "dataset/shard.hpp"

#include "util/error.hpp"

#include <doctest/doctest.h>

#include <set>

using namespace layerbench;

TEST_CASE("dataset::parse_shard")
{
  SUBCASE("i/n")
  {
    const auto shard = dataset::parse_shard("2/4");
    CHECK(shard.index == 2);
    CHECK(shard.count == 4);
    CHECK(dataset::to_string(shard) == "2/4");
  }
  SUBCASE("bad text is an Error that says so, naming no command-line option (the command line adds --shard)")
  {
    for (const char* bad : {"", "2", "0/4", "5/4", "2/0", "-1/4", "+1/4", " 1/4", "1/4x", "a/b", "1//4", "9999999/9999999", "1/4/5"}) {
      CAPTURE(bad);
      try {
        dataset::parse_shard(bad);
        FAIL("accepted");
      } catch (const UsageError&) {
        FAIL("the dataset layer throws no UsageError");
      } catch (const Error& error) {
        CHECK(std::string(error.what()) == "shard \"" + std::string(bad) + "\" is not I/N with 1 <= I <= N (for example 2/4)");
      }
    }
  }
}

TEST_CASE("dataset::in_round_robin_shard")
{
  SUBCASE("round-robin over the layer-major matrix")
  {
    const dataset::Shard second{2, 3};
    CHECK_FALSE(dataset::in_round_robin_shard(second, 0));
    CHECK(dataset::in_round_robin_shard(second, 1));
    CHECK_FALSE(dataset::in_round_robin_shard(second, 2));
    CHECK(dataset::in_round_robin_shard(second, 4));
  }
  SUBCASE("the shards of a 14 x 4 matrix cover every cell exactly once")
  {
    std::multiset<size_t> covered;
    for (int index = 1; index <= 4; ++index) {
      for (size_t cell = 0; cell < 56; ++cell) {
        if (dataset::in_round_robin_shard({index, 4}, cell)) {
          covered.insert(cell);
        }
      }
    }
    CHECK(covered.size() == 56);
    CHECK(std::set<size_t>(covered.begin(), covered.end()).size() == 56);
  }
  SUBCASE("1/1 is the whole matrix")
  {
    CHECK(dataset::in_round_robin_shard({1, 1}, 0));
    CHECK(dataset::in_round_robin_shard({1, 1}, 55));
  }
}

namespace {

std::vector<dataset::CellCost> costs(const std::vector<double>& seconds)
{
  std::vector<dataset::CellCost> result;
  for (size_t i = 0; i < seconds.size(); ++i) {
    result.push_back({{"L" + std::to_string(i / 2), i % 2 == 0 ? 1 : 8}, seconds[i]});
  }
  return result;
}

} // namespace

TEST_CASE("dataset::plan_shards")
{
  SUBCASE("one long cell gets a shard of its own; the short ones share the others")
  {
    const auto plan = dataset::plan_shards(costs({1, 1, 1, 30, 1, 1, 1, 1}), 2);
    REQUIRE(plan.size() == 2);
    REQUIRE(plan[0].cells.size() == 1);
    CHECK(plan[0].cells[0].layer == "L1");
    CHECK(plan[0].cells[0].batch_size == 8);
    CHECK(plan[0].seconds == 30);
    CHECK(plan[1].cells.size() == 7);
    CHECK(plan[1].seconds == 7);
  }
  SUBCASE("longest first beats round-robin on a skewed matrix")
  {
    // Round-robin over 2 shards deals both long cells to shard 1: 16 and 2 seconds.
    const auto plan = dataset::plan_shards(costs({8, 1, 8, 1}), 2);
    CHECK(plan[0].seconds == 9);
    CHECK(plan[1].seconds == 9);
    CHECK(dataset::balance(plan) == doctest::Approx(1.0));
  }
  SUBCASE("every cell in exactly one shard, each shard in matrix order")
  {
    std::vector<double> seconds;
    for (int i = 0; i < 56; ++i) {
      seconds.push_back(1.0 + (i * 37 % 11));
    }
    const auto input = costs(seconds);
    const auto plan = dataset::plan_shards(input, 5);
    std::multiset<std::string> covered;
    for (const auto& shard : plan) {
      for (size_t i = 0; i < shard.cells.size(); ++i) {
        covered.insert(shard.cells[i].layer + "@" + std::to_string(shard.cells[i].batch_size));
        if (i > 0) {
          // "L<k>" at batch 1 is matrix cell 2k, at batch 8 cell 2k + 1.
          const auto position = [](const dataset::CellKey& key) {
            return std::stoi(key.layer.substr(1)) * 2 + (key.batch_size == 8 ? 1 : 0);
          };
          CHECK(position(shard.cells[i - 1]) < position(shard.cells[i]));
        }
      }
    }
    CHECK(covered.size() == 56);
    CHECK(std::set<std::string>(covered.begin(), covered.end()).size() == 56);
    CHECK(dataset::balance(plan) < 1.1);
  }
  SUBCASE("equal costs: the same plan every time, dealt in matrix order")
  {
    const auto plan = dataset::plan_shards(costs({2, 2, 2, 2}), 2);
    CHECK(plan[0].cells[0].layer == "L0");
    CHECK(plan[0].cells[0].batch_size == 1);
    CHECK(plan[0].cells[1].layer == "L1");
    CHECK(plan[1].cells[0].batch_size == 8);
  }
  SUBCASE("more shards than cells leaves some empty; no shards is a UsageError")
  {
    const auto plan = dataset::plan_shards(costs({1, 2}), 3);
    CHECK(plan[2].cells.empty());
    CHECK_THROWS_AS(dataset::plan_shards(costs({1}), 0), UsageError);
  }
}

TEST_CASE("dataset::estimate_cell_seconds")
{
  dataset::CostModel model;
  model.flop_rate = 1e9;
  model.warmup_seconds = 0.05;
  model.warmup_min_iterations = 1;
  model.block_target_seconds = 0.01;
  model.min_samples = 5;
  model.max_samples = 100;
  model.budget_seconds = 1.5;
  SUBCASE("a tiny cell costs the warm-up, two blocks and the budget")
  {
    CHECK(dataset::estimate_cell_seconds(0, model) == doctest::Approx(0.05 + 0.02 + 1.0));
  }
  SUBCASE("a cell of one second a forward takes its minimum samples and more")
  {
    // 3 forwards, warm-up of 1, growth of 2, 5 samples.
    CHECK(dataset::estimate_cell_seconds(1e9, model) == doctest::Approx(3 + 1 + 2 + 5));
  }
  SUBCASE("more FLOPs never cost less")
  {
    double previous = 0;
    for (double flops : {0.0, 1e6, 1e7, 1e8, 1e9, 1e10}) {
      const double seconds = dataset::estimate_cell_seconds(flops, model);
      CHECK(seconds >= previous);
      previous = seconds;
    }
  }
}
