// SPDX-License-Identifier: MIT
// The FAQ's comparative and causal sentences: each is in the view only while the data makes it true.
// Every subcase plants data that breaks one condition and checks that its sentence goes. The numbers
// are test inputs, not measurements.
#include "site/view_model.hpp"
#include "site/view_pages.hpp"

#include "test_site_fixture.hpp"

#include <doctest/doctest.h>

#include <string>

using layerbench::site::Data;
namespace dataset = layerbench::dataset;
namespace site = layerbench::site;
namespace test = layerbench::test;

namespace {

constexpr int k_batch = 32;

// Roofs: 100 GFLOP/s and 10 GB/s, so the ridge is at 10 FLOP/byte. At batch 32, MaxPool2d (1 FLOP/byte)
// is memory-bound and reaches 80% of its 10 GFLOP/s roof; Conv2d and Conv1d (100 FLOP/byte) are
// compute-bound, Conv1d with twice the FLOPs and twice the time, both at 80% of the compute roof.
dataset::Dataset roofline_dataset()
{
  dataset::Dataset d = test::measured({"Conv2d", "Conv1d", "MaxPool2d"}, {8, k_batch});
  test::set_peaks(d);
  test::set_layer(d, "MaxPool2d", 0, 1e6, 1e6, 4.0);
  test::set_layer(d, "Conv2d", 100, 1e8, 1e6, 40.0);
  test::set_layer(d, "Conv1d", 100, 2e8, 2e6, 80.0);
  for (const char* name : {"Conv2d", "Conv1d"}) {
    test::cell_of(d, name, k_batch).operators = {{"aten::mkldnn_convolution", 1, 0.99, std::nullopt}};
  }
  return d;
}

Data faq_view(const dataset::Dataset& d)
{
  return test::page_view(d, "faq.html");
}

Data answer(const Data& faq, const std::string& name)
{
  const Data* roofline = faq.get("roofline");
  REQUIRE(roofline != nullptr);
  const Data* value = roofline->get(name);
  REQUIRE(value != nullptr);
  return *value;
}

bool flag(const Data& view, const std::string& key)
{
  const Data* value = view.get(key);
  REQUIRE(value != nullptr);
  return !value->is_false() && !(value->is_list() && value->is_empty_list());
}

} // namespace

TEST_CASE("site::faq_page")
{
  SUBCASE("parameter-free layers are said to be set by memory only while they are near the memory roof")
  {
    dataset::Dataset d = roofline_dataset();
    CHECK(flag(answer(faq_view(d), "parameter_free"), "layers"));
    test::set_layer(d, "MaxPool2d", 0, 1e6, 1e6, 64.0); // 5% of its roof
    CHECK(answer(faq_view(d), "parameter_free").is_false());
  }
  SUBCASE("time follows FLOPs among compute-bound cells only while no cell with more FLOPs was faster")
  {
    dataset::Dataset d = roofline_dataset();
    CHECK(flag(answer(faq_view(d), "tflops"), "follows_flops"));
    test::set_layer(d, "Conv1d", 100, 2e8, 2e6, 30.0); // twice Conv2d's FLOPs, less time
    CHECK(!flag(answer(faq_view(d), "tflops"), "follows_flops"));
  }
  SUBCASE("a faster device is said to help each layer only while both are near their roofs")
  {
    dataset::Dataset d = roofline_dataset();
    CHECK(flag(answer(faq_view(d), "tflops"), "near_roofs"));
    test::set_layer(d, "Conv2d", 100, 1e8, 1e6, 320.0); // 10% of the compute roof
    CHECK(!flag(answer(faq_view(d), "tflops"), "near_roofs"));
  }
  SUBCASE("\"most cells are bound by memory\" only when more than half are")
  {
    dataset::Dataset d = roofline_dataset();
    CHECK(!flag(answer(faq_view(d), "tflops"), "most_memory_bound")); // 1 of 3
    test::set_layer(d, "Conv1d", 100, 2e6, 2e6, 0.8); // now 1 FLOP/byte: 2 of 3 memory-bound
    const Data tflops = answer(faq_view(d), "tflops");
    CHECK(flag(tflops, "most_memory_bound"));
  }
  SUBCASE("two convolutions are compared only while their times differ; the operators' sentence follows the profile")
  {
    dataset::Dataset d = roofline_dataset();
    const Data same = answer(faq_view(d), "convolutions");
    CHECK(flag(same, "same_operator"));
    CHECK(!flag(same, "operators_differ"));
    CHECK(!flag(same, "slower_less_efficient")); // both at 80% of the compute roof
    test::cell_of(d, "Conv1d", k_batch).operators = {{"aten::_convolution_depthwise", 1, 0.95, std::nullopt}};
    test::set_layer(d, "Conv1d", 100, 2e8, 2e6, 160.0); // 40% of the roof
    const Data differ = answer(faq_view(d), "convolutions");
    CHECK(flag(differ, "operators_differ"));
    CHECK(!flag(differ, "same_operator"));
    CHECK(flag(differ, "slower_less_efficient"));
    test::set_layer(d, "Conv1d", 100, 2e8, 2e6, 42.0); // about Conv2d's time: nothing to explain
    CHECK(answer(faq_view(d), "convolutions").is_false());
  }
  SUBCASE("two convolutions' FLOPs are called similar only within the stated ratio")
  {
    dataset::Dataset d = roofline_dataset(); // Conv1d does 2x Conv2d's FLOPs
    const Data apart = answer(faq_view(d), "convolutions");
    CHECK(!flag(apart, "similar"));
    CHECK(apart.get("similar_within")->string_value() == "1.25×");
    CHECK(apart.get("flop_ratio")->string_value() == "2×");
    test::set_layer(d, "Conv1d", 100, 1.2e8, 1.2e6, 80.0); // 1.2x the FLOPs, still twice the time
    const Data close = answer(faq_view(d), "convolutions");
    CHECK(flag(close, "similar"));
    CHECK(close.get("flop_ratio")->string_value() == "1.2×");
  }
  SUBCASE("TransformerEncoder is called slower than Dropout only while its median is the larger")
  {
    dataset::Dataset d = test::measured({"TransformerEncoder", "Dropout"}, {8});
    test::cell_of(d, "TransformerEncoder", 8).stats = test::quartiles(50.0, 49.0, 51.0);
    CHECK(flag(*faq_view(d).get("transformer"), "slower"));
    test::cell_of(d, "TransformerEncoder", 8).stats = test::quartiles(0.5, 0.49, 0.51);
    CHECK(!flag(*faq_view(d).get("transformer"), "slower"));
  }
  SUBCASE("\"a larger batch processes more samples per second\" is said of every layer only when every layer does")
  {
    dataset::Dataset d = test::measured({"Linear", "Dropout"}, {1, 8});
    for (const char* name : {"Linear", "Dropout"}) {
      test::cell_of(d, name, 8).stats = test::quartiles(2.0, 1.9, 2.1); // 8 samples in twice the time
    }
    CHECK(flag(*faq_view(d).get("scaling"), "every_layer_gains"));
    test::cell_of(d, "Dropout", 8).stats = test::quartiles(10.0, 9.5, 10.5); // throughput falls
    const Data view = faq_view(d);
    const Data& scaling = *view.get("scaling");
    CHECK(!flag(scaling, "every_layer_gains"));
    CHECK(scaling.get("gaining")->string_value() == "1");
  }
  SUBCASE("a layer's time is said to grow in proportion to the batch only from where its time per sample settles")
  {
    dataset::Dataset d = test::measured({"Conv2d", "Dropout"}, {1, 8, 32});
    test::cell_of(d, "Conv2d", 1).stats = test::quartiles(1.0, 0.99, 1.01);
    test::cell_of(d, "Conv2d", 8).stats = test::quartiles(4.0, 3.9, 4.1);    // 0.5 ms per sample
    test::cell_of(d, "Conv2d", 32).stats = test::quartiles(17.0, 16.9, 17.1); // 0.53 ms per sample
    const Data settled = faq_view(d);
    CHECK(settled.get("scaling")->get("example_growth")->get("proportional_from")->string_value() == "8");
    test::cell_of(d, "Conv2d", 32).stats = test::quartiles(40.0, 39.0, 41.0); // 1.25 ms per sample
    const Data unsettled = faq_view(d);
    CHECK(unsettled.get("scaling")->get("example_growth")->get("proportional_from")->is_false());
  }
  SUBCASE("attention is offered as the reason only while TransformerEncoder is the slowest layer")
  {
    dataset::Dataset d = test::measured({"TransformerEncoder", "Dropout", "LSTM"}, {8});
    test::cell_of(d, "TransformerEncoder", 8).stats = test::quartiles(50.0, 49.0, 51.0);
    CHECK(flag(*faq_view(d).get("transformer"), "is_slowest"));
    test::cell_of(d, "LSTM", 8).stats = test::quartiles(90.0, 89.0, 91.0);
    CHECK(!flag(*faq_view(d).get("transformer"), "is_slowest"));
  }
}

