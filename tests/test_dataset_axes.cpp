// SPDX-License-Identifier: MIT
#include "dataset/axes.hpp"

#include "dataset/csv.hpp"
#include "dataset/diff.hpp"
#include "dataset/io.hpp"
#include "dataset/validate.hpp"
#include "test_dataset_fixture.hpp"
#include "util/error.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace layerbench;
using dataset::Axes;

namespace {

Axes bf16_train()
{
  Axes axes;
  axes.set(dataset::k_precision, dataset::Precision::bf16);
  axes.set(dataset::k_mode, dataset::GradMode::train);
  return axes;
}

// The fixture measured at two corners: the reference and bf16 train, the latter with train parts.
dataset::Dataset two_precisions()
{
  auto d = test::measured({"Linear"}, {1});
  d.methodology->axes.set(dataset::k_precision, {dataset::Precision::fp32, dataset::Precision::bf16});
  d.methodology->axes.set(dataset::k_mode, {dataset::GradMode::inference_mode, dataset::GradMode::train});
  d.results.clear();
  for (const auto& corner : dataset::corners(d.methodology->axes)) {
    auto cell = test::timed_cell("Linear", 1, test::quartiles(1, 0.95, 1.05));
    cell.axes = corner;
    if (corner[dataset::k_mode] == dataset::GradMode::train) {
      dataset::TrainTimes train;
      train.forward = test::quartiles(1, 0.95, 1.05);
      train.backward_weight = test::quartiles(2, 1.9, 2.1);
      train.sum_ms = 3;
      cell.train = train;
    }
    d.results.push_back(cell);
  }
  return d;
}

} // namespace

TEST_CASE("dataset::label")
{
  SUBCASE("the reference corner") { CHECK(dataset::label(Axes{}) == "reference"); }
  SUBCASE("only the values that differ from the reference, in axis order")
  {
    auto axes = bf16_train();
    axes.set(dataset::k_memory_format, dataset::MemoryFormat::channels_last);
    CHECK(dataset::label(axes) == "bf16 channels_last train");
  }
}

TEST_CASE("dataset::set_axis")
{
  SUBCASE("every value of every axis reads back as written")
  {
    for (const auto& info : dataset::axis_table()) {
      for (const auto& value : info.values) {
        Axes axes;
        dataset::set_axis(axes, info.name, value);
        CHECK(dataset::axis_value(axes, info.name) == value);
        CHECK(axes.is_reference() == (value == info.values.front()));
      }
    }
  }
  SUBCASE("an unknown axis or value is named, with the closest known one")
  {
    Axes axes;
    CHECK(test::error_of([&] { dataset::set_axis(axes, "precison", "bf16"); }).find("did you mean 'precision'") != std::string::npos);
    CHECK(test::error_of([&] { dataset::set_axis(axes, "precision", "bf61"); }).find("did you mean 'bf16'") != std::string::npos);
  }
}

TEST_CASE("dataset::corners")
{
  SUBCASE("the default grid is the reference corner alone")
  {
    const auto all = dataset::corners(dataset::AxisGrid{});
    REQUIRE(all.size() == 1);
    CHECK(all[0].is_reference());
  }
  SUBCASE("the product of the values, the last axis varying fastest")
  {
    dataset::AxisGrid grid;
    dataset::apply_axes_argument(grid, "precision=fp32,bf16");
    dataset::apply_axes_argument(grid, "mode=inference_mode,no_grad,train");
    const auto all = dataset::corners(grid);
    REQUIRE(all.size() == 6);
    CHECK(all[0].is_reference());
    CHECK(all[1][dataset::k_mode] == dataset::GradMode::no_grad);
    CHECK(all[3][dataset::k_precision] == dataset::Precision::bf16);
    CHECK(all[5] == bf16_train());
  }
}

