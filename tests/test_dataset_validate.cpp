// SPDX-License-Identifier: MIT
#include "dataset/validate.hpp"

#include "dataset/io.hpp"
#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

namespace {

// "pointer: message" of every problem, one string, for readable failures.
std::string problems(const dataset::Dataset& d)
{
  std::string out;
  for (const auto& problem : dataset::check(d)) {
    out += problem.pointer + ": " + problem.message + "\n";
  }
  return out;
}

} // namespace

TEST_CASE("dataset::check")
{
  auto d = test::measured();
  SUBCASE("the fixture is valid")
  {
    CHECK(problems(d) == "");
  }
  SUBCASE("a model's layer names a use the model holds, with its configuration and count")
  {
    // Linear plays the model, Dropout its one use (schema 1.6.0).
    d.layers[0].kind = dataset::LayerKind::model;
    d.layers[0].contains = {{"Dropout", "Dropout()", 3, 0, 1}};
    d.layers[1].kind = dataset::LayerKind::model_layer;
    d.layers[1].part_of = dataset::ModelPart{"Linear", 0, 3};
    CHECK(problems(d) == "");
    d.layers[1].part_of->count = 2;
    CHECK(problems(d) == "/layers/1/part_of: \"Dropout()\" x2 is not use 0 of \"Linear\" (\"Dropout()\" x3)\n");
    d.layers[1].part_of = dataset::ModelPart{"Linear", 1, 3};
    CHECK(problems(d) == "/layers/1/part_of/use: model \"Linear\" has no use 1 (it has 1)\n");
    d.layers[1].part_of.reset();
    CHECK(problems(d) == "/layers/1/part_of: a layer has part_of exactly where its kind is model_layer\n");
  }
  SUBCASE("a peak's fastest sample (1.8.0) is no slower than its median, and round-trips")
  {
    dataset::Peaks peaks;
    peaks.method = "m";
    peaks.compute.push_back({"fp32", "mm", 2e9, 20, 2e9 / 18e-3, 0.1, 9, false, 18.0});
    d.environment->peaks = peaks;
    CHECK(problems(d) == "");
    const auto text = dataset::serialize(d);
    CHECK(text.find("\"best_ms\": 18.0") != std::string::npos);
    CHECK(dataset::parse_unchecked(text, "round-trip").environment->peaks->compute[0].best_ms == 18.0);
    d.environment->peaks->compute[0].best_ms = 21.0;
    CHECK(problems(d) == "/environment/peaks/compute/0/best_ms: the fastest sample, 21.0 ms, is slower than the median, 20.0 ms\n");
  }
  SUBCASE("a skipped cell with its reason is valid")
  {
    test::cell_of(d, "Linear", 8) = test::skipped_cell("Linear", 8, "out of memory");
    CHECK(problems(d) == "");
  }
  SUBCASE("a missing cell of the declared matrix")
  {
    d.results.pop_back();
    CHECK(problems(d) == "/results: cell Dropout at batch size 8 of the declared matrix is missing (record it as "
                         "skipped with a reason)\n");
  }
  SUBCASE("a data-parallel record: a training step of two ranks or more, its all-reduce's quartiles in order")
  {
    auto& cell = test::cell_of(d, "Linear", 1);
    cell.data_parallel = dataset::DataParallel{1, "gloo", 1024, {512}, 2.0, 2.5, 3.0};
    CHECK(problems(d) == "/results/0/data_parallel: only a training step is run data-parallel\n"
                         "/results/0/data_parallel/world_size: 1.0 is not in [2.0, 1048576.0]\n"
                         "/results/0/data_parallel/all_reduce_median_ms: not between all_reduce_p25_ms and all_reduce_p75_ms\n");
  }
  SUBCASE("a skipped cell without a reason")
  {
    test::cell_of(d, "Linear", 8) = test::skipped_cell("Linear", 8, "");
    CHECK(problems(d) == "/results/1/skip_reason: a skipped cell says why\n");
  }
  SUBCASE("a duplicate cell")
  {
    d.results.push_back(d.results[0]);
    CHECK(problems(d) == "/results/4: duplicate cell Linear at batch size 1 (first at /results/0)\n");
  }
  SUBCASE("p25 <= median <= p75")
  {
    test::cell_of(d, "Linear", 1).stats = test::quartiles(1.0, 1.1, 1.2);
    CHECK(problems(d) == "/results/0/stats: expected p25_ms <= median_ms <= p75_ms, found 1.1, 1.0, 1.2\n");
  }
  SUBCASE("negative and zero times")
  {
    test::cell_of(d, "Linear", 1).stats->median_ms = -1;
    test::cell_of(d, "Linear", 8).first_call_ms = 0.0;
    const auto text = problems(d);
    CHECK(text.find("/results/0/stats/median_ms: time -1.0 ms is not in (0, 10000000.0]") != std::string::npos);
    CHECK(text.find("/results/1/first_call_ms: time 0.0 ms is not in (0, 10000000.0]") != std::string::npos);
  }
  SUBCASE("huge numbers")
  {
    test::cell_of(d, "Linear", 1).stats->median_ms = 1e300;
    test::cell_of(d, "Linear", 8).peak_memory_bytes = int64_t(1) << 62;
    const auto text = problems(d);
    CHECK(text.find("/results/0/stats/median_ms: time 1e+300 ms") != std::string::npos);
    CHECK(text.find("/results/1/peak_memory_bytes:") != std::string::npos);
  }
  SUBCASE("a cell outside the declared matrix and an undescribed layer")
  {
    d.results.push_back(test::timed_cell("GRU", 1, test::quartiles(1, 1, 1)));
    CHECK(problems(d) == "/results/4/layer: layer \"GRU\" is not described in /layers\n"
                         "/results/4: cell GRU at batch size 1 is outside the declared matrix (and shard)\n");
  }
  SUBCASE("a shard declares only its own cells")
  {
    d.methodology->shard = "2/2"; // cells 1 and 3 in layer-major order
    d.results = {d.results[1], d.results[3]};
    CHECK(problems(d) == "");
  }
  SUBCASE("a cost-planned shard (1.3.0) declares the cells it lists")
  {
    d.methodology->shard = "1/2";
    d.methodology->shard_plan = "cost-balanced, longest cells first, over test costs";
    d.methodology->shard_cells = {{"Linear", 8}, {"Dropout", 1}};
    d.results = {d.results[1], d.results[2]};
    CHECK(problems(d) == "");
    d.results.pop_back();
    CHECK(problems(d) == "/results: cell Dropout at batch size 1 of the declared matrix is missing (record it as "
                         "skipped with a reason)\n");
  }
  SUBCASE("shard cells outside the matrix, twice, without a plan or without a shard")
  {
    d.methodology->shard = "1/2";
    d.methodology->shard_plan = "cost-balanced";
    d.methodology->shard_cells = {{"Linear", 8}, {"GRU", 8}, {"Linear", 8}};
    d.results = {d.results[1]};
    CHECK(problems(d) == "/methodology/shard_cells/1: cell GRU at batch size 8 is not in methodology.layers x "
                         "methodology.batch_sizes x methodology.axes\n"
                         "/methodology/shard_cells/2: cell Linear at batch size 8 is listed twice\n");
    d.methodology->shard_cells = {{"Linear", 8}};
    d.methodology->shard_plan.clear();
    CHECK(problems(d).find("/methodology/shard_plan: is missing") != std::string::npos);
    d.methodology->shard.clear();
    CHECK(problems(d).find("/methodology/shard_cells: lists the cells of a shard, but /methodology/shard names none")
          != std::string::npos);
  }
  SUBCASE("a published reference holds the page's median only")
  {
    d.kind = dataset::Kind::published_reference;
    d.environment.reset();
    d.methodology.reset();
    d.provenance.source = dataset::Source{"Page", "", "April 11, 2026", "CC BY 4.0", "cite", "", "", "", {}};
    CHECK(problems(d) == "/results/0: a published reference holds the page's median (and memory) only\n"
                         "/results/1: a published reference holds the page's median (and memory) only\n"
                         "/results/2: a published reference holds the page's median (and memory) only\n"
                         "/results/3: a published reference holds the page's median (and memory) only\n");
    for (auto& cell : d.results) {
      cell.stats = dataset::Stats{};
      cell.stats->median_ms = 0.5;
    }
    CHECK(problems(d) == "");
  }
  SUBCASE("addresses that become links are https only")
  {
    d.license.url = "javascript:alert(1)";
    CHECK(problems(d) == "/license/url: \"javascript:alert(1)\" is not an https:// address\n");
    d.license.url = "https://creativecommons.org/licenses/by/4.0/";
    d.kind = dataset::Kind::published_reference;
    d.environment.reset();
    d.methodology.reset();
    for (auto& cell : d.results) {
      cell.stats = dataset::Stats{};
      cell.stats->median_ms = 0.5;
    }
    d.provenance.source = dataset::Source{"Page", "data:text/html,<script>", "April 11, 2026", "CC BY 4.0", "cite", "", "", "", {}};
    CHECK(problems(d) == "/provenance/source/url: \"data:text/html,<script>\" is not an https:// address\n");
    d.provenance.source->url = "";
    CHECK(problems(d) == "");
  }
  SUBCASE("a measured dataset records environment and methodology")
  {
    d.environment.reset();
    CHECK(problems(d) == "/environment: a measured dataset records its environment\n");
  }
  SUBCASE("header: id, created, licence, creators of a published version")
  {
    d.id = "Test CPU";
    d.created = "yesterday";
    d.license.id = "MIT";
    d.version = 1;
    d.creators.clear();
    CHECK(problems(d) == "/id: \"Test CPU\" is not a dataset id ([a-z0-9] words joined by '-')\n"
                         "/license/id: \"MIT\": datasets are published under CC-BY-4.0\n"
                         "/creators: a published dataset names at least one creator\n"
                         "/created: \"yesterday\" is not a UTC time like 2026-11-22T04:05:07Z\n");
  }
}

