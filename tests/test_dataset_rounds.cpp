// SPDX-License-Identifier: MIT
#include "dataset/rounds.hpp"

#include "dataset/io.hpp"
#include "dataset/validate.hpp"
#include "test_dataset_fixture.hpp"
#include "util/statistics.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <set>

using namespace layerbench;

namespace {

// Samples around `median`: n values spread evenly over +-`half_width` of it.
dataset::Stats sampled(double median, double half_width, int n = 9)
{
  dataset::Stats stats;
  for (int i = 0; i < n; ++i) {
    stats.samples_ms.push_back(median * (1 - half_width + 2 * half_width * i / (n - 1)));
  }
  const auto summary = util::summarize(stats.samples_ms);
  stats.median_ms = summary.median;
  stats.p25_ms = summary.p25;
  stats.p75_ms = summary.p75;
  stats.min_ms = summary.min;
  stats.samples = n;
  stats.noise = summary.noise;
  stats.noise_target_met = true;
  return stats;
}

// The fixture's matrix as round `index` measured it, every median scaled by `scale`.
dataset::RoundResult finished(int index, double scale)
{
  auto d = test::measured();
  for (auto& cell : d.results) {
    if (cell.stats) {
      cell.stats = sampled(cell.stats->median_ms * scale, 0.02);
    }
  }
  dataset::RoundResult round;
  round.record.index = index;
  round.record.status = "ok";
  round.record.order_seed = dataset::derived_seed(42, index);
  round.record.other_cores_busy = 0.1 * index;
  round.dataset = d;
  return round;
}

dataset::RoundResult failed(int index, const std::string& reason)
{
  dataset::RoundResult round;
  round.record.index = index;
  round.record.status = "failed";
  round.record.reason = reason;
  round.record.order_seed = dataset::derived_seed(42, index);
  return round;
}

} // namespace

TEST_CASE("dataset::shuffled_order")
{
  SUBCASE("a permutation, the same for the same seed, another for another seed")
  {
    const auto order = dataset::shuffled_order(56, 7);
    auto sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i) {
      CHECK(sorted[i] == i);
    }
    CHECK(dataset::shuffled_order(56, 7) == order);
    CHECK(dataset::shuffled_order(56, 8) != order);
  }
  SUBCASE("fixed by the standard's mt19937, so a recorded seed names one order on every platform")
  {
    // std::mt19937(1)'s first outputs are fixed by [rand.predef]; the shuffle's first swap uses them.
    CHECK(dataset::shuffled_order(0, 1).empty());
    CHECK(dataset::shuffled_order(1, 1) == std::vector<size_t>{0});
    const auto order = dataset::shuffled_order(5, 1);
    CHECK(order == dataset::shuffled_order(5, 1));
    CHECK(std::set<size_t>(order.begin(), order.end()).size() == 5);
  }
}

TEST_CASE("dataset::derived_seed")
{
  std::set<uint32_t> seeds;
  for (int index = 0; index <= 100; ++index) {
    seeds.insert(dataset::derived_seed(12345, index));
  }
  CHECK(seeds.size() == 101);
  CHECK(dataset::derived_seed(12345, 3) == dataset::derived_seed(12345, 3));
}

TEST_CASE("dataset::combine_stats")
{
  const auto a = sampled(1.0, 0.1);
  const auto b = sampled(1.2, 0.1);
  const auto c = sampled(3.0, 0.1);
  SUBCASE("the median of the round medians, not of the pooled samples")
  {
    const auto combined = dataset::combine_stats({&a, &b, &c});
    CHECK(combined.median_ms == doctest::Approx(1.2));
    CHECK(*combined.samples == 27);
    CHECK(*combined.min_ms == doctest::Approx(0.9));
    CHECK(combined.samples_ms.empty());
    CHECK(*combined.noise == doctest::Approx(*b.noise)); // the noise within a round
  }
  SUBCASE("the quartiles bracket the median of round medians, where the pooled samples' would not")
  {
    // Pooled, these 27 samples have their 25th percentile above 1.0's round; the median of the rounds'
    // quartiles keeps p25 <= median <= p75.
    const auto low = sampled(0.5, 0.01);
    const auto combined = dataset::combine_stats({&low, &b, &c});
    CHECK(combined.median_ms == doctest::Approx(1.2));
    CHECK(*combined.p25_ms <= combined.median_ms);
    CHECK(combined.median_ms <= *combined.p75_ms);
  }
  SUBCASE("without samples, the quartiles are the median of the rounds' quartiles")
  {
    auto x = test::quartiles(1.0, 0.9, 1.1);
    auto y = test::quartiles(2.0, 1.9, 2.1);
    const auto combined = dataset::combine_stats({&x, &y});
    CHECK(combined.median_ms == doctest::Approx(1.5));
    CHECK(*combined.p25_ms == doctest::Approx(1.4));
    CHECK(!combined.min_ms);
  }
  SUBCASE("no rounds is an error")
  {
    CHECK_THROWS(dataset::combine_stats({}));
  }
}

