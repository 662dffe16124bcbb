// SPDX-License-Identifier: MIT
// data/reference/data-parallel-scaling.json: its reader refuses what a hand edit could get wrong, and
// the committed file's measured rows are what `layerbench scaling` computes from the datasets they name.
#include "dataset/scaling_reference.hpp"

#include "dataset/io.hpp"
#include "dataset/scaling.hpp"

#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>

namespace dataset = layerbench::dataset;
namespace test = layerbench::test;
namespace fs = std::filesystem;

namespace {

const fs::path k_source = LAYERBENCH_SOURCE_DIR;

std::string file_with(const std::string& measured_extra, const std::string& published)
{
  return R"({"format": "layerbench-scaling-reference", "format_version": "1.0.0", "about": "test",
  "measured": [{"model": "ResNet50", "mode": "train", "precision": "fp32", "batch_per_rank": 8, "world_size": 2,
    "device": "CPU", "device_type": "cpu", "cores": 2, "one_process_samples_per_s": 10.9, "all_ranks_samples_per_s": 9.01,
    "factor": 0.415, "factor_low": 0.392, "factor_high": 0.433, "all_reduce_ms": 69.3, "date": "2026-11-24",
    "files": ["a.json"], "command": "layerbench scaling a.json b.json", "note": "n")"
         + measured_extra + R"(}],
  "published": [)" + published + "]}";
}

const char* const k_range = R"({"source": {"title": "seed"}, "model": "ResNet50", "setting": "fp32", "device": "GPUs",
  "factor_low": 0.9, "factor_high": 0.95})";

} // namespace

TEST_CASE("dataset::parse_scaling_reference")
{
  SUBCASE("a valid file")
  {
    const auto file = dataset::parse_scaling_reference(file_with("", k_range), "t.json");
    REQUIRE(file.measured.size() == 1);
    CHECK(file.measured[0].axes[dataset::k_mode] == dataset::GradMode::train);
    CHECK(file.measured[0].cores == 2);
    REQUIRE(file.published.size() == 1);
    CHECK(*file.published[0].factor_high == 0.95);
    CHECK_FALSE(file.all_reduce_model);
  }
  SUBCASE("another format is refused by name")
  {
    auto text = file_with("", k_range);
    text.replace(text.find("layerbench-scaling-reference"), 28, "layerbench-finding");
    CHECK(test::error_of([&] { dataset::parse_scaling_reference(text, "t.json"); })
          == "t.json: /format: expected \"layerbench-scaling-reference\"");
  }
  SUBCASE("an unknown field is named")
  {
    CHECK(test::error_of([] { dataset::parse_scaling_reference(file_with(R"(, "factr": 1)", k_range), "t.json"); })
          == "t.json: /measured/0/factr: unknown field");
  }
  SUBCASE("a factor outside its own range")
  {
    const std::string bad = file_with("", k_range);
    const std::string swapped = std::string(bad).replace(bad.find("\"factor_low\": 0.392"), 19, "\"factor_low\": 0.5");
    CHECK(test::error_of([&] { dataset::parse_scaling_reference(swapped, "t.json"); })
          == "t.json: /measured/0/factor: expected low <= factor <= high");
  }
  SUBCASE("a published row with both throughputs and a range, or neither")
  {
    const char* both = R"({"source": {"title": "x"}, "model": "M", "setting": "s", "device": "d", "devices": 8,
      "one_samples_per_s": 1, "all_samples_per_s": 7, "factor_low": 0.9, "factor_high": 0.95})";
    const char* neither = R"({"source": {"title": "x"}, "model": "M", "setting": "s", "device": "d"})";
    for (const char* row : {both, neither}) {
      CHECK(test::error_of([&] { dataset::parse_scaling_reference(file_with("", row), "t.json"); }).find("/published/0: expected either")
            != std::string::npos);
    }
  }
  SUBCASE("a newer format is too new")
  {
    std::string text = file_with("", k_range);
    text.replace(text.find("1.0.0"), 5, "2.0.0");
    CHECK(test::error_of([&] { dataset::parse_scaling_reference(text, "t.json"); }).find("too new") != std::string::npos);
  }
}

TEST_CASE("dataset::load_scaling_reference")
{
  SUBCASE("a data folder without the file has none")
  {
    CHECK_FALSE(dataset::load_scaling_reference(k_source / "tests/fixtures/models"));
  }
  SUBCASE("the committed file's measured rows are what its files give, to the figures it prints")
  {
    const auto file = dataset::load_scaling_reference(k_source / "data");
    REQUIRE(file);
    REQUIRE_FALSE(file->measured.empty());
    for (const auto& row : file->measured) {
      REQUIRE(row.files.size() == 2);
      const auto one = dataset::load(k_source / row.files[0]);
      const auto two = dataset::load(k_source / row.files[1]);
      bool found = false;
      for (const auto& computed : dataset::scaling({{row.files[0], &one}, {row.files[1], &two}})) {
        if (computed.layer != row.model || computed.axes[dataset::k_precision] != row.axes[dataset::k_precision]
            || computed.world_size != row.world_size || computed.batch_per_rank != row.batch_per_rank) {
          continue;
        }
        found = true;
        CHECK(computed.factor == doctest::Approx(row.factor).epsilon(0.0015));
        CHECK(computed.factor_low == doctest::Approx(row.factor_low).epsilon(0.0015));
        CHECK(computed.factor_high == doctest::Approx(row.factor_high).epsilon(0.0015));
        CHECK(computed.single_throughput == doctest::Approx(row.one_process_samples_per_s).epsilon(0.005));
        CHECK(computed.ranks_throughput == doctest::Approx(row.all_ranks_samples_per_s).epsilon(0.005));
        CHECK(computed.all_reduce_median_ms == doctest::Approx(row.all_reduce_ms).epsilon(0.0015));
      }
      CHECK(found);
    }
  }
}
