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
dataset::Roofs roofs_of(double flop_per_s, double bytes_per_s)
{
  dataset::Roofs roofs;
  roofs.compute_flop_per_s = flop_per_s;
  roofs.memory_bytes_per_s = bytes_per_s;
  roofs.precision = "fp32";
  return roofs;
}
const dataset::Roofs k_roofs = roofs_of(100e9, 10e9);

// The same device with 1 MiB of L2 at 100 GB/s and 32 MiB of L3 at 40 GB/s measured.
dataset::Roofs roofs_with_caches()
{
  auto roofs = k_roofs;
  roofs.caches.push_back({"L2", 1 << 20, 100e9, 0.01, true});
  roofs.caches.push_back({"L3", 32 << 20, 40e9, 0.01, true});
  return roofs;
}

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

TEST_CASE("dataset::memory_roof_for")
{
  SUBCASE("the smallest measured level that holds the working set, else the memory past them")
  {
    const auto roofs = roofs_with_caches();
    CHECK(dataset::memory_roof_for(roofs, 5e5).roof.level == "L2");
    CHECK(dataset::memory_roof_for(roofs, 1 << 20).roof.level == "L2");
    CHECK(dataset::memory_roof_for(roofs, 2e6).roof.level == "L3");
    const auto past = dataset::memory_roof_for(roofs, 1e8);
    CHECK(past.roof.level == "DRAM");
    CHECK(past.roof.bytes_per_s == 10e9);
    CHECK(past.fit == dataset::Fit::measured);
  }
  SUBCASE("a level timed below an outer one is bounded by the outer one: inner levels are never slower")
  {
    auto roofs = roofs_with_caches();
    roofs.caches[0].bytes_per_s = 65.5e6; // an L2 triad descheduled on a busy machine
    const auto level = dataset::memory_roof_for(roofs, 5e5);
    CHECK(level.roof.level != "L2");
    CHECK(level.roof.bytes_per_s >= 10e9);
    CHECK(level.fit == dataset::Fit::measured);
  }
  SUBCASE("past every cache, what the caches can keep is not held to the memory: the floor is the largest term")
  {
    const auto roofs = roofs_with_caches();
    const double caches = (1 << 20) + (32 << 20);
    const auto past = dataset::memory_roof_for(roofs, 1e8);
    CHECK(past.retained_bytes == caches);
    CHECK(past.retained_by == "L2 and L3 (33.0 MiB together)");
    CHECK(past.bytes_per_s == doctest::Approx(10e9 * 1e8 / (1e8 - caches)));
    // Far past them the caches' share fades: the memory's own bandwidth, nearly.
    CHECK(dataset::memory_roof_for(roofs, 1e11).bytes_per_s == doctest::Approx(10e9).epsilon(0.001));
    // Just past L2, in L3: L3's term ((bytes - 1 MiB) at 40 GB/s) or the whole at L2's 100 GB/s, the larger.
    const auto in_l3 = dataset::memory_roof_for(roofs, 1.2e6);
    CHECK(in_l3.roof.level == "L2");
    CHECK(in_l3.retained_bytes == 0);
    CHECK(in_l3.holding->level == "L3");
    // Past both caches, with L3's term binding: the set fits in no cache, which `holding` says.
    const auto past_l3 = dataset::memory_roof_for(roofs, 3.5e7);
    CHECK(past_l3.roof.level == "L3");
    REQUIRE(past_l3.holding);
    CHECK(past_l3.holding->level == "DRAM");
    CHECK(dataset::level_text(*past_l3.holding) == "no cache");
    const auto deep_in_l3 = dataset::memory_roof_for(roofs, 2e7);
    CHECK(deep_in_l3.roof.level == "L3");
    CHECK(deep_in_l3.retained_by == "the 1.00 MiB L2");
    CHECK(!deep_in_l3.holding);
  }
  SUBCASE("a datasheet's unmeasured cache keeps its size of a larger working set; within it nothing is bounded")
  {
    auto roofs = k_roofs;
    roofs.unmeasured_cache_bytes = 40 << 20;
    const auto past = dataset::memory_roof_for(roofs, 64 << 20);
    CHECK(past.fit == dataset::Fit::measured);
    CHECK(past.retained_by == "the 40.0 MiB cache");
    CHECK(past.bytes_per_s == doctest::Approx(roofs.memory_bytes_per_s * 64 / 24));
    CHECK(dataset::memory_roof_for(roofs, 40 << 20).fit == dataset::Fit::unmeasured_cache);
  }
  SUBCASE("before 1.7.0: within the recorded last-level cache the level is unmeasured, past it the memory")
  {
    auto roofs = k_roofs;
    roofs.unmeasured_cache_bytes = 32 << 20;
    CHECK(dataset::memory_roof_for(roofs, 1e6).fit == dataset::Fit::unmeasured_cache);
    CHECK(dataset::memory_roof_for(roofs, 1e8).fit == dataset::Fit::measured);
  }
  SUBCASE("no cache size at all: unknown")
  {
    CHECK(dataset::memory_roof_for(k_roofs, 1e8).fit == dataset::Fit::unknown);
  }
  SUBCASE("measured_roofs takes the levels from the dataset's peaks, smallest first")
  {
    auto data = test::measured();
    dataset::Peaks peaks;
    peaks.compute.push_back({"fp32", "mm", 2e9, 20, 1e11, 0.01, 5, true});
    peaks.memory = dataset::PeakRate{"triad", "t", 3e8, 30, 1e10, 0.01, 5, true};
    peaks.caches.push_back({"L3", 32 << 20, "s", dataset::PeakRate{"triad", "t", 1.6e7, 0.4, 4e10, 0.02, 5, true}});
    peaks.caches.push_back({"L2", 1 << 20, "s", dataset::PeakRate{"triad", "t", 5e5, 0.005, 1e11, 0.03, 5, false}});
    data.environment->peaks = peaks;
    data.environment->last_level_cache_bytes = 32 << 20;
    const auto roofs = dataset::measured_roofs(data);
    REQUIRE(roofs);
    REQUIRE(roofs->caches.size() == 2);
    CHECK(roofs->caches[0].level == "L2");
    CHECK(*roofs->caches[0].noise == 0.03);
    CHECK(!roofs->unmeasured_cache_bytes); // L3 measured: the last-level cache is not a level unmeasured
  }
}

TEST_CASE("dataset::cell_roofline with cache levels")
{
  SUBCASE("a working set in L2 is bound by L2's bandwidth, and its share is of that bound")
  {
    // 1 MFLOP and 500 kB: intensity 2 FLOP/byte; L2 gives 200 GFLOP/s, capped at the 100 GFLOP/s peak.
    const auto roofline = dataset::cell_roofline(layer_with(1e6, 0, 5e5), cell_at(1, 0.02), roofs_with_caches());
    REQUIRE(roofline);
    CHECK(roofline->bound_by == dataset::Resource::compute);
    CHECK(roofline->fraction == doctest::Approx(0.5));
    // 100 kFLOP on 500 kB: 0.2 FLOP/byte, 20 GFLOP/s at L2's 100 GB/s (2 GFLOP/s at DRAM's 10).
    const auto bound = dataset::cell_roofline(layer_with(1e5, 0, 5e5), cell_at(1, 0.01), roofs_with_caches());
    REQUIRE(bound);
    CHECK(bound->bound_by == dataset::Resource::memory);
    CHECK(bound->memory.roof.level == "L2");
    CHECK(bound->bound_flop_per_s == doctest::Approx(20e9));
    CHECK(bound->fraction == doctest::Approx(0.5));
  }
}
