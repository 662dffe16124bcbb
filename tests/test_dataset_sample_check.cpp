// SPDX-License-Identifier: MIT
#include "dataset/sample_check.hpp"

#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

namespace {

// A cell whose statistics are those of its five samples.
dataset::Dataset sampled()
{
  auto data = test::measured({"LayerNorm"}, {1});
  auto& stats = *data.results[0].stats;
  stats.samples_ms = {1.0, 1.2, 1.1, 0.9, 1.3};
  stats.samples = 5;
  stats.median_ms = 1.1;
  stats.p25_ms = 1.0;
  stats.p75_ms = 1.2;
  stats.min_ms = 0.9;
  stats.mean_ms = 1.1;
  return data;
}

} // namespace

TEST_CASE("dataset::check_samples")
{
  auto data = sampled();
  auto& stats = *data.results[0].stats;
  SUBCASE("statistics of their samples agree") { CHECK(dataset::check_samples(data).empty()); }
  SUBCASE("a count that is not the samples' is refused")
  {
    stats.samples_ms.assign(20000, 1.1);
    const auto problems = dataset::check_samples(data);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].pointer == "/results/0/stats/samples");
    CHECK(problems[0].message == "samples is 5 but samples_ms holds 20000 samples");
  }
  SUBCASE("a median a million times faster than its samples is refused, as is every quartile so edited")
  {
    stats.median_ms = 1.1e-6;
    stats.p25_ms = 1.0e-6;
    const auto problems = dataset::check_samples(data);
    REQUIRE(problems.size() == 2);
    CHECK(problems[0].pointer == "/results/0/stats/median_ms");
    CHECK(problems[0].message == "median_ms is 1.1e-06 but the 5 samples_ms give 1.1: the statistics are not those of the samples");
    CHECK(problems[1].pointer == "/results/0/stats/p25_ms");
  }
  SUBCASE("a round's statistics are held to its samples too")
  {
    dataset::RoundCell round;
    round.round = 1;
    round.stats = stats;
    round.stats->mean_ms = 2.0;
    data.results[0].rounds.push_back(round);
    const auto problems = dataset::check_samples(data);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].pointer == "/results/0/rounds/0/stats/mean_ms");
  }
  SUBCASE("statistics without samples (older files, references) are not checked")
  {
    stats.samples_ms.clear();
    stats.median_ms = 5;
    CHECK(dataset::check_samples(data).empty());
  }
}
