// SPDX-License-Identifier: MIT
#include "dataset/roofline.hpp"

#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

namespace {

dataset::Layer layer_with(double flops, double fixed, double per_sample)
{
  dataset::Layer layer;
  layer.name = "L";
  layer.flops_per_sample = flops;
  layer.bytes_fixed = fixed;
  layer.bytes_per_sample = per_sample;
  return layer;
}

dataset::Cell cell_at(int batch, double median_ms)
{
  dataset::Cell cell;
  cell.layer = "L";
  cell.batch_size = batch;
  cell.stats = dataset::Stats{};
  cell.stats->median_ms = median_ms;
  return cell;
}

// 100 GFLOP/s and 10 GB/s: the ridge at 10 FLOP/byte.
const dataset::Roofs k_roofs{100e9, 10e9, "fp32", dataset::PeakOrigin::measured};

} // namespace

TEST_CASE("dataset::cell_bytes")
{
  SUBCASE("fixed bytes once, per-sample bytes times the batch")
  {
    CHECK(*dataset::cell_bytes(layer_with(1, 1000, 24), 8) == 1000 + 8 * 24);
  }
  SUBCASE("a layer without a bytes formula has none")
  {
    dataset::Layer layer = layer_with(1, 0, 0);
    layer.bytes_per_sample.reset();
    CHECK(!dataset::cell_bytes(layer, 1));
  }
}

TEST_CASE("dataset::cell_roofline")
{
  SUBCASE("below the ridge a cell is bound by memory: intensity x bandwidth")
  {
    // 2 FLOP per byte: bound 20 GFLOP/s; 2e6 FLOP in 0.2 ms is 10 GFLOP/s, half of it.
    const auto roofline = dataset::cell_roofline(layer_with(2e6, 0, 1e6), cell_at(1, 0.2), k_roofs);
    REQUIRE(roofline);
    CHECK(roofline->intensity == doctest::Approx(2.0));
    CHECK(roofline->bound_by == dataset::Resource::memory);
    CHECK(roofline->bound_flop_per_s == doctest::Approx(20e9));
    CHECK(roofline->achieved_flop_per_s == doctest::Approx(10e9));
    CHECK(roofline->fraction == doctest::Approx(0.5));
  }
  SUBCASE("above the ridge it is bound by the compute peak")
  {
    // 100 FLOP per byte over a batch of 4: 4e9 FLOP in 80 ms is 50 GFLOP/s, half the 100 GFLOP/s peak.
    const auto roofline = dataset::cell_roofline(layer_with(1e9, 0, 1e7), cell_at(4, 80), k_roofs);
    REQUIRE(roofline);
    CHECK(roofline->flop == doctest::Approx(4e9));
    CHECK(roofline->intensity == doctest::Approx(100.0));
    CHECK(roofline->bound_by == dataset::Resource::compute);
    CHECK(roofline->bound_flop_per_s == doctest::Approx(100e9));
    CHECK(roofline->fraction == doctest::Approx(0.5));
  }
  SUBCASE("the fixed bytes are shared by the batch, so intensity grows with it")
  {
    const auto one = dataset::cell_roofline(layer_with(1e6, 1e6, 1e3), cell_at(1, 1), k_roofs);
    const auto many = dataset::cell_roofline(layer_with(1e6, 1e6, 1e3), cell_at(128, 1), k_roofs);
    CHECK(many->intensity / one->intensity == doctest::Approx(128.0 * (1e6 + 1e3) / (1e6 + 128e3)));
  }
  SUBCASE("no point without FLOPs, without bytes, or for a skipped cell")
  {
    CHECK(!dataset::cell_roofline(layer_with(0, 0, 1e6), cell_at(1, 1), k_roofs));
    dataset::Layer no_bytes = layer_with(1e6, 0, 0);
    no_bytes.bytes_fixed.reset();
    CHECK(!dataset::cell_roofline(no_bytes, cell_at(1, 1), k_roofs));
    auto skipped = cell_at(1, 1);
    skipped.status = dataset::CellStatus::skipped;
    CHECK(!dataset::cell_roofline(layer_with(1e6, 0, 1e6), skipped, k_roofs));
  }
}

TEST_CASE("dataset::measured_roofs")
{
  auto data = test::measured();
  SUBCASE("none without peaks")
  {
    CHECK(!dataset::measured_roofs(data));
  }
  SUBCASE("the fp32 compute peak and the memory peak, with the ridge where they meet")
  {
    dataset::Peaks peaks;
    peaks.compute.push_back({"fp32", "mm", 2e9, 20, 1e11, 0.01, 5, true});
    peaks.compute.push_back({"bf16", "mm", 2e9, 10, 2e11, 0.01, 5, true});
    peaks.memory = dataset::PeakRate{"triad", "a = b + 3*c", 3e8, 30, 1e10, 0.01, 5, true};
    data.environment->peaks = peaks;
    const auto roofs = dataset::measured_roofs(data);
    REQUIRE(roofs);
    CHECK(roofs->compute_flop_per_s == 1e11);
    CHECK(roofs->memory_bytes_per_s == 1e10);
    CHECK(dataset::ridge_intensity(*roofs) == doctest::Approx(10.0));
    CHECK(dataset::measured_roofs(data, "bf16")->compute_flop_per_s == 2e11);
    CHECK(!dataset::measured_roofs(data, "fp16"));
    data.environment->peaks->memory.reset();
    CHECK(!dataset::measured_roofs(data));
  }
}
