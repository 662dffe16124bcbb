// SPDX-License-Identifier: MIT
#include "dataset/diff.hpp"

#include "test_dataset_fixture.hpp"
#include "util/error.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace layerbench;

namespace {

// B differs from the fixture A in Linear at batch size 1 only.
dataset::CellChange linear_1(const dataset::Stats& b_stats)
{
  auto b = test::measured();
  test::cell_of(b, "Linear", 1).stats = b_stats;
  return dataset::diff(test::measured(), b).cells.at(0);
}

} // namespace

TEST_CASE("dataset::diff")
{
  SUBCASE("twice as slow, intervals apart: slower, ratio 2")
  {
    const auto change = linear_1(test::quartiles(2.0, 1.9, 2.1));
    CHECK(change.change == dataset::Change::slower);
    CHECK(*change.ratio == doctest::Approx(2.0));
    CHECK(*change.a_ms == 1.0);
    CHECK(*change.b_ms == 2.0);
  }
  SUBCASE("half the time: faster, ratio 0.5")
  {
    const auto change = linear_1(test::quartiles(0.5, 0.45, 0.55));
    CHECK(change.change == dataset::Change::faster);
    CHECK(*change.ratio == doctest::Approx(0.5));
  }
  SUBCASE("overlapping intervals: unchanged")
  {
    CHECK(linear_1(test::quartiles(1.04, 0.99, 1.09)).change == dataset::Change::unchanged);
  }
  SUBCASE("apart, but within the noise of the noisier run: unchanged")
  {
    auto a = test::measured();
    test::cell_of(a, "Linear", 1).stats = test::quartiles(1.0, 0.5, 1.5); // noise 1.0
    auto b = test::measured();
    test::cell_of(b, "Linear", 1).stats = test::quartiles(1.6, 1.55, 1.65); // 60% slower
    CHECK(dataset::diff(a, b).cells.at(0).change == dataset::Change::unchanged);
  }
  SUBCASE("medians only (a published reference) count as a point")
  {
    auto reference = test::measured();
    dataset::Stats median_only;
    median_only.median_ms = 1.0;
    test::cell_of(reference, "Linear", 1).stats = median_only;
    auto b = test::measured();
    test::cell_of(b, "Linear", 1).stats = test::quartiles(1.04, 0.99, 1.09);
    CHECK(dataset::diff(reference, b).cells.at(0).change == dataset::Change::unchanged);
    test::cell_of(b, "Linear", 1).stats = test::quartiles(1.2, 1.15, 1.25);
    CHECK(dataset::diff(reference, b).cells.at(0).change == dataset::Change::slower);
  }
  SUBCASE("missing: absent in B, skipped in A, only in B; and the summary")
  {
    auto a = test::measured();
    test::cell_of(a, "Linear", 8) = test::skipped_cell("Linear", 8, "out of memory");
    auto b = test::measured();
    b.results.pop_back(); // Dropout 8
    b.results.push_back(test::timed_cell("GRU", 1, test::quartiles(3, 2.9, 3.1)));
    test::cell_of(b, "Dropout", 1).stats = test::quartiles(0.5, 0.45, 0.55);
    const auto result = dataset::diff(a, b);
    REQUIRE(result.cells.size() == 5);
    CHECK(result.cells[1].change == dataset::Change::missing);
    CHECK_FALSE(result.cells[1].a_ms);
    CHECK(result.cells[3].change == dataset::Change::missing);
    CHECK(result.cells[4].layer == "GRU");
    CHECK(result.cells[4].change == dataset::Change::missing);
    CHECK(result.summary.faster == 1);
    CHECK(result.summary.slower == 0);
    CHECK(result.summary.unchanged == 1);
    CHECK(result.summary.missing == 3);
  }
}

TEST_CASE("dataset::diff settings and page faults")
{
  auto a = test::measured();
  auto b = test::measured();
  b.methodology->cpu_memory_policy = "steady-state";
  test::cell_of(a, "Linear", 1).page_faults_per_iteration = 2500.0;
  test::cell_of(b, "Linear", 1).page_faults_per_iteration = 0.0;
  const auto result = dataset::diff(a, b);
  SUBCASE("a setting that differs is named, and a file without it reads 'not recorded'")
  {
    REQUIRE(result.settings.size() == 1);
    CHECK(result.settings[0].name == "CPU memory policy");
    CHECK(result.settings[0].a == "not recorded");
    CHECK(result.settings[0].b == "steady-state");
  }
  SUBCASE("equal settings give none")
  {
    CHECK(dataset::diff(b, b).settings.empty());
  }
  SUBCASE("two CPUs of one model name differ in their type (1.10.0), which is named")
  {
    auto zen3 = test::measured();
    auto zen4 = test::measured();
    zen3.environment->cpu = dataset::CpuIdentity{"AuthenticAMD", 25, 1, 1, {"avx2"}, "AVX2"};
    zen4.environment->cpu = dataset::CpuIdentity{"AuthenticAMD", 25, 17, 1, {"avx2", "avx512f"}, "AVX512"};
    const auto types = dataset::diff(zen3, zen4).settings;
    REQUIRE(types.size() == 1);
    CHECK(types[0].name == "CPU type");
    CHECK(types[0].a == "AuthenticAMD family 25 model 1 stepping 1; ATen kernels AVX2; flags avx2");
    CHECK(types[0].b == "AuthenticAMD family 25 model 17 stepping 1; ATen kernels AVX512; flags avx2 avx512f");
  }
  SUBCASE("the text shows the setting and each cell's page faults")
  {
    const auto text = dataset::format_diff(result, "a.json", "b.json", dataset::DiffFormat::text);
    CHECK(text.find("settings that differ:\n  CPU memory policy\n    A: not recorded\n    B: steady-state") != std::string::npos);
    CHECK(text.find("page faults/iteration A -> B") != std::string::npos);
    CHECK(text.find(" 2500 -> 0\n") != std::string::npos);
  }
  SUBCASE("markdown and json carry them too")
  {
    const auto markdown = dataset::format_diff(result, "a.json", "b.json", dataset::DiffFormat::markdown);
    CHECK(markdown.find("| CPU memory policy | not recorded | steady-state |") != std::string::npos);
    const auto json = nlohmann::json::parse(dataset::format_diff(result, "a.json", "b.json", dataset::DiffFormat::json));
    CHECK(json["settings"][0]["b"] == "steady-state");
    CHECK(json["cells"][0]["a_page_faults_per_iteration"] == 2500.0);
  }
}

