// SPDX-License-Identifier: MIT
#include "dataset/physics.hpp"

#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

namespace {

// One Linear cell of 1 GFLOP and 1 GB of minimum traffic per sample, on a device of 100 GFLOP/s and
// 10 GB/s measured, with a 32 MiB last-level cache.
dataset::Dataset device_of_known_peaks()
{
  auto data = test::measured({"Linear"}, {1});
  auto& layer = data.layers[0];
  layer.flops_per_sample = 1e9;
  layer.bytes_fixed = 0;
  layer.bytes_per_sample = 1e8;
  dataset::Peaks peaks;
  peaks.compute.push_back({"fp32", "mm", 2e9, 20, 1e11, 0.01, 5, true});
  peaks.memory = dataset::PeakRate{"triad", "a = b + 3*c", 3e8, 30, 1e10, 0.01, 5, true};
  data.environment->peaks = peaks;
  data.environment->last_level_cache_bytes = 32 << 20;
  return data;
}

void set_median(dataset::Dataset& data, double ms)
{
  data.results[0].stats = test::quartiles(ms, ms * 0.99, ms * 1.01);
}

size_t count(const std::vector<dataset::Finding>& findings, dataset::Severity severity)
{
  size_t n = 0;
  for (const auto& finding : findings) {
    n += finding.severity == severity ? 1 : 0;
  }
  return n;
}

} // namespace

TEST_CASE("dataset::check_physics")
{
  auto data = device_of_known_peaks();
  SUBCASE("a cell below both roofs is possible")
  {
    set_median(data, 20); // 50 GFLOP/s, 5 GB/s
    CHECK(dataset::check_physics(data).empty());
  }
  SUBCASE("more than twice the measured compute peak is impossible, with its arithmetic")
  {
    set_median(data, 4); // 250 GFLOP/s against 100; 25 GB/s too, but the compute finding comes first
    const auto findings = dataset::check_physics(data);
    REQUIRE(!findings.empty());
    CHECK(findings[0].severity == dataset::Severity::error);
    CHECK(findings[0].pointer == "/results/0/stats/median_ms");
    CHECK(findings[0].message.find("Linear at batch size 1: 1.00 GFLOP in 4.00 ms is 250 GFLOP/s, more than 2x the device's measured "
                                   "fp32 peak of 100 GFLOP/s")
          != std::string::npos);
  }
  SUBCASE("a working set larger than the cache above twice the memory roof is impossible")
  {
    data.layers[0].flops_per_sample = 1e6; // no compute finding
    set_median(data, 4);                   // 100 MB in 4 ms = 25 GB/s against 10
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::error);
    CHECK(findings[0].message.find("last-level cache: the time is wrong") != std::string::npos);
  }
  SUBCASE("above the memory roof with a working set that fits in the cache: a warning only")
  {
    data.layers[0].flops_per_sample = 1e6;
    data.layers[0].bytes_per_sample = 1e7; // 10 MB, within 32 MiB
    set_median(data, 0.4);                 // 25 GB/s
    const auto findings = dataset::check_physics(data);
    CHECK(count(findings, dataset::Severity::error) == 0);
    REQUIRE(count(findings, dataset::Severity::warning) == 1);
    CHECK(findings[0].message.find("fits in the 32.0 MiB last-level cache") != std::string::npos);
  }
  SUBCASE("without a recorded cache size the memory finding is a warning")
  {
    data.layers[0].flops_per_sample = 1e6;
    data.environment->last_level_cache_bytes.reset();
    set_median(data, 4);
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::warning);
  }
  SUBCASE("nothing is checked without measured peaks, or for skipped cells")
  {
    set_median(data, 0.001);
    auto no_peaks = data;
    no_peaks.environment->peaks.reset();
    CHECK(dataset::check_physics(no_peaks).empty());
    data.results[0] = test::skipped_cell("Linear", 1, "out of memory");
    CHECK(dataset::check_physics(data).empty());
  }
}
