// SPDX-License-Identifier: MIT
#include "dataset/scaling.hpp"

#include "dataset/axes.hpp"
#include "dataset/io.hpp"
#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

namespace {

dataset::Axes train()
{
  dataset::Axes axes;
  axes.set(dataset::k_mode, dataset::GradMode::train);
  return axes;
}

// A whole model's training step at batch 8 per rank: median `median` ms, quartiles 5% either side.
dataset::Dataset model_run(double median, int world_size)
{
  auto d = test::measured({"ResNetTiny"}, {8});
  d.layers[0].kind = dataset::LayerKind::model;
  auto& cell = d.results[0];
  cell.axes = train();
  cell.stats = test::quartiles(median, median * 0.95, median * 1.05);
  if (world_size > 1) {
    cell.data_parallel = dataset::DataParallel{world_size, "gloo", 25 << 20, {1 << 21, 1 << 20}, 2.0, 1.5, 3.0};
  }
  return d;
}

} // namespace

TEST_CASE("dataset::scaling")
{
  const auto one = model_run(100.0, 1);
  SUBCASE("the factor is median(1) / median(N), its range from the quartiles")
  {
    const auto two = model_run(125.0, 2);
    const auto rows = dataset::scaling({{"one.json", &one}, {"two.json", &two}});
    REQUIRE(rows.size() == 1);
    const auto& row = rows[0];
    CHECK(row.world_size == 2);
    CHECK(row.batch_per_rank == 8);
    CHECK(row.single_throughput == doctest::Approx(80.0));  // 8 samples in 0.1 s
    CHECK(row.ranks_throughput == doctest::Approx(128.0));  // 2 x 8 samples in 0.125 s
    CHECK(row.factor == doctest::Approx(0.8));              // 128 / (2 x 80)
    CHECK(row.factor_low == doctest::Approx(95.0 / 131.25));
    CHECK(row.factor_high == doctest::Approx(105.0 / 118.75));
    CHECK_FALSE(row.rounds);
    CHECK(row.all_reduce_median_ms == 2.0);
  }
  SUBCASE("measured in rounds: the range comes from the bootstrap intervals")
  {
    auto rounded_one = one;
    auto two = model_run(125.0, 2);
    rounded_one.results[0].round_spread = dataset::RoundSpread{3, 99, 101, 98, 102};
    two.results[0].round_spread = dataset::RoundSpread{3, 120, 130, 120, 130};
    const auto rows = dataset::scaling({{"one.json", &rounded_one}, {"two.json", &two}});
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].rounds);
    CHECK(rows[0].factor_low == doctest::Approx(98.0 / 130.0));
    CHECK(rows[0].factor_high == doctest::Approx(102.0 / 120.0));
  }
  SUBCASE("nothing to pair is refused, not an empty table with exit 0")
  {
    const auto two = model_run(125.0, 2);
    auto other_batch = one;
    other_batch.results[0].batch_size = 4;
    other_batch.methodology->batch_sizes = {4};
    const auto message = test::error_of([&] { dataset::scaling({{"one.json", &other_batch}, {"two.json", &two}}); });
    CHECK(message.find("nothing to pair: no data-parallel training step in these files has a one-process twin") == 0);
    CHECK(test::error_of([&] { dataset::scaling({{"one.json", &one}}); }).find("nothing to pair") == 0);
    CHECK(test::error_of([&] { dataset::scaling({}); }) == "no files to pair");
  }
  SUBCASE("a table row at the figures the spread supports")
  {
    const auto two = model_run(125.0, 2);
    const auto text = dataset::format_scaling(dataset::scaling({{"one.json", &one}, {"two.json", &two}}));
    CHECK(text.find("| ResNetTiny | 8 | train | 2 | 80 | 130 | 0.80 (0.72-0.88) | 2.0 |") != std::string::npos);
  }
  SUBCASE("runs of two devices are refused, naming them")
  {
    auto two = model_run(125.0, 2);
    two.environment->device.name = "Other CPU";
    CHECK(test::error_of([&] { dataset::scaling({{"one.json", &one}, {"two.json", &two}}); })
          == "two.json: measured on \"Other CPU\", one.json measured on \"Test CPU\"; a scaling factor compares one "
             "device's runs");
  }
  SUBCASE("runs of two torch releases are refused, naming them")
  {
    auto two = model_run(125.0, 2);
    two.environment->torch_version = "2.10.0";
    CHECK(test::error_of([&] { dataset::scaling({{"one.json", &one}, {"two.json", &two}}); })
          == "two.json: with torch \"2.10.0\", one.json with torch \"2.11.0\"; a scaling factor compares runs of one "
             "torch release");
  }
  SUBCASE("a world size that its own throughput contradicts is refused")
  {
    auto single = one;
    single.results[0].throughput_samples_per_s = 80.0; // 8 samples per 100 ms step: one process
    auto two = model_run(125.0, 2);
    two.results[0].throughput_samples_per_s = 128.0; // 2 x 8 samples per 125 ms step
    CHECK(dataset::scaling({{"one.json", &single}, {"two.json", &two}}).size() == 1);
    auto edited = two;
    edited.results[0].data_parallel->world_size = 4;
    CHECK(test::error_of([&] { dataset::scaling({{"one.json", &single}, {"two.json", &edited}}); })
          == "two.json: ResNetTiny at batch size 8 (train) records world size 4, but its throughput_samples_per_s is "
             "that of 2.00 ranks of 8 samples per 125 ms step; the file contradicts itself");
    auto dropped = two;
    dropped.results[0].data_parallel.reset();
    CHECK(test::error_of([&] { dataset::scaling({{"one.json", &single}, {"two.json", &dropped}}); }).find(
            "two.json: ResNetTiny at batch size 8 (train) records world size 1 (no data_parallel), but its "
            "throughput_samples_per_s is that of 2.00 ranks") == 0);
  }
  SUBCASE("one cell at one world size in two files is refused")
  {
    CHECK(test::error_of([&] { dataset::scaling({{"a.json", &one}, {"b.json", &one}}); }).find(
            "b.json: ResNetTiny at batch size 8 (train) at world size 1 is measured in a.json too") == 0);
  }
}

TEST_CASE("dataset::serialize data_parallel")
{
  auto two = model_run(125.0, 2);
  const auto read = dataset::parse_unchecked(dataset::serialize(two), "round-trip");
  REQUIRE(read.results[0].data_parallel);
  const auto& ranks = *read.results[0].data_parallel;
  CHECK(ranks.world_size == 2);
  CHECK(ranks.backend == "gloo");
  CHECK(ranks.bucket_cap_bytes == 25 << 20);
  CHECK(ranks.bucket_bytes == std::vector<int64_t>{1 << 21, 1 << 20});
  CHECK(ranks.all_reduce_median_ms == 2.0);
  CHECK(ranks.all_reduce_p25_ms == 1.5);
  CHECK(ranks.all_reduce_p75_ms == 3.0);
  CHECK_FALSE(dataset::parse_unchecked(dataset::serialize(model_run(100.0, 1)), "one").results[0].data_parallel);
}
