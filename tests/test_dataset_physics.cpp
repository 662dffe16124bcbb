// SPDX-License-Identifier: MIT
#include "dataset/physics.hpp"

#include "dataset/erratum.hpp"
#include "dataset/io.hpp"
#include "dataset/sample_check.hpp"
#include "dataset/validate.hpp"
#include "test_dataset_fixture.hpp"
#include "test_dataset_folder.hpp"
#include "util/file.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

using namespace layerbench;

namespace {

dataset::PeakRate peak(const std::string& name, double work, double rate, double noise, bool met = true)
{
  return {name, "timed", work, work / rate * 1e3, rate, noise, 20, met};
}

// One Linear cell of 1 GFLOP and 100 MB of minimum traffic per sample, on a device of 100 GFLOP/s and
// 10 GB/s of memory measured, each peak 1% noisy (so held with the least tolerance, 5%).
dataset::Dataset device_of_known_peaks()
{
  auto data = test::measured({"Linear"}, {1});
  auto& layer = data.layers[0];
  layer.flops_per_sample = 1e9;
  layer.bytes_fixed = 0;
  layer.bytes_per_sample = 1e8;
  dataset::Peaks peaks;
  peaks.compute.push_back(peak("fp32", 2e9, 1e11, 0.01));
  peaks.memory = peak("triad", 3e8, 1e10, 0.01);
  data.environment->peaks = peaks;
  data.methodology->noise_target = 0.05;
  return data;
}

// The same device with its caches measured: 1 MiB of L2 at 100 GB/s, 32 MiB of L3 at 40 GB/s.
dataset::Dataset device_with_caches()
{
  auto data = device_of_known_peaks();
  data.layers[0].flops_per_sample = 1e3; // no compute finding in these
  data.environment->peaks->caches.push_back({"L2", 1 << 20, "test", peak("triad", 5e5, 1e11, 0.01)});
  data.environment->peaks->caches.push_back({"L3", 32 << 20, "test", peak("triad", 1.6e7, 4e10, 0.01)});
  data.environment->last_level_cache_bytes = 32 << 20;
  return data;
}

void set_median(dataset::Dataset& data, double ms)
{
  data.results[0].stats = test::quartiles(ms, ms * 0.99, ms * 1.01);
}

size_t count(const std::vector<dataset::PhysicsFinding>& findings, dataset::Severity severity)
{
  size_t n = 0;
  for (const auto& finding : findings) {
    n += finding.severity == severity ? 1 : 0;
  }
  return n;
}

bool says(const dataset::PhysicsFinding& finding, const std::string& text) { return finding.message.find(text) != std::string::npos; }

} // namespace

TEST_CASE("dataset::roof_tolerance")
{
  SUBCASE("three times the peak's noise") { CHECK(dataset::roof_tolerance(0.142) == doctest::Approx(0.426)); }
  SUBCASE("never below 5%, nor without a noise") {
    CHECK(dataset::roof_tolerance(0.01) == doctest::Approx(0.05));
    CHECK(dataset::roof_tolerance(std::nullopt) == doctest::Approx(0.05));
  }
}