TEST_CASE("dataset::apply_axes_argument")
{
  dataset::AxisGrid grid;
  SUBCASE("a later argument for the same axis replaces its values")
  {
    dataset::apply_axes_argument(grid, "precision=bf16");
    dataset::apply_axes_argument(grid, "precision=fp32");
    CHECK(dataset::grid_values(grid, "precision") == std::vector<std::string>{"fp32"});
  }
  SUBCASE("malformed arguments are usage errors that name --axes")
  {
    for (const std::string bad : {"precision", "=fp32", "precision=", "precision=fp32,fp32", "colour=red",
                                  "precision=fp32,,bf16", "precision=fp32,", "precision=,fp32"}) {
      CAPTURE(bad);
      bool usage = false;
      try {
        dataset::apply_axes_argument(grid, bad);
      } catch (const UsageError& error) {
        usage = std::string(error.what()).rfind("--axes: ", 0) == 0;
      }
      CHECK(usage);
    }
  }
}

TEST_CASE("dataset::apply_axes_arguments")
{
  dataset::AxisGrid grid;
  SUBCASE("different axes each set their values")
  {
    dataset::apply_axes_arguments(grid, {"precision=fp32,bf16", "mode=train"});
    CHECK(dataset::grid_values(grid, "precision") == std::vector<std::string>{"fp32", "bf16"});
    CHECK(dataset::grid_values(grid, "mode") == std::vector<std::string>{"train"});
  }
  SUBCASE("an axis named twice is a usage error naming both arguments, not the last one silently")
  {
    CHECK_THROWS_WITH_AS(dataset::apply_axes_arguments(grid, {"precision=bf16", "mode=train", "precision=fp32"}),
                         "--axes: axis precision is given twice ('precision=bf16' and 'precision=fp32'); give its "
                         "values once, comma-separated",
                         UsageError);
  }
  SUBCASE("an empty value is a usage error, not dropped")
  {
    CHECK_THROWS_WITH_AS(dataset::apply_axes_arguments(grid, {"precision=fp32,,bf16"}),
                         "--axes: axis precision: 'fp32,,bf16' has an empty item (two commas, or one at an end)", UsageError);
  }
  SUBCASE("no value at all is a usage error naming the axis, as every empty list option is")
  {
    CHECK_THROWS_WITH_AS(dataset::apply_axes_arguments(grid, {"precision="}),
                         "--axes: axis precision: the list is empty; give one item or more, comma-separated", UsageError);
  }
}

TEST_CASE("dataset::serialize axes")
{
  SUBCASE("a cube round-trips: grid, corners and train parts")
  {
    const auto original = two_precisions();
    const auto text = dataset::serialize(original);
    const auto read = dataset::parse(text, "cube.json");
    CHECK(dataset::serialize(read) == text);
    CHECK(read.methodology->axes == original.methodology->axes);
    REQUIRE(read.results.size() == 4);
    CHECK(read.results[3].axes == bf16_train());
    REQUIRE(read.results[3].train);
    CHECK(!read.results[3].train->backward_input);
    CHECK(read.results[3].train->backward_weight->median_ms == 2);
  }
  SUBCASE("the reference corner writes no axes, so 1.2 readers and files agree")
  {
    const auto json = nlohmann::json::parse(dataset::serialize(test::measured()));
    CHECK(json["schema_version"] == dataset::to_string(dataset::k_schema_version));
    CHECK(!json["results"][0].contains("axes"));
    CHECK(!json["methodology"].contains("axes"));
  }
  SUBCASE("a 1.2.0 file reads, its cells at the reference corner")
  {
    auto json = nlohmann::json::parse(dataset::serialize(test::measured()));
    json["schema_version"] = "1.2.0";
    const auto read = dataset::parse(json.dump(), "old.json");
    CHECK(read.results[0].axes.is_reference());
    CHECK(dataset::find_cell(read, "Linear", 1) == &read.results[0]);
  }
  SUBCASE("an unknown axis value is refused with its pointer")
  {
    auto json = nlohmann::json::parse(dataset::serialize(two_precisions()));
    json["results"][1]["axes"]["precision"] = "fp8";
    const auto message = test::error_of([&] { dataset::parse(json.dump(), "bad.json"); });
    CHECK(message.find("/results/1/axes/precision") != std::string::npos);
    CHECK(message.find("fp8") != std::string::npos);
  }
}

