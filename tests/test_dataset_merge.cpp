// SPDX-License-Identifier: MIT
#include "dataset/merge.hpp"
#include "dataset/speed_class.hpp"

#include "dataset/io.hpp"
#include "dataset/validate.hpp"
#include "test_dataset_fixture.hpp"
#include "util/error.hpp"

#include <algorithm>

#include <doctest/doctest.h>

using namespace layerbench;

namespace {

// Shard i/n of the fixture, as `run --shard i/n` would write it: cells k with k mod n == i - 1.
dataset::ShardFile shard(int index, int count)
{
  auto d = test::measured();
  d.methodology->shard = std::to_string(index) + "/" + std::to_string(count);
  std::vector<dataset::Cell> mine;
  for (size_t k = 0; k < d.results.size(); ++k) {
    if (static_cast<int>(k % count) == index - 1) {
      mine.push_back(d.results[k]);
    }
  }
  d.results = mine;
  return {"shard" + std::to_string(index) + ".json", d};
}

// Shard i of a cost-planned split (1.3.0): the cells listed, the plan named.
dataset::ShardFile planned(int index, int count, const std::vector<dataset::CellKey>& cells,
                           const std::string& plan = "cost-balanced, longest cells first, over test costs")
{
  auto d = test::measured();
  d.methodology->shard = std::to_string(index) + "/" + std::to_string(count);
  d.methodology->shard_plan = plan;
  d.methodology->shard_cells = cells;
  std::vector<dataset::Cell> mine;
  for (const auto& cell : d.results) {
    for (const auto& key : cells) {
      if (key.layer == cell.layer && key.batch_size == cell.batch_size) {
        mine.push_back(cell);
      }
    }
  }
  d.results = mine;
  return {"planned" + std::to_string(index) + ".json", d};
}

// The fixture measured at two corners, inference_mode and no_grad (issue 13), in matrix order: the
// corners vary fastest.
dataset::Dataset two_modes()
{
  auto d = test::measured();
  d.methodology->axes.set(dataset::k_mode, {dataset::GradMode::inference_mode, dataset::GradMode::no_grad});
  std::vector<dataset::Cell> cells;
  for (const auto& cell : d.results) {
    cells.push_back(cell);
    cells.push_back(cell);
    cells.back().axes.set(dataset::k_mode, dataset::GradMode::no_grad);
  }
  d.results = cells;
  return d;
}

std::string merge_error(const std::vector<dataset::ShardFile>& shards)
{
  try {
    dataset::merge(shards, "layerbench merge");
  } catch (const Error& error) {
    return error.what();
  }
  FAIL("merged");
  return {};
}

} // namespace