TEST_CASE("dataset::check_physics")
{
  auto data = device_of_known_peaks();
  SUBCASE("a cell below both roofs is possible")
  {
    set_median(data, 20); // 50 GFLOP/s, 5 GB/s
    CHECK(dataset::check_physics(data).empty());
  }
  SUBCASE("above the compute peak by more than the tolerance is refused, with the cell, the rule and the numbers")
  {
    data.layers[0].bytes_per_sample = 1; // no memory finding
    set_median(data, 9);                 // 111 GFLOP/s against 100: 11% above, tolerance 5%
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::error);
    CHECK(findings[0].pointer == "/results/0/stats/median_ms");
    CHECK(says(findings[0], "Linear at batch size 1: 9.00 ms < 10.0 ms, the floor at the measured fp32 peak of 100 GFLOP/s "
                            "for 1.00 GFLOP (111 GFLOP/s; tolerance 5.0%, the least allowed)"));
  }
  SUBCASE("above the direct count's floor with an FFT or Winograd kernel recorded: a warning naming it, not a refusal")
  {
    data.layers[0].bytes_per_sample = 1;
    set_median(data, 9);
    data.results[0].kernels.push_back({"sm80_xmma_gemm_cf32cf32_f32f32_cf32_tn_n", 1, 0.44});
    data.results[0].kernels.push_back({"void fft2d_c2r_32x32<float, false>(float*, float2 const*)", 1, 0.16});
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::warning);
    CHECK(says(findings[0], "(111 GFLOP/s; tolerance 5.0%, the least allowed): above the direct count's floor, which does "
                            "not bound it: its kernels show a transform algorithm that does less arithmetic (void "
                            "fft2d_c2r_32x32<float, false>)"));
    data.results[0].kernels.back().name = "void winograd_fprop<float>(float*)";
    CHECK(dataset::transform_kernel(data.results[0]) == "void winograd_fprop<float>");
    data.results[0].kernels.pop_back();
    CHECK(!dataset::transform_kernel(data.results[0]));
    CHECK(dataset::check_physics(data).at(0).severity == dataset::Severity::error);
  }
  SUBCASE("within the tolerance is not refused")
  {
    data.layers[0].bytes_per_sample = 1;
    set_median(data, 9.6); // 4% above the peak
    CHECK(dataset::check_physics(data).empty());
  }
  SUBCASE("a noisy peak widens the tolerance and is flagged")
  {
    data.layers[0].bytes_per_sample = 1;
    data.environment->peaks->compute[0] = peak("fp32", 2e9, 1e11, 0.142, false);
    set_median(data, 7.5); // 33% above: within 3 x 14.2%
    auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::warning);
    CHECK(findings[0].pointer == "/environment/peaks/compute/0");
    CHECK(says(findings[0], "the fp32 peak missed its noise target: 14.2% against 5.0% over 20 samples"));
    set_median(data, 6.5); // 54% above
    findings = dataset::check_physics(data);
    REQUIRE(count(findings, dataset::Severity::error) == 1);
    CHECK(says(findings[1], "tolerance 42.6%: 3x the peak's 14.2% noise"));
  }
  SUBCASE("a quiet peak short of samples is flagged as unconfirmed, not as noisy")
  {
    data.layers[0].bytes_per_sample = 1;
    set_median(data, 20);
    data.environment->peaks->compute[0] = peak("fp32", 2e9, 1e11, 0.001, false);
    data.environment->peaks->compute[0].samples = 3;
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::warning);
    CHECK(says(findings[0], "the fp32 peak did not confirm its noise target: 0.1% (target 5.0%) over only 3 samples"));
  }
  SUBCASE("a working set past every cache is held to the memory roof for what the caches cannot keep")
  {
    data = device_with_caches();
    // 100 MB past 1 MiB of L2 and 32 MiB of L3: at least 65.4 MB from DRAM at 10 GB/s, 6.54 ms. 9 ms is
    // 11.1 GB/s over all 100 MB, above the memory's roof, and possible: the caches may keep 33 MiB of it
    // between passes, whatever their replacement policy (the rule before 2026-11-28 refused it).
    set_median(data, 9);
    CHECK(dataset::check_physics(data).empty());
    set_median(data, 6); // 65.4 MB from DRAM in 6 ms: 10.9 GB/s
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::error);
    CHECK(says(findings[0], "6.00 ms < 6.54 ms, the floor at DRAM bandwidth 10.0 GB/s (measured) for the 62.4 MiB of "
                            "its 95.4 MiB moved that L2 and L3 (33.0 MiB together) cannot keep"));
  }
  SUBCASE("a working set in L2 is held to L2's bandwidth, not the memory's")
  {
    data = device_with_caches();
    data.layers[0].bytes_per_sample = 5e5; // 500 kB: in the 1 MiB L2
    set_median(data, 0.01);                // 50 GB/s: 5x the memory roof, half L2's
    CHECK(dataset::check_physics(data).empty());
    set_median(data, 0.004); // 125 GB/s: above L2's 100
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::error);
    CHECK(says(findings[0], "0.00400 ms < 0.00500 ms, the floor at L2 bandwidth 100 GB/s (measured) for 488 KiB moved "
                            "(a working set that fits in the 1.00 MiB L2"));
  }
  SUBCASE("a working set in L3 is held to L3's bandwidth")
  {
    data = device_with_caches();
    data.layers[0].bytes_per_sample = 1e7; // 10 MB
    set_median(data, 0.3);                 // 33 GB/s: under L3's 40
    CHECK(dataset::check_physics(data).empty());
    set_median(data, 0.2); // 50 GB/s
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(says(findings[0], "the floor at L3 bandwidth 40.0 GB/s"));
  }
  SUBCASE("a working set just past every cache, held to L3's rate for what L2 cannot keep, fits in no cache")
  {
    data = device_with_caches();
    data.layers[0].bytes_per_sample = 3.5e7; // 33.4 MiB, past the 32 MiB L3: 32.4 MiB at L3's 40 GB/s binds
    set_median(data, 0.5);
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(says(findings[0], "the floor at L3 bandwidth 40.0 GB/s (measured) for the 32.4 MiB of its 33.4 MiB moved "
                            "that the 1.00 MiB L2 cannot keep (a working set that fits in no cache; L3's triad, the "
                            "fastest its share can come from, bounds it;"));
    CHECK(!says(findings[0], "fits in the 32.0 MiB L3"));
  }
  SUBCASE("a level whose triad timed slower than the memory's: the faster bounds it, and the message says where the set sits")
  {
    data = device_with_caches();
    data.environment->peaks->caches[1].triad = peak("triad", 1.6e7, 5e9, 0.01); // L3 at 5 GB/s, under DRAM's 10
    data.layers[0].bytes_per_sample = 1e7;                                      // 10 MB: in the 32 MiB L3
    set_median(data, 0.5); // 20 GB/s, above both
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(says(findings[0], "the floor at DRAM bandwidth 10.0 GB/s"));
    CHECK(says(findings[0], "(a working set that fits in the 32.0 MiB L3, whose triad timed slower than DRAM's, so the "
                            "faster one bounds it;"));
    CHECK(!says(findings[0], "fits in no cache"));
  }
  SUBCASE("a file without cache levels: above the memory roof within the last-level cache is a warning")
  {
    data.layers[0].flops_per_sample = 1e3;
    data.layers[0].bytes_per_sample = 1e7; // 10 MB, within 32 MiB
    data.environment->last_level_cache_bytes = 32 << 20;
    set_median(data, 0.4); // 25 GB/s
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::warning);
    CHECK(says(findings[0], "fits in the 32.0 MiB cache, whose bandwidth the peaks did not measure: not checked"));
  }
  SUBCASE("a file without cache levels: past the last-level cache the memory roof holds")
  {
    data.layers[0].flops_per_sample = 1e3;
    data.environment->last_level_cache_bytes = 32 << 20;
    set_median(data, 4); // 100 MB at 25 GB/s
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::error);
  }
  SUBCASE("without a recorded cache size the memory finding is a warning")
  {
    data.layers[0].flops_per_sample = 1e3;
    set_median(data, 4);
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::warning);
    CHECK(says(findings[0], "records no cache sizes"));
  }
  SUBCASE("skipped cells are not checked")
  {
    data.results[0] = test::skipped_cell("Linear", 1, "out of memory");
    CHECK(dataset::check_physics(data).empty());
  }
}