TEST_CASE("dataset::check axes")
{
  SUBCASE("a complete cube is valid") { CHECK(dataset::check(two_precisions()).empty()); }
  SUBCASE("the same layer and batch size at two corners is no duplicate; at one corner it is")
  {
    auto d = two_precisions();
    d.results.push_back(d.results[3]);
    const auto problems = dataset::check(d);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].message.find("duplicate cell Linear at batch size 1 (bf16 train)") != std::string::npos);
  }
  SUBCASE("a missing corner of the declared cube is named")
  {
    auto d = two_precisions();
    d.results.erase(d.results.begin() + 2);
    const auto problems = dataset::check(d);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].message.find("(bf16) of the declared matrix is missing") != std::string::npos);
  }
  SUBCASE("train timings belong to train cells")
  {
    auto d = two_precisions();
    d.results[0].train = d.results[3].train;
    const auto problems = dataset::check(d);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].pointer == "/results/0/train");
  }
}

TEST_CASE("dataset::find_cell")
{
  const auto d = two_precisions();
  SUBCASE("without axes: the reference corner") { CHECK(dataset::find_cell(d, "Linear", 1) == &d.results[0]); }
  SUBCASE("with axes: that corner") { CHECK(dataset::find_cell(d, "Linear", 1, bf16_train()) == &d.results[3]); }
  SUBCASE("has_axes") { CHECK(dataset::has_axes(d)); CHECK(!dataset::has_axes(test::measured())); }
}

TEST_CASE("dataset::diff axes")
{
  SUBCASE("cells are matched by corner, not by layer and batch size alone")
  {
    const auto a = two_precisions();
    auto b = two_precisions();
    b.results[3].stats = test::quartiles(2, 1.9, 2.1);
    const auto result = dataset::diff(a, b);
    REQUIRE(result.cells.size() == 4);
    CHECK(result.cells[0].change == dataset::Change::unchanged);
    CHECK(result.cells[3].change == dataset::Change::slower);
    CHECK(result.cells[3].axes == bf16_train());
    const auto text = dataset::format_diff(result, "a", "b", dataset::DiffFormat::text);
    CHECK(text.find("Linear (bf16 train)") != std::string::npos);
  }
}

TEST_CASE("dataset::to_csv axes")
{
  const auto csv = dataset::to_csv(two_precisions());
  const auto& columns = dataset::csv_columns();
  const auto at = [&](const std::string& name) { return std::find(columns.begin(), columns.end(), name) - columns.begin(); };
  SUBCASE("axis and train columns come after the 1.2 columns")
  {
    CHECK(at("precision") > at("speed_class"));
    CHECK(at("train_sum_ms") > at("mode"));
  }
  SUBCASE("each row names its corner and its train parts")
  {
    CHECK(csv.find(",bf16,contiguous,off,train,eager,1.0,,2.0,3.0") != std::string::npos);
    CHECK(csv.find(",fp32,contiguous,off,inference_mode,eager,,,,") != std::string::npos);
  }
}

TEST_CASE("dataset::axis_table")
{
  SUBCASE("each built-in axis's handle names its row")
  {
    CHECK(dataset::axis_table()[dataset::k_precision.index].name == dataset::k_precision.name);
    CHECK(dataset::axis_table()[dataset::k_memory_format.index].name == dataset::k_memory_format.name);
    CHECK(dataset::axis_table()[dataset::k_cudnn_benchmark.index].name == dataset::k_cudnn_benchmark.name);
    CHECK(dataset::axis_table()[dataset::k_mode.index].name == dataset::k_mode.name);
    CHECK(dataset::axis_table()[dataset::k_compiled.index].name == dataset::k_compiled.name);
    CHECK(dataset::axis_table().size() == 5);
  }
  SUBCASE("an enum's values are its enumerators, spelled as the files spell them")
  {
    CHECK(dataset::axis_table()[dataset::k_mode.index].values
          == std::vector<std::string>{"inference_mode", "no_grad", "train"});
    CHECK(dataset::to_string(dataset::Compiled::aot_inductor) == "aot_inductor");
  }
  SUBCASE("the help lists every axis with its values; describe names every axis of a corner")
  {
    CHECK(dataset::axes_help().rfind("precision=fp32,tf32,bf16,fp16 memory_format=contiguous,channels_last ", 0) == 0);
    CHECK(dataset::describe(bf16_train()).find("precision=bf16, memory_format=contiguous,") == 0);
  }
}