TEST_CASE("dataset::validate_file")
{
  test::TempFolder folder;
  SUBCASE("every problem is one line FILE: /pointer: message")
  {
    auto d = test::measured();
    d.results.push_back(d.results[0]);
    test::cell_of(d, "Dropout", 8).stats->median_ms = -2;
    const auto path = folder.path() / "run.json";
    test::write_text(path, dataset::serialize(d));
    const auto lines = dataset::validate_file(path);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == path.string() + ": /results/3/stats/median_ms: time -2.0 ms is not in (0, 10000000.0]");
    CHECK(lines[1] == path.string() + ": /results/3/stats: expected p25_ms <= median_ms <= p75_ms, found 0.95, -2.0, 1.05");
    CHECK(lines[2] == path.string() + ": /results/4: duplicate cell Linear at batch size 1 (first at /results/0)");
  }
  SUBCASE("an unreadable file is one problem, not a crash")
  {
    const auto lines = dataset::validate_file(folder.path() / "absent.json");
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].find("absent.json") != std::string::npos);
  }
  SUBCASE("a parse error keeps its pointer")
  {
    const auto path = folder.path() / "typo.json";
    auto json = nlohmann::json::parse(dataset::serialize(test::measured()));
    json["layers"][1]["nmae"] = "Dropout";
    test::write_text(path, json.dump());
    CHECK(dataset::validate_file(path) == std::vector<std::string>{path.string() + ": /layers/1/nmae: unknown field"});
  }
}