namespace {

// Linear and GRU at batch 8, the baseline (inference mode) at 1 ms, and a no_grad corner taking `no_grad_ms`.
dataset::Dataset settings_dataset(double no_grad_ms)
{
  dataset::Dataset d = test::measured({"Linear", "GRU"}, {8});
  d.methodology->axes.set(dataset::k_mode, {dataset::GradMode::inference_mode, dataset::GradMode::no_grad});
  dataset::Axes no_grad;
  no_grad.set(dataset::k_mode, dataset::GradMode::no_grad);
  for (const char* layer : {"Linear", "GRU"}) {
    auto cell = test::timed_cell(layer, 8, test::quartiles(no_grad_ms, no_grad_ms * 0.99, no_grad_ms * 1.01));
    cell.axes = no_grad;
    d.results.push_back(cell);
  }
  for (auto& cell : d.results) {
    cell.stats->noise = 0.02; // below the least change that counts (5%)
  }
  return d;
}

std::string setting_of(const dataset::Dataset& d, const std::string& layer)
{
  site::SiteData data;
  site::SiteDataset entry;
  entry.slug = d.id + "-v1";
  entry.data = d;
  data.datasets.push_back(entry);
  const Data answer = site::settings_answer(data);
  REQUIRE(answer.is_object());
  for (const auto& row : answer.get("rows")->list_value()) {
    if (row.get("layer")->string_value() == layer) {
      return row.get("setting")->string_value();
    }
  }
  FAIL("no row for " << layer);
  return "";
}

} // namespace

TEST_CASE("site::settings_answer")
{
  SUBCASE("a setting beyond the noise is named as the best, with its speedup")
  {
    CHECK(setting_of(settings_dataset(0.5), "GRU") == "no-grad mode (2×)");
  }
  SUBCASE("a speedup within the noise is not called a help")
  {
    const std::string text = setting_of(settings_dataset(0.98), "GRU");
    CHECK(text.rfind("none beyond the noise", 0) == 0);
    CHECK(text.find("1.02×") != std::string::npos);
  }
  SUBCASE("a slowdown is never the best setting: none helps")
  {
    // Issue 35: "best no_grad (0.836×)" was a slowdown.
    const std::string text = setting_of(settings_dataset(1.0 / 0.836), "GRU");
    CHECK(text.rfind("none helps", 0) == 0);
    CHECK(text.find("best") == std::string::npos);
    CHECK(text.find("0.836×") != std::string::npos);
  }
}