TEST_CASE("dataset::merge")
{
  SUBCASE("two shards give back the whole run, cells in matrix order")
  {
    // Shard 2 first: the order of the files does not matter.
    const auto merged = dataset::merge({shard(2, 2), shard(1, 2)}, "layerbench merge shard2.json shard1.json --out m.json");
    auto whole = test::measured();
    dataset::assign_speed_classes(whole);
    whole.provenance.command_line = "layerbench merge shard2.json shard1.json --out m.json";
    CHECK(dataset::serialize(merged) == dataset::serialize(whole));
    CHECK(merged.methodology->shard.empty());
    CHECK(dataset::check(merged).empty());
  }
  SUBCASE("speed classes, ranked within each shard, are ranked again over the whole matrix")
  {
    auto first = shard(1, 2);
    first.dataset.layers[0].speed_class = "Fastest";
    auto second = shard(2, 2);
    second.dataset.layers[0].speed_class = "Slow";
    const auto merged = dataset::merge({first, second}, "layerbench merge");
    auto whole = test::measured();
    dataset::assign_speed_classes(whole);
    REQUIRE(!whole.layers[0].speed_class.empty());
    for (size_t i = 0; i < whole.layers.size(); ++i) {
      CHECK(merged.layers[i].speed_class == whole.layers[i].speed_class);
    }
  }
  SUBCASE("a mismatched environment")
  {
    auto other = shard(2, 2);
    other.dataset.environment->device.name = "Another CPU";
    CHECK(merge_error({shard(1, 2), other})
          == "shard2.json: /environment/device/name differs from shard1.json (\"Another CPU\" here, \"Test CPU\" "
             "there); only shards of one run (same machine setup, options and build) can be merged");
  }
  SUBCASE("each shard's own peaks differ by noise and load: the merge keeps, per peak, the fastest")
  {
    auto first = shard(1, 2);
    auto second = shard(2, 2);
    dataset::Peaks peaks;
    peaks.method = "m";
    peaks.compute.push_back({"fp32", "mm", 2e9, 20, 1.0e11, 0.01, 5, true});
    peaks.memory = dataset::PeakRate{"triad", "128 MiB", 4e8, 10.0, 4e10, 0.02, 5, true};
    peaks.caches.push_back({"L3", 32 << 20, "sysfs", dataset::PeakRate{"triad", "16 MiB", 1.6e7, 1.0, 5.4e9, 0.13, 39, false}});
    first.dataset.environment->peaks = peaks;
    peaks.compute[0].rate = 0.9e11;      // slower in the second shard
    peaks.memory->rate = 4.5e10;         // faster
    peaks.caches[0].triad.rate = 3.0e10; // faster: the first shard's L3 triad ran beside other work
    second.dataset.environment->peaks = peaks;
    const auto merged = dataset::merge({first, second}, "layerbench merge");
    REQUIRE(merged.environment->peaks);
    CHECK(merged.environment->peaks->compute[0].rate == 1.0e11);
    CHECK(merged.environment->peaks->memory->rate == 4.5e10);
    REQUIRE(merged.environment->peaks->caches.size() == 1);
    CHECK(merged.environment->peaks->caches[0].triad.rate == 3.0e10);
    CHECK(merged.environment->peaks->caches[0].triad.samples == 39);
  }
  SUBCASE("a mismatched methodology, tool build or layer description")
  {
    auto options = shard(2, 2);
    options.dataset.methodology->noise_target = 0.5;
    CHECK(merge_error({shard(1, 2), options}).find("/methodology/noise_target differs from shard1.json (0.5 here, ")
          != std::string::npos);
    auto build = shard(2, 2);
    build.dataset.provenance.git_commit = "abc";
    CHECK(merge_error({shard(1, 2), build}).find("/provenance/git_commit differs from shard1.json (\"abc\" here, ") != std::string::npos);
    auto layers = shard(2, 2);
    layers.dataset.layers[0].params = 11;
    CHECK(merge_error({shard(1, 2), layers}).find("/layers/0/params differs from shard1.json (11 here, ") != std::string::npos);
  }
  SUBCASE("overlapping cells")
  {
    auto overlap = shard(2, 2);
    overlap.dataset.results.push_back(shard(1, 2).dataset.results[0]);
    CHECK(merge_error({shard(1, 2), overlap}) == "cell Linear at batch size 1 is in both shard1.json and shard2.json");
  }
  SUBCASE("a missing shard, a shard twice, different splits")
  {
    CHECK(merge_error({shard(1, 3), shard(3, 3)}) == "shard 2/3 is missing");
    CHECK(merge_error({shard(1, 2), shard(1, 2), shard(2, 2)}) == "shard1.json and shard1.json are both shard 1/2");
    CHECK(merge_error({shard(1, 2), shard(2, 3)})
          == "shard2.json is shard 2/3 but shard1.json splits the matrix in 2");
  }
  SUBCASE("cost-planned shards give back the whole run; the plan stays, the cells lists go")
  {
    const auto first = planned(1, 2, {{"Linear", 8}});
    const auto second = planned(2, 2, {{"Linear", 1}, {"Dropout", 1}, {"Dropout", 8}});
    CHECK(dataset::check(first.dataset).empty());
    CHECK(dataset::check(second.dataset).empty());
    const auto merged = dataset::merge({second, first}, "layerbench merge");
    REQUIRE(merged.results.size() == 4);
    CHECK(merged.results[1].layer == "Linear");
    CHECK(merged.results[1].batch_size == 8);
    CHECK(merged.methodology->shard.empty());
    CHECK(merged.methodology->shard_cells.empty());
    CHECK(merged.methodology->shard_plan == "cost-balanced, longest cells first, over test costs");
    CHECK(dataset::check(merged).empty());
  }
  SUBCASE("cost-planned shards of a cube: each planned cell keeps its corner, through the file and the merge")
  {
    dataset::Axes no_grad;
    no_grad.set(dataset::k_mode, dataset::GradMode::no_grad);
    const std::vector<dataset::CellKey> one{{"Linear", 8, no_grad}, {"Dropout", 1, {}}};
    std::vector<dataset::CellKey> two;
    for (const auto& key : dataset::declared_matrix(two_modes())) {
      if (!(key.layer == "Linear" && key.batch_size == 8 && key.axes == no_grad)
          && !(key.layer == "Dropout" && key.batch_size == 1 && key.axes.is_reference())) {
        two.push_back(key);
      }
    }
    REQUIRE(two.size() == 6);
    std::vector<dataset::ShardFile> shards;
    for (const auto& [index, cells] : {std::make_pair(1, one), std::make_pair(2, two)}) {
      auto d = two_modes();
      d.methodology->shard = std::to_string(index) + "/2";
      d.methodology->shard_plan = "cost-balanced, longest cells first, over test costs";
      d.methodology->shard_cells = cells;
      std::vector<dataset::Cell> mine;
      for (const auto& cell : d.results) {
        for (const auto& key : cells) {
          if (key.layer == cell.layer && key.batch_size == cell.batch_size && key.axes == cell.axes) {
            mine.push_back(cell);
          }
        }
      }
      d.results = mine;
      // Written and read back: the corner of each listed cell survives the file.
      const auto read = dataset::parse(dataset::serialize(d), "shard.json");
      REQUIRE(read.methodology->shard_cells.size() == cells.size());
      for (size_t i = 0; i < cells.size(); ++i) {
        CHECK(read.methodology->shard_cells[i].axes == cells[i].axes);
      }
      CHECK(dataset::check(read).empty());
      shards.push_back({"cube" + std::to_string(index) + ".json", read});
    }
    const auto merged = dataset::merge({shards[1], shards[0]}, "layerbench merge");
    REQUIRE(merged.results.size() == 8);
    CHECK(merged.results[3].layer == "Linear");
    CHECK(merged.results[3].axes == no_grad);
    CHECK(dataset::check(merged).empty());
    // A listed cell outside the cube's corners is named with its corner.
    auto outside = shards[0].dataset;
    outside.methodology->shard_cells[0].axes.set(dataset::k_mode, dataset::GradMode::train);
    const auto problems = dataset::check(outside);
    CHECK(std::any_of(problems.begin(), problems.end(), [](const dataset::Problem& problem) {
      return problem.pointer == "/methodology/shard_cells/0"
             && problem.message.find("Linear at batch size 8 (train) is not in") != std::string::npos;
    }));
  }
  SUBCASE("shards of two plans are refused, named")
  {
    const auto first = planned(1, 2, {{"Linear", 8}});
    auto other = planned(2, 2, {{"Linear", 1}, {"Dropout", 1}, {"Dropout", 8}}, "cost-balanced over other costs");
    CHECK(merge_error({first, other}).find("/methodology/shard_plan differs") != std::string::npos);
    // Same plan text, cells that do not add up: a cell planned twice, or a cell in no plan.
    auto twice = planned(2, 2, {{"Linear", 8}, {"Linear", 1}, {"Dropout", 1}, {"Dropout", 8}});
    twice.dataset.results.erase(twice.dataset.results.begin() + 1); // Linear@8: planned twice, measured once
    CHECK(merge_error({first, twice}).find("both hold cell Linear at batch size 8") != std::string::npos);
    const auto short_plan = planned(2, 2, {{"Linear", 1}, {"Dropout", 1}});
    CHECK(merge_error({first, short_plan})
          == "no shard's plan holds cell Dropout at batch size 8; only shards of one plan can be merged");
  }
  SUBCASE("load averages and the other processes' load may differ; the merge keeps the highest")
  {
    auto first = shard(1, 2);
    first.dataset.environment->load_average_start = 0.5;
    first.dataset.environment->load_average_end = 3.0;
    first.dataset.environment->other_cores_busy = 0.9;
    auto second = shard(2, 2);
    second.dataset.environment->load_average_start = 1.5;
    second.dataset.environment->load_average_end = 1.0;
    second.dataset.environment->other_cores_busy = 0.1;
    const auto merged = dataset::merge({first, second}, "layerbench merge");
    CHECK(merged.environment->load_average_start == 1.5);
    CHECK(merged.environment->load_average_end == 3.0);
    CHECK(merged.environment->other_cores_busy == 0.9);
  }
  SUBCASE("not a measured run")
  {
    auto reference = shard(1, 1);
    reference.dataset.kind = dataset::Kind::published_reference;
    reference.dataset.methodology.reset();
    CHECK(merge_error({reference}) == "shard1.json: not a measured run");
  }
}