TEST_CASE("dataset::format_diff")
{
  auto b = test::measured();
  test::cell_of(b, "Linear", 1).stats = test::quartiles(2.0, 1.9, 2.1);
  const auto result = dataset::diff(test::measured(), b);
  SUBCASE("text")
  {
    const auto text = dataset::format_diff(result, "a.json", "b.json", dataset::DiffFormat::text);
    // One round each: 2 significant figures, and B/A's range from the quartiles.
    CHECK(text.find("Linear                    1        1.0        2.0      2.0 (1.8-2.2)  slower") != std::string::npos);
    CHECK(text.find("faster: 0, slower: 1, unchanged: 3, missing: 0") != std::string::npos);
  }
  SUBCASE("markdown")
  {
    const auto text = dataset::format_diff(result, "a.json", "b.json", dataset::DiffFormat::markdown);
    CHECK(text.find("| Layer | Batch | A (ms) | B (ms) | B/A | Change |") != std::string::npos);
    CHECK(text.find("| Linear | 1 | 1.0 | 2.0 | 2.0 (1.8-2.2) | slower |") != std::string::npos);
  }
  SUBCASE("json")
  {
    const auto json = nlohmann::json::parse(dataset::format_diff(result, "a.json", "b.json", dataset::DiffFormat::json));
    CHECK(json["cells"][0]["change"] == "slower");
    CHECK(json["cells"][0]["ratio"] == 2.0);
    CHECK(json["summary"]["slower"] == 1);
    CHECK(json["summary"]["unchanged"] == 3);
    CHECK(json["a"] == "a.json");
  }
  SUBCASE("an unknown format is none (the command line names --format)")
  {
    CHECK_FALSE(dataset::parse_diff_format("html").has_value());
    CHECK(dataset::parse_diff_format("markdown") == dataset::DiffFormat::markdown);
  }
}

TEST_CASE("dataset::diff threshold and rounds")
{
  // A cell measured in rounds, with its bootstrap interval.
  const auto in_rounds = [](double median, double low, double high) {
    auto d = test::measured();
    d.rounds = dataset::Rounds{3, 1, 2000, "test", {}};
    for (int index = 1; index <= 3; ++index) {
      d.rounds->runs.push_back({index, "ok", "", 1, "", {}, {}, {}});
    }
    auto& cell = test::cell_of(d, "Linear", 1);
    cell.stats = test::quartiles(median, median * 0.8, median * 1.2);
    cell.round_spread = dataset::RoundSpread{3, low, high, low, high};
    return d;
  };
  SUBCASE("a change below the threshold is unchanged, whatever the intervals")
  {
    auto b = test::measured();
    test::cell_of(b, "Linear", 1).stats = test::quartiles(1.04, 1.039, 1.041);
    auto a = test::measured();
    test::cell_of(a, "Linear", 1).stats = test::quartiles(1.0, 0.999, 1.001);
    CHECK(dataset::diff(a, b).cells.at(0).change == dataset::Change::unchanged);
    CHECK(dataset::diff(a, b, 0.01).cells.at(0).change == dataset::Change::slower);
  }
  SUBCASE("cells in rounds are compared by their bootstrap intervals, not their quartiles")
  {
    // Quartiles overlap (wide samples), the intervals of the median do not: a change.
    const auto a = in_rounds(1.0, 0.97, 1.03);
    const auto b = in_rounds(1.2, 1.15, 1.25);
    const auto cell = dataset::diff(a, b).cells.at(0);
    CHECK(cell.rounds);
    CHECK(cell.change == dataset::Change::slower);
    CHECK(*cell.ratio_low == doctest::Approx(1.15 / 1.03));
    // Intervals that overlap: unchanged, though 20% apart.
    const auto wide = in_rounds(1.2, 1.0, 1.4);
    CHECK(dataset::diff(a, wide).cells.at(0).change == dataset::Change::unchanged);
  }
}
