// SPDX-License-Identifier: MIT
#include "dataset/memory_check.hpp"

#include "dataset/catalog.hpp"
#include "dataset/erratum.hpp"
#include "dataset/io.hpp"
#include "dataset/validate.hpp"
#include "test_dataset_fixture.hpp"
#include "test_dataset_folder.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace layerbench;

namespace {

// The canary's buffers, counted by the CPU datasets of 2026-11-22 to 2026-11-27: 2 x 32 MiB + 3 x 256 x 256 x 4.
constexpr int64_t k_canary_bytes = 67895296;

// Linear and Dropout at batch sizes 1 and 8 (results 0 to 3), with byte formulas: Linear holds 40 bytes of
// parameters and 100 bytes of input and output per sample, Dropout none and 100. Every peak in bounds.
dataset::Dataset with_formulas()
{
  auto d = test::measured();
  d.layers[0].bytes_fixed = 40;
  d.layers[0].bytes_per_sample = 100;
  d.layers[1].params = 0;
  d.layers[1].bytes_fixed = 0;
  d.layers[1].bytes_per_sample = 100;
  test::cell_of(d, "Linear", 1).peak_memory_bytes = 140;
  test::cell_of(d, "Linear", 8).peak_memory_bytes = 1000;
  test::cell_of(d, "Dropout", 1).peak_memory_bytes = 150;
  test::cell_of(d, "Dropout", 8).peak_memory_bytes = 1200;
  return d;
}

} // namespace

TEST_CASE("dataset::memory_floor")
{
  auto d = with_formulas();
  SUBCASE("parameters and buffers plus the batch's input and output")
  {
    const auto floor = dataset::memory_floor(d.layers[0], test::cell_of(d, "Linear", 8));
    REQUIRE(floor);
    CHECK(floor->bytes == 840);
    CHECK(floor->arithmetic == "parameters and buffers 40 B + batch 8 x 100 B of input and output");
  }
  SUBCASE("at bf16 the input and output count half: autocast writes a 16-bit output")
  {
    auto& cell = test::cell_of(d, "Linear", 8);
    cell.axes.set(dataset::k_precision, dataset::Precision::bf16);
    const auto floor = dataset::memory_floor(d.layers[0], cell);
    REQUIRE(floor);
    CHECK(floor->bytes == 440);
    CHECK(floor->arithmetic.find("x 1/2 at bf16") != std::string::npos);
  }
  SUBCASE("a layer that reads only some of its parameters (Embedding) holds them all")
  {
    d.layers[1].params = 1000;
    const auto floor = dataset::memory_floor(d.layers[1], test::cell_of(d, "Dropout", 8));
    REQUIRE(floor);
    CHECK(floor->bytes == 4000);
  }
  SUBCASE("no byte formulas, no floor")
  {
    d.layers[0].bytes_per_sample.reset();
    CHECK(!dataset::memory_floor(d.layers[0], test::cell_of(d, "Linear", 8)));
  }
}

