// SPDX-License-Identifier: MIT
#include "site/sweep_section.hpp"

#include "site/template_set.hpp"
#include "site/view_common.hpp"

#include "test_site_fixture.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace layerbench;

namespace {

// MultiheadAttention at d = 512 and `heads`, `seq`: its canonical name (defaults heads 8, seq 512 left out).
std::string mha_name(double heads, double seq)
{
  std::string parameters;
  if (heads != 8) {
    parameters += "heads=" + std::to_string(static_cast<int>(heads));
  }
  if (seq != 512) {
    parameters += (parameters.empty() ? "" : ",") + std::string("seq=") + std::to_string(static_cast<int>(seq));
  }
  return parameters.empty() ? "MultiheadAttention" : "MultiheadAttention(" + parameters + ")";
}

// A dataset of MultiheadAttention at each (heads, seq), and a Linear without a shape. Each cell's median
// is 0.001 ms x batch x (seq / 128)^2, exactly, with its quartiles 1% either side; FLOPs per sample are
// seq + seq^2 / 256. Test inputs, not measurements.
dataset::Dataset sweep_dataset(const std::vector<std::pair<double, double>>& shapes, std::vector<int> batches = {1, 8})
{
  std::vector<std::string> names;
  for (const auto& [heads, seq] : shapes) {
    names.push_back(mha_name(heads, seq));
  }
  names.push_back("Linear");
  dataset::Dataset d = test::measured(names, batches);
  for (size_t i = 0; i < shapes.size(); ++i) {
    const auto [heads, seq] = shapes[i];
    auto& layer = d.layers[i];
    layer.shape = dataset::LayerParameters{"MultiheadAttention", {{"d", 512}, {"heads", heads}, {"seq", seq}}};
    layer.flops_per_sample = seq + seq * seq / 256;
    for (int batch : batches) {
      const double ms = 0.001 * batch * (seq / 128) * (seq / 128);
      test::cell_of(d, layer.name, batch).stats = test::quartiles(ms, ms * 0.99, ms * 1.01);
    }
  }
  return d;
}

const std::vector<std::pair<double, double>> k_seq_sweep = {{8, 128}, {8, 256}, {8, 512}, {8, 1024}};

const site::Data& item(const site::Data& view, const std::string& key, size_t index)
{
  const site::Data* value = view.get(key);
  REQUIRE(value != nullptr);
  REQUIRE(value->is_list());
  REQUIRE(index < value->list_value().size());
  return value->list_value()[index];
}

size_t count_of(const std::string& text, const std::string& part)
{
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

} // namespace

TEST_CASE("site::find_sweeps")
{
  SUBCASE("one parameter varies over three values or more: one sweep, the layer without a shape left out")
  {
    const auto sweeps = site::find_sweeps(sweep_dataset(k_seq_sweep));
    REQUIRE(sweeps.size() == 1);
    CHECK(sweeps[0].layer == "MultiheadAttention");
    CHECK(sweeps[0].parameter == "seq");
    CHECK(sweeps[0].fixed == std::vector<std::pair<std::string, double>>{{"d", 512}, {"heads", 8}});
    REQUIRE(sweeps[0].points.size() == 4);
    CHECK(sweeps[0].points[0].layer == "MultiheadAttention(seq=128)");
    CHECK(sweeps[0].points[2].layer == "MultiheadAttention");
    CHECK(sweeps[0].points[3].value == 1024);
  }
  SUBCASE("a layer without a shape never joins, even named as a point of the sweep")
  {
    auto d = sweep_dataset(k_seq_sweep);
    d.layers[3].shape.reset(); // seq=1024
    const auto sweeps = site::find_sweeps(d);
    REQUIRE(sweeps.size() == 1);
    CHECK(sweeps[0].points.size() == 3);
    CHECK(sweeps[0].points.back().layer == "MultiheadAttention");
  }
  SUBCASE("two parameters varying together make no sweep")
  {
    CHECK(site::find_sweeps(sweep_dataset({{4, 128}, {8, 256}, {16, 512}})).empty());
  }
  SUBCASE("fewer than three values make none")
  {
    CHECK(site::find_sweeps(sweep_dataset({{8, 128}, {8, 256}})).empty());
  }
  SUBCASE("a seq sweep and a heads sweep in one dataset")
  {
    const auto sweeps = site::find_sweeps(sweep_dataset({{8, 128}, {8, 256}, {8, 512}, {4, 512}, {16, 512}}));
    REQUIRE(sweeps.size() == 2);
    CHECK(sweeps[0].parameter == "heads");
    CHECK(sweeps[0].fixed == std::vector<std::pair<std::string, double>>{{"d", 512}, {"seq", 512}});
    CHECK(sweeps[0].points.size() == 3);
    CHECK(sweeps[0].points[0].layer == "MultiheadAttention(heads=4)");
    CHECK(sweeps[1].parameter == "seq");
    CHECK(sweeps[1].points.size() == 3);
  }
}

TEST_CASE("site::fit_power")
{
  SUBCASE("y = 3 x^2 exactly")
  {
    const auto fit = site::fit_power({{2, 12}, {4, 48}, {8, 192}});
    REQUIRE(fit);
    CHECK(fit->slope == doctest::Approx(2.0));
    CHECK(fit->at(16) == doctest::Approx(768.0));
  }
  SUBCASE("one x value fits no line")
  {
    CHECK_FALSE(site::fit_power({{2, 1}, {2, 3}}));
  }
}

TEST_CASE("site::sweep_sentence")
{
  auto d = sweep_dataset(k_seq_sweep);
  const auto sweep = site::find_sweeps(d).at(0);

  SUBCASE("times as seq^2 exactly: slope 2.00; the formula's slopes beside it")
  {
    const auto series = site::sweep_series(d, sweep);
    REQUIRE(series.size() == 2);
    CHECK(series[1].batch == 8);
    CHECK(site::sweep_sentence(sweep, series[1])
          == "At batch size 8, time grows as seq^2.00 over 128–1024 (seq^2.00 between the two largest); the FLOP formula grows as "
             "seq^1.58 and seq^1.74 over the same points.");
  }
  SUBCASE("a skipped cell leaves its point out of that batch's fit; a missed noise target is counted")
  {
    test::cell_of(d, "MultiheadAttention(seq=128)", 1) = test::skipped_cell("MultiheadAttention(seq=128)", 1, "out of memory");
    test::cell_of(d, "MultiheadAttention(seq=1024)", 1).stats->noise_target_met = false;
    const auto series = site::sweep_series(d, sweep);
    REQUIRE(series.size() == 2);
    CHECK(site::sweep_sentence(sweep, series[0])
          == "At batch size 1, time grows as seq^2.00 over 256–1024 (seq^2.00 between the two largest); the FLOP formula grows as "
             "seq^1.66 and seq^1.74 over the same points. 1 of its 3 points missed their noise target.");
  }
  SUBCASE("fewer than three timed points at a batch size: no series there")
  {
    test::cell_of(d, "MultiheadAttention(seq=128)", 1) = test::skipped_cell("MultiheadAttention(seq=128)", 1, "out of memory");
    test::cell_of(d, "MultiheadAttention(seq=256)", 1) = test::skipped_cell("MultiheadAttention(seq=256)", 1, "out of memory");
    const auto series = site::sweep_series(d, sweep);
    REQUIRE(series.size() == 1);
    CHECK(series[0].batch == 8);
  }
  SUBCASE("without a FLOP count at every point, no formula slope")
  {
    d.layers[1].flops_per_sample.reset();
    const auto series = site::sweep_series(d, sweep);
    CHECK(site::sweep_sentence(sweep, series[0])
          == "At batch size 1, time grows as seq^2.00 over 128–1024 (seq^2.00 between the two largest); the dataset gives no FLOP "
             "count for some of these points, so the formula's growth is not computed.");
  }
}

TEST_CASE("site::sweep_chart")
{
  const auto d = sweep_dataset(k_seq_sweep);
  const auto sweep = site::find_sweeps(d).at(0);
  const std::string svg = site::sweep_chart("c", d, sweep, site::sweep_series(d, sweep));
  CHECK(count_of(svg, "<path class=\"fit\"") == 2);        // one fitted line per batch size
  CHECK(count_of(svg, "<line class=\"whisker\"") == 8);    // one per point
  CHECK(svg.find("viewBox=\"0 0 352.0 ") != std::string::npos); // a phone's width
  CHECK(svg.find("aria-labelledby=\"c-title c-desc\"") != std::string::npos);
  CHECK(svg.find("<title id=\"c-title\">MultiheadAttention: forward time against seq</title>") != std::string::npos);
  CHECK(svg.find(">batch 8: slope 2.00</text>") != std::string::npos);
  CHECK(site::sweep_chart("c", d, sweep, {}).empty());
}

TEST_CASE("site::sweep_blocks")
{
  const auto d = sweep_dataset(k_seq_sweep);
  site::SiteData data;
  site::SiteDataset entry;
  entry.slug = "test-cpu-v1";
  entry.label = "Test CPU";
  entry.data = d;
  data.datasets.push_back(entry);

  SUBCASE("on the base layer's page: the section, its sentences and its table")
  {
    const site::Data blocks = site::sweep_blocks(data, "MultiheadAttention");
    REQUIRE(blocks.list_value().size() == 1);
    const site::Data& block = blocks.list_value()[0];
    CHECK(test::string_at(block, "parameter") == "seq");
    CHECK(test::string_at(block, "fixed") == "d = 512, heads = 8");
    CHECK(test::string_at(block, "dataset") == "Test CPU");
    CHECK(test::string_at(block, "href") == "../datasets/test-cpu-v1.html");
    CHECK(test::string_at(block, "anchor") == "sweep-test-cpu-v1-1");
    CHECK(item(block, "sentences", 0).string_value().rfind("At batch size 1, time grows as seq^2.00 over 128–1024", 0) == 0);
    CHECK(item(block, "batches", 1).string_value() == "8");
    const site::Data& first = item(block, "rows", 0);
    CHECK(test::string_at(first, "value") == "128");
    CHECK(test::string_at(first, "layer") == "MultiheadAttention(seq=128)");
    CHECK(test::string_at(first, "href") == "../layers/MultiheadAttention_seq-128.html");
    CHECK(test::string_at(first, "flops") == "192");
    const site::Data& last_time = item(item(block, "rows", 3), "times", 1); // seq 1024, batch 8
    CHECK(test::string_at(last_time, "text") == "0.51"); // two figures: what a 2% spread supports
    CHECK(test::string_at(last_time, "iqr") == "0.51–0.52"); // at the median's two figures
  }
  SUBCASE("no section on the page of a point or of another layer")
  {
    CHECK(site::sweep_blocks(data, "MultiheadAttention(seq=128)").list_value().empty());
    CHECK(site::sweep_blocks(data, "Linear").list_value().empty());
  }
  SUBCASE("the layer page renders with its section, through the templates")
  {
    const site::Data view = test::page_of(data, "layers/MultiheadAttention.html");
    const auto templates = site::TemplateSet::load(std::string(LAYERBENCH_SOURCE_DIR) + "/templates");
    const std::string html = templates.render_page("layer", view);
    CHECK(html.find("<summary>Against seq: the time on log-log axes") != std::string::npos);
    CHECK(count_of(html, "<path class=\"fit\"") == 2);
    CHECK(html.find("<a href=\"../layers/MultiheadAttention_seq-1024.html\">MultiheadAttention(seq=1024)</a>") != std::string::npos);
  }
}