TEST_CASE("dataset::check_physics with a withdrawn peak")
{
  // The fp32 peak of the catalog's erratum bounds no cell: a cell above it by more than the tolerance is a
  // warning that names the erratum; every other roof holds as before.
  auto data = device_of_known_peaks();
  const dataset::Erratum erratum{dataset::WithdrawnField::compute_peak, "the peak was a median", "2026-11-28", "3427e8c", "fp32"};
  SUBCASE("the compute peak's refusal becomes a warning naming the erratum")
  {
    data.layers[0].bytes_per_sample = 1; // no memory finding
    set_median(data, 9);                 // 111 GFLOP/s against 100: refused without the erratum
    REQUIRE(count(dataset::check_physics(data), dataset::Severity::error) == 1);
    const auto findings = dataset::check_physics(data, {}, {erratum});
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::warning);
    CHECK(findings[0].pointer == "/results/0/stats/median_ms");
    CHECK(says(findings[0], "9.00 ms < 10.0 ms, the floor at the measured fp32 peak of 100 GFLOP/s"));
    CHECK(says(findings[0], "above a peak withdrawn by the erratum of 2026-11-28 that withdraws "
                            "environment.peaks.compute.fp32, which does not bound it"));
  }
  SUBCASE("a rule that the peak does not set still refuses")
  {
    set_median(data, 9); // above the compute peak, and 200 MB is 167 MB past the cache: 18.6 GB/s against 10
    data.layers[0].bytes_per_sample = 2e8;
    data.environment->last_level_cache_bytes = 32 << 20;
    const auto findings = dataset::check_physics(data, {}, {erratum});
    REQUIRE(findings.size() == 2);
    CHECK(findings[0].severity == dataset::Severity::warning);
    CHECK(findings[1].severity == dataset::Severity::error);
    CHECK(says(findings[1], "the floor at DRAM bandwidth 10.0 GB/s (measured)"));
  }
  SUBCASE("an erratum on another precision's peak, or on memory figures, withdraws nothing here")
  {
    data.layers[0].bytes_per_sample = 1;
    set_median(data, 9);
    auto bf16 = erratum;
    bf16.precision = "bf16";
    dataset::Erratum memory{dataset::WithdrawnField::peak_memory_bytes, "canary", "2026-11-27", "0123abc"};
    const auto findings = dataset::check_physics(data, {}, {bf16, memory});
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::error);
  }
}