TEST_CASE("dataset::ScopedAxis")
{
  // An axis declared in one line reaches labels, iteration, the CSV, the --axes help and the JSON.
  const dataset::ScopedAxis fake({"fake", {"a", "b", "c"}, "a test-only axis"});
  dataset::AxisGrid grid;
  dataset::apply_axes_arguments(grid, {"fake=a,c", "mode=inference_mode,train"});
  const auto all = dataset::corners(grid);
  SUBCASE("iteration: the product grows by the axis, last varying fastest")
  {
    REQUIRE(all.size() == 4);
    CHECK(dataset::axis_value(all[1], "fake") == "c");
    CHECK(all[2][dataset::k_mode] == dataset::GradMode::train);
  }
  SUBCASE("labels and order")
  {
    CHECK(dataset::label(all[1]) == "c");
    CHECK(dataset::label(all[3]) == "train c");
    CHECK(all[0] < all[1]);
  }
  SUBCASE("help")
  {
    CHECK(dataset::axes_help().find("compiled=eager,aot_inductor,torch_compile fake=a,b,c") != std::string::npos);
    CHECK(test::error_of([&] { dataset::apply_axes_argument(grid, "fake=d"); }).find("(values: a, b, c)") != std::string::npos);
  }
  SUBCASE("CSV columns: appended after every other column, each row naming its value")
  {
    auto d = two_precisions();
    d.results[1].axes = all[1];
    const auto columns = dataset::csv_columns();
    CHECK(columns.back() == "fake");
    CHECK(columns.size() == 45);
    const auto csv = dataset::to_csv(d);
    CHECK(csv.find(",a\r\n") != std::string::npos);
    CHECK(csv.find(",c\r\n") != std::string::npos);
  }
  SUBCASE("JSON: a cell's corner and the methodology's grid round-trip")
  {
    auto d = two_precisions();
    d.methodology->axes = grid;
    d.results.clear();
    for (const auto& corner : all) {
      d.results.push_back(test::timed_cell("Linear", 1, test::quartiles(1, 0.95, 1.05)));
      d.results.back().axes = corner;
    }
    const auto read = dataset::parse(dataset::serialize(d), "fake.json");
    CHECK(read.methodology->axes == grid);
    CHECK(read.results[1].axes == all[1]);
  }
}

TEST_CASE("dataset::axis_table schema")
{
  // The JSON Schema spells each axis's values too (data/schema/dataset.schema.json): a value added to the
  // table is added there, in the cell's corner and in the methodology's grid.
  std::ifstream file(std::string(LAYERBENCH_SOURCE_DIR) + "/data/schema/dataset.schema.json");
  REQUIRE(file);
  const auto schema = nlohmann::json::parse(file);
  const auto& corner = schema["$defs"]["axes"]["properties"];
  const auto& grid = schema["$defs"]["methodology"]["properties"]["axes"]["anyOf"][0]["properties"];
  CHECK(corner.size() == dataset::axis_table().size());
  CHECK(grid.size() == dataset::axis_table().size());
  for (const auto& info : dataset::axis_table()) {
    CAPTURE(info.name);
    CHECK(corner[info.name]["anyOf"][0]["enum"].get<std::vector<std::string>>() == info.values);
    CHECK(grid[info.name]["anyOf"][0]["items"]["enum"].get<std::vector<std::string>>() == info.values);
  }
}