TEST_CASE("dataset::bootstrap_interval")
{
  const auto a = sampled(1.0, 0.1);
  const auto b = sampled(1.1, 0.1);
  const auto c = sampled(1.2, 0.1);
  const auto interval = dataset::bootstrap_interval({&a, &b, &c}, 9, 2000);
  SUBCASE("deterministic for a seed, and spans the round medians' neighbourhood")
  {
    const auto again = dataset::bootstrap_interval({&a, &b, &c}, 9, 2000);
    CHECK(again.low == interval.low);
    CHECK(again.high == interval.high);
    CHECK(interval.low <= 1.1);
    CHECK(interval.high >= 1.1);
    CHECK(interval.low >= 0.9);
    CHECK(interval.high <= 1.32);
  }
  SUBCASE("rounds that agree give a narrower interval than rounds that differ")
  {
    const auto d = sampled(1.0, 0.1);
    const auto e = sampled(1.0, 0.1);
    const auto tight = dataset::bootstrap_interval({&a, &d, &e}, 9, 2000);
    CHECK(tight.high - tight.low < interval.high - interval.low);
  }
  SUBCASE("a round without samples contributes its median")
  {
    const auto x = test::quartiles(2.0, 1.9, 2.1);
    const auto only = dataset::bootstrap_interval({&x}, 1, 100);
    CHECK(only.low == 2.0);
    CHECK(only.high == 2.0);
  }
}

TEST_CASE("dataset::combine_rounds")
{
  SUBCASE("every cell keeps its rounds, their spread and the median of their medians; the result validates")
  {
    auto combined = dataset::combine_rounds({finished(1, 1.0), finished(2, 1.1), finished(3, 0.95)}, 42);
    REQUIRE(combined.rounds);
    CHECK(combined.rounds->count == 3);
    CHECK(combined.rounds->seed == 42);
    CHECK(combined.rounds->runs.size() == 3);
    CHECK(*combined.environment->other_cores_busy == doctest::Approx(0.3)); // the busiest round
    const auto& cell = test::cell_of(combined, "Linear", 8);
    REQUIRE(cell.rounds.size() == 3);
    REQUIRE(cell.round_spread);
    CHECK(cell.round_spread->rounds == 3);
    CHECK(cell.round_spread->min_median_ms == doctest::Approx(0.95));
    CHECK(cell.round_spread->max_median_ms == doctest::Approx(1.1));
    CHECK(cell.stats->median_ms == doctest::Approx(1.0));
    std::set<int> positions;
    for (const auto& round : cell.rounds) {
      CHECK(round.stats->samples_ms.size() == 9);
      positions.insert(round.position);
    }
    CHECK(*positions.begin() >= 1);
    CHECK(dataset::check(combined).empty());
    // And it survives the file format.
    const auto again = dataset::parse(dataset::serialize(combined), "combined.json");
    CHECK(dataset::serialize(again) == dataset::serialize(combined));
  }
  SUBCASE("a failed round is recorded with its reason and the others are kept")
  {
    auto combined = dataset::combine_rounds({finished(1, 1.0), failed(2, "killed by signal 9"), finished(3, 1.2)}, 42);
    CHECK(combined.rounds->runs[1].status == "failed");
    CHECK(combined.rounds->runs[1].reason == "killed by signal 9");
    const auto& cell = test::cell_of(combined, "Linear", 8);
    CHECK(cell.rounds.size() == 2);
    CHECK(cell.round_spread->rounds == 2);
    CHECK(cell.stats->median_ms == doctest::Approx(1.1));
    CHECK(dataset::check(combined).empty());
  }
  SUBCASE("no finished round is an error naming each round's reason")
  {
    const auto error = test::error_of([] { dataset::combine_rounds({failed(1, "out of memory"), failed(2, "signal 9")}, 1); });
    CHECK(error.find("no round finished") != std::string::npos);
    CHECK(error.find("round 1: out of memory") != std::string::npos);
  }
  SUBCASE("rounds of two devices are refused")
  {
    auto other = finished(2, 1.0);
    other.dataset->environment->device.name = "Another CPU";
    const auto error = test::error_of([&] { dataset::combine_rounds({finished(1, 1.0), other}, 1); });
    CHECK(error.find("round 2 ran on Another CPU") != std::string::npos);
  }
}

TEST_CASE("dataset::check (rounds)")
{
  auto combined = dataset::combine_rounds({finished(1, 1.0), finished(2, 1.1), finished(3, 0.95)}, 42);
  auto& cell = test::cell_of(combined, "Linear", 8);
  const auto messages = [](const dataset::Dataset& d) {
    std::string all;
    for (const auto& problem : dataset::check(d)) {
      all += problem.pointer + ": " + problem.message + "\n";
    }
    return all;
  };
  SUBCASE("a median that is not the median of the round medians")
  {
    cell.stats->median_ms = 1.05;
    CHECK(messages(combined).find("is not the median of the round medians") != std::string::npos);
  }
  SUBCASE("a spread that does not match the rounds")
  {
    cell.round_spread->max_median_ms = 2.0;
    CHECK(messages(combined).find("does not match the rounds' medians") != std::string::npos);
  }
  SUBCASE("a round that did not finish")
  {
    combined.rounds->runs[2].status = "failed";
    CHECK(messages(combined).find("is not a finished round") != std::string::npos);
    CHECK(messages(combined).find("a failed round says why") != std::string::npos);
  }
  SUBCASE("round timings without the rounds' header")
  {
    combined.rounds.reset();
    CHECK(messages(combined).find("round timings in a dataset without /rounds") != std::string::npos);
  }
}