TEST_CASE("dataset::validate_file with a peak erratum")
{
  // A published version in a data folder whose one cell runs 11% above its fp32 peak.
  test::TempFolder folder;
  auto data = device_of_known_peaks();
  data.version = 1;
  data.layers[0].bytes_per_sample = 1;
  data.results[0].peak_memory_bytes.reset(); // the memory rule has its own tests
  set_median(data, 9);
  auto [file, content, catalog] = test::write_published(folder.path(), data);
  const auto reference = dataset::reference(data.id, data.version);
  dataset::Erratum erratum{dataset::WithdrawnField::compute_peak, "the peak was a median", "2026-11-28", "3427e8c", "fp32"};

  SUBCASE("in force, the peak refuses the cell")
  {
    const auto problems = dataset::validate_file(file);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].find("/results/0/stats/median_ms: Linear at batch size 1: 9.00 ms < 10.0 ms") != std::string::npos);
  }
  SUBCASE("withdrawn by an erratum recorded with the command's function, the cell is a warning naming it")
  {
    dataset::record_erratum(folder.path(), reference, erratum);
    std::vector<std::string> warnings;
    CHECK(dataset::validate_file(file, &warnings).empty());
    const auto excused = std::find_if(warnings.begin(), warnings.end(), [](const std::string& line) {
      return line.find("/results/0/stats/median_ms") != std::string::npos
             && line.find("withdrawn by the erratum of 2026-11-28 that withdraws environment.peaks.compute.fp32") != std::string::npos;
    });
    CHECK(excused != warnings.end());
    CHECK(*util::read_file(file) == content);
  }
  SUBCASE("an erratum naming a peak the run did not measure is refused with its name")
  {
    erratum.precision = "fp16";
    CHECK(test::error_of([&] { dataset::record_erratum(folder.path(), reference, erratum); })
          == "erratum for " + reference + ": field: environment.peaks.compute.fp16 names a peak " + reference
               + " did not measure (its compute peaks: fp32)");
    // Written into the catalog by hand, validate refuses the version it stands beside.
    catalog.datasets[0].errata = {erratum};
    test::write_text(folder.path() / "catalog.json", dataset::serialize(catalog));
    const auto problems = dataset::validate_file(file);
    const auto named = std::find_if(problems.begin(), problems.end(), [](const std::string& line) {
      return line.find("erratum") != std::string::npos && line.find("environment.peaks.compute.fp16 names a peak") != std::string::npos;
    });
    CHECK(named != problems.end());
  }
}