namespace {

// A run of the models preset as a lease takes it: one mode, each run at its own batch size.
dataset::ShardFile run_of(const std::string& origin, std::vector<std::string> layers, int batch_size, dataset::GradMode mode)
{
  auto d = test::measured(std::move(layers), {batch_size});
  d.methodology->axes.set(dataset::k_mode, {mode});
  d.methodology->inference_mode = mode == dataset::GradMode::inference_mode;
  for (auto& cell : d.results) {
    cell.axes.set(dataset::k_mode, mode);
  }
  d.provenance.command_line = "layerbench run --batch-sizes " + std::to_string(batch_size);
  return {origin, d};
}

std::string union_error(const std::vector<dataset::ShardFile>& runs)
{
  try {
    dataset::union_runs(runs, "layerbench merge --union");
  } catch (const Error& error) {
    return error.what();
  }
  FAIL("joined");
  return {};
}

} // namespace

TEST_CASE("dataset::union_runs")
{
  // Runs written before 1.9.0 (one build writes one version) join into a file of this build's version.
  auto big = run_of("big.json", {"Linear", "Dropout"}, 256, dataset::GradMode::train);
  big.dataset.schema_version = {1, 8, 0};
  auto small = run_of("small.json", {"Dropout", "LayerNorm"}, 64, dataset::GradMode::inference_mode);
  small.dataset.schema_version = {1, 8, 0};
  SUBCASE("runs at their own batch sizes: the matrix is listed, and it validates through the file")
  {
    const auto joined = dataset::union_runs({big, small}, "layerbench merge --union big.json small.json --out u.json");
    const auto& m = *joined.methodology;
    CHECK(m.layers == std::vector<std::string>{"Linear", "Dropout", "LayerNorm"});
    CHECK(m.batch_sizes == std::vector<int>{64, 256});
    CHECK(m.axes[dataset::k_mode] == std::vector<dataset::GradMode>{dataset::GradMode::inference_mode, dataset::GradMode::train});
    CHECK_FALSE(m.inference_mode);
    // 4 cells measured of the product's 12, listed in matrix order (layer, batch size, corner).
    REQUIRE(m.cells.size() == 4);
    CHECK(m.cells[0].layer == "Linear");
    CHECK(m.cells[1].layer == "Dropout");
    CHECK(m.cells[1].batch_size == 64);
    CHECK(m.cells[2].batch_size == 256);
    CHECK(m.cells[3].layer == "LayerNorm");
    REQUIRE(joined.results.size() == 4);
    for (size_t i = 0; i < 4; ++i) {
      CHECK(joined.results[i].layer == m.cells[i].layer);
      CHECK(joined.results[i].batch_size == m.cells[i].batch_size);
    }
    CHECK(joined.provenance.parts
          == std::vector<std::string>{"layerbench run --batch-sizes 256", "layerbench run --batch-sizes 64"});
    CHECK(joined.provenance.command_line == "layerbench merge --union big.json small.json --out u.json");
    CHECK(dataset::to_string(joined.schema_version) == dataset::to_string(dataset::k_schema_version));
    CHECK(dataset::check(joined).empty());
    const auto read = dataset::parse(dataset::serialize(joined), "u.json");
    CHECK(dataset::serialize(read) == dataset::serialize(joined));
    CHECK(read.methodology->cells.size() == 4);
    CHECK(read.provenance.parts.size() == 2);
  }
  SUBCASE("a listed cell outside the product, or listed twice, is a validation problem")
  {
    auto joined = dataset::union_runs({big, small}, "layerbench merge --union");
    joined.methodology->cells.push_back(joined.methodology->cells.front());
    joined.methodology->cells.push_back({"Linear", 2, {}});
    const auto problems = dataset::check(joined);
    const auto has = [&](const std::string& pointer, const std::string& part) {
      return std::any_of(problems.begin(), problems.end(), [&](const auto& problem) {
        return problem.pointer == pointer && problem.message.find(part) != std::string::npos;
      });
    };
    CHECK(has("/methodology/cells/4", "is listed twice"));
    CHECK(has("/methodology/cells/5", "is not in methodology.layers x methodology.batch_sizes x methodology.axes"));
  }
  SUBCASE("refused: another build, a layer described otherwise, a cell twice, a shard, a union, one run")
  {
    auto build = small;
    build.dataset.provenance.git_commit = "abc";
    CHECK(union_error({big, build})
          == "small.json: /provenance/git_commit differs from big.json (\"abc\" here, \"unknown\" there); only runs of one "
             "device, build and method can be joined");
    auto layer = small;
    layer.dataset.layers[0].params = 11;
    CHECK(union_error({big, layer}) == "small.json: layer Dropout is described otherwise than in big.json (at /params)");
    CHECK(union_error({big, big}) == "cell Linear at batch size 256 (train) is in both big.json and big.json");
    auto part = shard(1, 2);
    CHECK(union_error({big, part}) == "shard1.json: is one shard (1/2); merge the shards first");
    auto joined = big;
    joined.dataset = dataset::union_runs({big, small}, "layerbench merge --union");
    CHECK(union_error({joined, small}) == "big.json: is already a union of 2 runs; join the runs themselves");
    CHECK(union_error({big}) == "--union: give 2 or more runs, not 1");
  }
}
