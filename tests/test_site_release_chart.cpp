// SPDX-License-Identifier: MIT
// Seed 001's figure (issue 38 item 2): a model's training throughput per torch release on one device,
// the compiled bar beside its eager one, on hand-made model datasets. The numbers are test inputs, not
// measurements.
#include "site/release_chart.hpp"

#include "site/chart.hpp"
#include "site/template_set.hpp"
#include "site/view_pages.hpp"

#include "test_dataset_fixture.hpp"
#include "test_site_sites.hpp"
#include "test_site_fixture.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using layerbench::site::Data;
namespace dataset = layerbench::dataset;
namespace site = layerbench::site;
namespace test = layerbench::test;

namespace {

dataset::Axes train(dataset::Precision precision, dataset::Compiled compiled = dataset::Compiled::eager)
{
  dataset::Axes axes;
  axes.set(dataset::k_mode, dataset::GradMode::train);
  axes.set(dataset::k_precision, precision);
  axes.set(dataset::k_compiled, compiled);
  return axes;
}

// A measured dataset of ResNet50 alone, on `device`, with no cells yet.
dataset::Dataset release_models(const std::string& id, const std::string& torch, const std::string& device = "Test CPU", bool cuda = false)
{
  auto d = test::measured({"ResNet50"}, {1, 8});
  d.id = id;
  d.results.clear();
  d.layers.front().kind = dataset::LayerKind::model;
  d.layers.front().input_shape = "B x 3 x 224 x 224";
  d.environment->device.name = device;
  d.environment->device.type = cuda ? "cuda" : "cpu";
  d.environment->torch_version = torch;
  return d;
}

// A timed cell of median `ms` with the interquartile range of ±5%.
dataset::Cell& add(dataset::Dataset& d, int batch, const dataset::Axes& axes, double ms)
{
  auto cell = test::timed_cell("ResNet50", batch, test::quartiles(ms, ms * 0.95, ms * 1.05));
  cell.axes = axes;
  d.results.push_back(cell);
  return d.results.back();
}

// Four releases of one CPU, published out of release order; torch.compile on 2.0.1 and later. At batch
// 8: eager 80, 100, 100, 80 images/s (100 ms, 80 ms, 80 ms, 100 ms), compiled 160 on each release that
// has it. 2.11.0's eager cell was measured in rounds: its interval is the round medians' 95% interval.
site::SiteData four_releases()
{
  auto newest = release_models("models-2-11-0", "2.11.0");
  add(newest, 1, train(dataset::Precision::fp32), 20);
  add(newest, 8, train(dataset::Precision::fp32), 100).round_spread = dataset::RoundSpread{3, 90, 150, 80, 160};
  add(newest, 8, train(dataset::Precision::fp32, dataset::Compiled::torch_compile), 50);
  auto oldest = release_models("models-1-13-1", "1.13.1");
  add(oldest, 8, train(dataset::Precision::fp32), 100);
  auto middle = release_models("models-2-9-1", "2.9.1");
  add(middle, 8, train(dataset::Precision::fp32), 80);
  add(middle, 8, train(dataset::Precision::fp32, dataset::Compiled::torch_compile), 50);
  auto first_two = release_models("models-2-0-1", "2.0.1");
  add(first_two, 8, train(dataset::Precision::fp32), 80);
  add(first_two, 8, train(dataset::Precision::fp32, dataset::Compiled::torch_compile), 50);
  return test::model_site({newest, oldest, middle, first_two});
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_CASE("site::render_svg(GroupedBarChart)")
{
  site::GroupedBarChart chart;
  chart.id = "g";
  chart.title = "Grouped";
  chart.description = "Two releases.";
  chart.value_label = "images/s";
  chart.whisker_label = "Whiskers: test";
  chart.series = {"eager", "torch.compile"};
  chart.groups.push_back({"torch 2.0.1", {{"a", 50, "50", site::Whisker{40, 60, "40 to 60"}}, {"b", 100, "100", std::nullopt}}});
  chart.groups.push_back({"torch 1.13.1", {{"c", 80, "80", std::nullopt}, {"d", 0, "not measured", std::nullopt}}});
  const std::string svg = site::render_svg(chart);

  SUBCASE("bars from zero on a linear scale: 50 is half of 100, each series in its colour")
  {
    // A step of 50 up to 100 over the 236 px plot, from x = 8; the legend's row ends at y = 24.
    CHECK(contains(svg, "<rect x=\"8.0\" y=\"66.0\" width=\"118.0\" height=\"12\" fill=\"#1f5fa8\"><title>a: 50; 40 to 60</title>"));
    CHECK(contains(svg, "<rect x=\"8.0\" y=\"84.0\" width=\"236.0\" height=\"12\" fill=\"#c2410c\"><title>b: 100</title>"));
    CHECK(contains(svg, "<rect x=\"8.0\" y=\"130.0\" width=\"188.8\" height=\"12\" fill=\"#1f5fa8\">"));
    CHECK(contains(svg, ">0</text>"));
    CHECK(contains(svg, ">50</text>"));
    CHECK(contains(svg, ">100</text>"));
  }
  SUBCASE("the whisker spans its ends, and the value is written past it")
  {
    CHECK(contains(svg, "d=\"M102.4,68.0V76.0M102.4,72.0H149.6M149.6,68.0V76.0\""));
    CHECK(contains(svg, "<text x=\"155.6\" y=\"77.0\" text-anchor=\"start\">50</text>"));
    CHECK(contains(svg, "Whiskers: test"));
  }
  SUBCASE("a bar of value 0 keeps its slot, with its words and no rect")
  {
    CHECK(contains(svg, "<text x=\"12.0\" y=\"159.0\" text-anchor=\"start\" class=\"label\">not measured</text>"));
    CHECK(!contains(svg, "<title>d:"));
  }
  SUBCASE("a legend names each series beside its colour, and the chart is a phone's width")
  {
    CHECK(contains(svg, "fill=\"#1f5fa8\"/>\n<text x=\"24.0\" y=\"17.0\" text-anchor=\"start\">eager</text>"));
    CHECK(contains(svg, ">torch.compile</text>"));
    CHECK(contains(svg, "width=\"352.0\" height=\"222.0\""));
    CHECK(contains(svg, "role=\"img\" aria-labelledby=\"g-title g-desc\""));
  }
  SUBCASE("nothing to draw")
  {
    site::GroupedBarChart empty = chart;
    empty.groups = {{"torch 2.0.1", {{"a", 0, "not measured", std::nullopt}, {"b", 0, "skipped", std::nullopt}}}};
    CHECK(site::render_svg(empty).empty());
  }
}

TEST_CASE("site::release_figures")
{
  const auto site_data = four_releases();
  const auto figures = site::release_figures(site_data, "ResNet50");
  REQUIRE(figures.size() == 1);
  const auto& figure = figures.front();

  SUBCASE("releases in release order, not as text or as published: 1.13.1 < 2.0.1 < 2.9.1 < 2.11.0")
  {
    CHECK(figure.releases == std::vector<std::string>{"1.13.1", "2.0.1", "2.9.1", "2.11.0"});
  }
  SUBCASE("the largest batch size trained, eager first and the compiled setting beside it")
  {
    CHECK(figure.batch == 8);
    CHECK(figure.settings == std::vector<dataset::Compiled>{dataset::Compiled::eager, dataset::Compiled::torch_compile});
    CHECK(figure.device == "Test CPU with 2 threads");
    CHECK(figure.unit == "images/s");
  }
  SUBCASE("a release without a compiled cell has no compiled bar")
  {
    CHECK(figure.bars[0][0].cell != nullptr);
    CHECK(figure.bars[0][1].cell == nullptr);
    CHECK(figure.bars[3][1].cell->stats->median_ms == 50);
    CHECK(figure.bars[3][0].entry->data.id == "models-2-11-0");
  }
  SUBCASE("another device's cells are its own figure, never mixed in")
  {
    auto gpu = release_models("gpu-models", "2.11.0", "Test GPU", true);
    add(gpu, 512, train(dataset::Precision::fp32), 100);
    auto with_gpu = four_releases();
    with_gpu.models.push_back(test::site_of({gpu}).datasets.front());
    const auto both = site::release_figures(with_gpu, "");
    REQUIRE(both.size() == 2);
    CHECK(both[0].device == "Test CPU with 2 threads");
    CHECK(both[1].device == "Test GPU");
    CHECK(both[1].releases == std::vector<std::string>{"2.11.0"});
    CHECK(both[1].batch == 512);
    CHECK(both[1].settings == std::vector<dataset::Compiled>{dataset::Compiled::eager});
  }
  SUBCASE("a dataset of models alone that a newer version replaces is left out")
  {
    auto old_gpu = release_models("gpu-models", "2.11.0", "Test GPU", true);
    old_gpu.version = 1;
    add(old_gpu, 512, train(dataset::Precision::fp32), 200);
    auto new_gpu = old_gpu;
    new_gpu.version = 2;
    new_gpu.replaces = "gpu-models@1";
    new_gpu.results.front().stats = test::quartiles(100, 95, 105);
    const auto found = site::release_figures(test::model_site({old_gpu, new_gpu}), "ResNet50");
    REQUIRE(found.size() == 1);
    REQUIRE(found[0].bars[0][0].cell != nullptr);
    CHECK(found[0].bars[0][0].cell->stats->median_ms == 100);
  }
  SUBCASE("one figure per precision; a cell at another corner (channels-last) joins none")
  {
    auto newest = release_models("models-bf16", "2.11.0");
    add(newest, 8, train(dataset::Precision::bf16), 40);
    auto channels_last = train(dataset::Precision::fp32);
    channels_last.set(dataset::k_memory_format, dataset::MemoryFormat::channels_last);
    add(newest, 16, channels_last, 40);
    auto data = four_releases();
    data.models.push_back(test::site_of({newest}).datasets.front());
    const auto split = site::release_figures(data, "ResNet50");
    REQUIRE(split.size() == 2);
    CHECK(split[0].precision == dataset::Precision::fp32);
    CHECK(split[0].batch == 8); // not the channels-last cell's 16
    CHECK(split[1].precision == dataset::Precision::bf16);
    CHECK(split[1].bars[0][0].cell == nullptr); // bf16 on 1.13.1: not measured
  }
  SUBCASE("where one dataset measured both settings, both bars come from it")
  {
    auto eager_only = release_models("models-eager-first", "2.9.1");
    add(eager_only, 8, train(dataset::Precision::fp32), 40);
    auto data = four_releases();
    // Published before the pair's dataset, yet the pair's eager bar is the one beside its compiled bar.
    data.models.insert(data.models.begin(), test::site_of({eager_only}).datasets.front());
    const auto found = site::release_figures(data, "ResNet50");
    REQUIRE(found.size() == 1);
    CHECK(found[0].bars[2][0].entry->data.id == "models-2-9-1");
    CHECK(found[0].bars[2][0].cell->stats->median_ms == 80);
  }
  SUBCASE("a newer eager-only dataset gives the eager bar; the older pair keeps the compiled one")
  {
    // The releases measured together later (measure.sh's series) against a single older run that
    // also compiled: the eager bars compare the series.
    auto series = release_models("models-2-11-0-series", "2.11.0");
    series.created = "2099-01-01T00:00:00Z";
    add(series, 8, train(dataset::Precision::fp32), 125);
    auto data = four_releases();
    data.models.push_back(test::site_of({series}).datasets.front());
    const auto found = site::release_figures(data, "ResNet50");
    REQUIRE(found.size() == 1);
    CHECK(found[0].bars[3][0].entry->data.id == "models-2-11-0-series");
    CHECK(found[0].bars[3][0].cell->stats->median_ms == 125);
    CHECK(found[0].bars[3][1].entry->data.id == "models-2-11-0");
  }
}

TEST_CASE("site::release_chart_section")
{
  const Data section = site::release_chart_section(four_releases(), "ResNet50", "../");
  REQUIRE(section.is_object());
  const auto& devices = section.get("devices")->list_value();
  REQUIRE(devices.size() == 1);
  CHECK(test::string_at(devices[0], "device") == "Test CPU with 2 threads");
  const auto& figures = devices[0].get("figures")->list_value();
  REQUIRE(figures.size() == 1);
  const Data& figure = figures[0];
  const std::string chart = test::string_at(figure, "chart");

  SUBCASE("the chart: a bar per release and setting, the compiled beside the eager, none on 1.13.1")
  {
    // eager 80 images/s at 100 ms on 1.13.1; compiled 160 at 50 ms, the axis's top (step 50 to 200).
    CHECK(contains(chart, "<title>torch 1.13.1, eager: 80; 25th to 75th percentile: 76.2 to 84.2 images/s</title>"));
    CHECK(contains(chart, "<title>torch 2.0.1, torch.compile: 160;"));
    CHECK(!contains(chart, "<title>torch 1.13.1, torch.compile"));
    CHECK(contains(chart, ">not measured</text>"));
    CHECK(contains(chart, ">torch 2.11.0</text>"));
    CHECK(contains(chart, "width=\"188.8\"")); // 160 of 200 over 236 px
    // The order of the groups on the page is the release order.
    CHECK(chart.find(">torch 1.13.1<") < chart.find(">torch 2.0.1<"));
    CHECK(chart.find(">torch 2.0.1<") < chart.find(">torch 2.9.1<"));
    CHECK(chart.find(">torch 2.9.1<") < chart.find(">torch 2.11.0<"));
  }
  SUBCASE("2.11.0's eager whisker is the 95% interval of its rounds, converted to samples per second")
  {
    // 8 images over 160 ms and over 80 ms: 50 to 100.
    CHECK(contains(chart, "<title>torch 2.11.0, eager: 80; 95% interval over 3 rounds: 50 to 100 images/s</title>"));
    CHECK(contains(chart, "Whiskers: 95% interval, or quartiles"));
  }
  SUBCASE("the text alternative gives every number, and why a bar is missing")
  {
    CHECK(contains(chart, "<desc id=\"releases-1-ResNet50-fp32-desc\">Training throughput of ResNet50 in fp32 on Test CPU with 2 "
                          "threads at batch size 8, in images/s, per torch release: 1.13.1: eager 80, torch.compile not measured at "
                          "batch size 8; 2.0.1: eager 100, torch.compile 160; 2.9.1: eager 100, torch.compile 160; 2.11.0: eager "
                          "80, torch.compile 160."));
    const auto& rows = figure.get("rows")->list_value();
    REQUIRE(rows.size() == 8);
    CHECK(test::string_at(rows[0], "release") == "1.13.1");
    CHECK(test::string_at(rows[0], "setting") == "eager");
    CHECK(test::string_at(rows[0], "throughput") == "80");
    CHECK(test::string_at(rows[0], "batch") == "8");
    CHECK(test::string_at(rows[1], "setting") == "torch.compile");
    CHECK(!rows[1].get("timed")->is_true());
    CHECK(test::string_at(rows[1], "missing") == "not measured at batch size 8");
    CHECK(rows[1].get("dataset")->is_false());
    CHECK(test::string_at(rows[7], "throughput") == "160");
    CHECK(test::string_at(rows[6], "interval") == "95% interval over 3 rounds: 50 to 100 images/s");
    CHECK(test::string_at(*rows[6].get("dataset"), "href") == "../datasets/models-2-11-0-v1.html");
    CHECK(test::string_at(figure, "caption").find("batch size 8, the largest this device trained ResNet50 at in fp32") != std::string::npos);
  }
  SUBCASE("a skipped compiled cell: its reason in the table, 'skipped' in its slot")
  {
    auto data = four_releases();
    data.models[1].data.results.push_back(test::skipped_cell("ResNet50", 8, "torch.compile is not in this release"));
    data.models[1].data.results.back().axes = train(dataset::Precision::fp32, dataset::Compiled::torch_compile);
    const Data with_skip = site::release_chart_section(data, "ResNet50", "../");
    const Data& one = with_skip.get("devices")->list_value()[0].get("figures")->list_value()[0];
    CHECK(test::string_at(one.get("rows")->list_value()[1], "missing") == "skipped: torch.compile is not in this release");
    CHECK(contains(test::string_at(one, "chart"), ">skipped</text>"));
  }
  SUBCASE("no training cell: no section")
  {
    auto inference_only = release_models("inference", "2.11.0");
    add(inference_only, 8, dataset::Axes{}, 10);
    CHECK(site::release_chart_section(test::model_site({inference_only}), "", "").is_false());
  }
}