TEST_CASE("dataset::check_physics without measured peaks")
{
  // A LayerNorm cell of a run made with --no-peaks, made a million times faster, samples and all.
  auto data = test::measured({"LayerNorm"}, {128});
  data.layers[0].flops_per_sample = 5 * 768 * 128;
  data.layers[0].bytes_fixed = 2 * 768 * 4;
  data.layers[0].bytes_per_sample = 2 * 768 * 128 * 4; // 96 MiB at batch 128, past the 32 MiB cache
  data.environment->last_level_cache_bytes = 32 << 20;
  set_median(data, 2e-6);
  SUBCASE("its device's datasheet is the floor")
  {
    dataset::DatasheetPeaks datasheet;
    dataset::DatasheetDevice device;
    device.name = "Test CPU";
    device.matches = {"Test CPU"};
    device.compute = {{"fp32", 1e12, ""}};
    device.memory_bytes_per_s = 1e11;
    datasheet.devices.push_back(device);
    const auto findings = dataset::check_physics(data, datasheet);
    REQUIRE(count(findings, dataset::Severity::error) == 2);
    CHECK(says(findings[0], "the floor at the datasheet fp32 peak of 1.00 TFLOP/s"));
    CHECK(says(findings[0], "tolerance 5.0% for a datasheet figure"));
    CHECK(says(findings[1], "the floor at DRAM bandwidth 100 GB/s (datasheet)"));
    set_median(data, 2); // as measured: nothing to say
    CHECK(dataset::check_physics(data, datasheet).empty());
  }
  SUBCASE("without a datasheet entry nothing bounds it, and validate says so")
  {
    const auto findings = dataset::check_physics(data);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == dataset::Severity::warning);
    CHECK(findings[0].pointer == "/environment/peaks");
    CHECK(says(findings[0], "no datasheet entry for the device \"Test CPU\""));
  }
}

TEST_CASE("dataset::check_physics of every file in data/datasets")
{
  // make test holds every published dataset to the physics above and to its own samples, as validate does
  // (validate's other rules have their own tests), with the errata its catalog entry carries: a cell
  // above a peak that an erratum withdrew is a warning. No cell is refused: a refusal is an error in the
  // cell or in a peak, found out and corrected by an erratum or a new version, not listed here.
  const auto source = std::filesystem::path(LAYERBENCH_SOURCE_DIR);
  size_t files = 0;
  size_t excused = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source / "data" / "datasets")) {
    if (entry.path().extension() != ".json") {
      continue;
    }
    ++files;
    const auto name = entry.path().filename().string();
    CAPTURE(name);
    const auto data = dataset::parse_unchecked(*util::read_file(entry.path()), name);
    std::string refused;
    for (const auto& problem : dataset::check_samples(data)) {
      refused += problem.pointer + ": " + problem.message + "\n";
    }
    const auto errata = dataset::errata_of(entry.path(), data);
    for (const auto& finding : dataset::check_physics(data, dataset::datasheet_for(entry.path()), errata)) {
      if (finding.severity == dataset::Severity::error) {
        refused += finding.pointer + ": " + finding.message + "\n";
      }
      excused += finding.message.find("above a peak withdrawn by") != std::string::npos ? 1 : 0;
    }
    CHECK_MESSAGE(refused.empty(), refused);
  }
  CHECK(files > 0);
  // The errata of the three EPYC runs whose fp32 peaks were too low excuse their eight convolutions.
  CHECK(excused == 8);
}