TEST_CASE("dataset::check_memory")
{
  auto d = with_formulas();
  SUBCASE("every peak between its floor and 16 times it: nothing")
  {
    CHECK(dataset::check_memory(d).empty());
  }
  SUBCASE("a peak below what the forward holds is an error with the cell, the rule and the numbers")
  {
    test::cell_of(d, "Linear", 8).peak_memory_bytes = 800;
    const auto findings = dataset::check_memory(d, dataset::MemoryFigures::withdrawn);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].verdict == dataset::MemoryVerdict::refused);
    CHECK(findings[0].rule == dataset::MemoryRule::below_floor);
    CHECK(findings[0].pointer == "/results/1/peak_memory_bytes");
    CHECK(findings[0].message == "Linear at batch size 8: peak memory 800 B is below the 840 B its forward holds at once "
                                 "(parameters and buffers 40 B + batch 8 x 100 B of input and output): the figure misses "
                                 "tensors of the cell");
  }
  SUBCASE("the canary counted in: an error where the figures stand, a warning where an erratum withdrew them")
  {
    test::cell_of(d, "Dropout", 1).peak_memory_bytes = 100 + k_canary_bytes;
    const auto findings = dataset::check_memory(d);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].verdict == dataset::MemoryVerdict::refused);
    CHECK(findings[0].rule == dataset::MemoryRule::above_multiple);
    CHECK(findings[0].pointer == "/results/2/peak_memory_bytes");
    CHECK(findings[0].message.find("Dropout at batch size 1: peak memory 67,895,396 B is 678954x the 100 B") == 0);
    CHECK(findings[0].message.find("above the 16x that no layer needs") != std::string::npos);
    const auto withdrawn = dataset::check_memory(d, dataset::MemoryFigures::withdrawn);
    REQUIRE(withdrawn.size() == 1);
    CHECK(withdrawn[0].verdict == dataset::MemoryVerdict::warned);
    CHECK(withdrawn[0].message.find("withdrawn by an erratum") != std::string::npos);
  }
  SUBCASE("16 times the floor exactly is still in bounds")
  {
    test::cell_of(d, "Dropout", 1).peak_memory_bytes = 1600;
    CHECK(dataset::check_memory(d).empty());
    test::cell_of(d, "Dropout", 1).peak_memory_bytes = 1601;
    CHECK(dataset::check_memory(d).size() == 1);
  }
  SUBCASE("above 16 times, where the cell's kernels show a transform convolution: a warning that says so, and publishable")
  {
    auto& cell = test::cell_of(d, "Dropout", 1);
    cell.peak_memory_bytes = 100000;
    cell.kernels.push_back({"void pointwise_mult_and_sum_complex<float2, 8, 4>(float2*)", 1, 0.74});
    CHECK(dataset::check_memory(d).at(0).verdict == dataset::MemoryVerdict::refused);
    cell.kernels.push_back({"void DSE::regular_fft_pad<0, 1, 128>(float2*, float*)", 1, 0.1});
    const auto findings = dataset::check_memory(d);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].verdict == dataset::MemoryVerdict::warned);
    CHECK(findings[0].message.find("its kernels show a transform convolution (void DSE::regular_fft_pad<0, 1, 128>), whose "
                                   "library workspace is part of the forward")
          != std::string::npos);
    CHECK_NOTHROW(dataset::require_memory_figures(d, "publish test-cpu@1"));
  }
  SUBCASE("above 16 times in an attention layer: a warning that names the S x S scores, and publishable")
  {
    d.layers[1].module = "nn.MultiheadAttention";
    auto& cell = test::cell_of(d, "Dropout", 1);
    cell.peak_memory_bytes = 2290;
    cell.axes.set(dataset::k_mode, dataset::GradMode::train);
    const auto findings = dataset::check_memory(d);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].verdict == dataset::MemoryVerdict::warned);
    CHECK(findings[0].message.find("is 22.9x the 100 B") != std::string::npos);
    CHECK(findings[0].message.find("its attention holds S x S scores per head and keeps them for the backward, which "
                                   "grow with the square of the sequence")
          != std::string::npos);
    CHECK_NOTHROW(dataset::require_memory_figures(d, "publish test-cpu@1"));
    d.layers[1].module = "nn.Dropout";
    CHECK(dataset::check_memory(d).at(0).verdict == dataset::MemoryVerdict::refused);
  }
  SUBCASE("a published reference is not ours to check")
  {
    test::cell_of(d, "Linear", 8).peak_memory_bytes = 1;
    d.kind = dataset::Kind::published_reference;
    CHECK(dataset::check_memory(d).empty());
  }
  SUBCASE("publish refuses a new version whose figures break a bound, naming the cell")
  {
    test::cell_of(d, "Dropout", 1).peak_memory_bytes = 100 + k_canary_bytes;
    const auto message = test::error_of([&] { dataset::require_memory_figures(d, "publish test-cpu@1"); });
    CHECK(message.rfind("publish test-cpu@1: not publishable, its peak memory figures break their bounds:\n  "
                        "/results/2/peak_memory_bytes: Dropout at batch size 1",
                        0)
          == 0);
  }
}

TEST_CASE("dataset::memory_figures")
{
  // A data folder holding a dataset whose Dropout@1 carries the canary, as the published CPU datasets do.
  test::TempFolder folder;
  auto d = with_formulas();
  d.version = 1;
  test::cell_of(d, "Dropout", 1).peak_memory_bytes = 100 + k_canary_bytes;
  const auto [file, content, catalog] = test::write_published(folder.path(), d);

  SUBCASE("in force: validate refuses the cell")
  {
    CHECK(dataset::memory_figures(file, d) == dataset::MemoryFigures::in_force);
    const auto problems = dataset::validate_file(file);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].find("/results/2/peak_memory_bytes: Dropout at batch size 1: peak memory 67,895,396 B") != std::string::npos);
  }
  SUBCASE("withdrawn by an erratum: validate warns, the file is unchanged")
  {
    dataset::record_erratum(folder.path(), "test-cpu@1", {dataset::WithdrawnField::peak_memory_bytes, "counts the canary", "2026-11-27", "0123abc"});
    CHECK(dataset::memory_figures(file, d) == dataset::MemoryFigures::withdrawn);
    std::vector<std::string> warnings;
    CHECK(dataset::validate_file(file, &warnings).empty());
    // Other rules may warn too; the memory rule's is the one at the cell's peak.
    const auto memory = std::find_if(warnings.begin(), warnings.end(),
                                     [](const std::string& line) { return line.find("/results/2/peak_memory_bytes") != std::string::npos; });
    REQUIRE(memory != warnings.end());
    CHECK(memory->find("withdrawn by an erratum") != std::string::npos);
    CHECK(*util::read_file(file) == content);
  }
  SUBCASE("a file outside a data folder is a new run: its figures stand")
  {
    CHECK(dataset::memory_figures(folder.path() / "run.json", d) == dataset::MemoryFigures::in_force);
  }
}
