// SPDX-License-Identifier: MIT
#include "site/chart.hpp"
#include "test_text.hpp"

#include "util/error.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>

using layerbench::site::BarChart;
using layerbench::site::LineChart;
using layerbench::site::render_svg;
using layerbench::site::Stroke;
using layerbench::site::Whisker;

namespace {

// The number in `attribute` of the nth (from 0) element that starts with `opening`.
double attribute_of(const std::string& svg, const std::string& opening, size_t nth, const std::string& attribute)
{
  size_t at = std::string::npos;
  for (size_t i = 0; i <= nth; ++i) {
    at = svg.find(opening, at + 1);
  }
  const size_t start = svg.find(attribute + "=\"", at) + attribute.size() + 2;
  return std::stod(svg.substr(start, svg.find('"', start) - start));
}

} // namespace

TEST_CASE("site::render_svg")
{
  SUBCASE("a line chart has a title, a description, labelled log axes and one point per value")
  {
    LineChart chart{"c", "Time <ms>", "desc & more", "batch size", "ms per batch", {{"run-v1", {{1, 0.02}, {8, 0.05}, {32, 0.14}, {128, 0.5}}}}};
    const std::string svg = render_svg(chart);
    CHECK(svg.find("<title id=\"c-title\">Time &lt;ms&gt;: run-v1</title>") != std::string::npos);
    CHECK(svg.find("<desc id=\"c-desc\">desc &amp; more</desc>") != std::string::npos);
    CHECK(svg.find("aria-labelledby=\"c-title c-desc\"") != std::string::npos);
    CHECK(layerbench::test::count_of(svg, "<circle") == 4);
    // Decades from 0.01 to 1 cover the values; batch sizes label the x axis.
    CHECK(svg.find(">0.01</text>") != std::string::npos);
    CHECK(svg.find(">1</text>") != std::string::npos);
    CHECK(svg.find(">128</text>") != std::string::npos);
    CHECK(svg.find(">ms per batch</text>") != std::string::npos);
    CHECK(svg.find(">run-v1</text>") != std::string::npos);
  }
  SUBCASE("large decades are labelled with SI prefixes, so they fit the margin")
  {
    LineChart chart{"t", "Throughput", "d", "batch size", "samples/s", {{"run-v1", {{1, 2e3}, {128, 3e7}}}}};
    const std::string svg = render_svg(chart);
    CHECK(svg.find(">1000</text>") != std::string::npos);
    CHECK(svg.find(">10k</text>") != std::string::npos);
    CHECK(svg.find(">1M</text>") != std::string::npos);
    CHECK(svg.find(">100M</text>") != std::string::npos);
    CHECK(svg.find(">10000000</text>") == std::string::npos);
  }
  SUBCASE("a reference series is drawn dashed, line and legend")
  {
    LineChart chart{"c", "t", "d", "x", "y", {{"run-v1", {{1, 0.02}, {8, 0.05}}}, {"ref-v1 (reference)", {{1, 0.03}, {8, 0.06}}, Stroke::dashed}}};
    const std::string svg = render_svg(chart);
    CHECK(layerbench::test::count_of(svg, "stroke-dasharray") == 2);
    CHECK(svg.find(">ref-v1 (reference)</text>") != std::string::npos);
  }
  SUBCASE("every line of a chart has its own colour, and a ninth line is refused rather than repeating one")
  {
    LineChart chart{"c", "t", "d", "x", "y", {}};
    for (int i = 0; i < 8; ++i) {
      chart.series.push_back({"run " + std::to_string(i), {{1, 0.02 + i}, {8, 0.05 + i}}});
    }
    const std::string svg = render_svg(chart);
    std::set<std::string> colours;
    for (size_t at = svg.find("<polyline class=\"series\""); at != std::string::npos;
         at = svg.find("<polyline class=\"series\"", at + 1)) {
      const size_t start = svg.find("stroke=\"", at) + 8;
      colours.insert(svg.substr(start, svg.find('"', start) - start));
    }
    CHECK(colours.size() == 8);
    chart.series.push_back({"run 8", {{1, 9.0}, {8, 9.5}}});
    CHECK_THROWS_AS(render_svg(chart), layerbench::Error);
  }
  SUBCASE("small multiples: one panel per series, named by it, with the others faint on the same axes")
  {
    LineChart chart{"c", "t", "d", "x", "y", {{"Xeon", {{1, 0.5}, {8, 4.0}}}, {"EPYC", {{1, 0.9}, {8, 6.5}}},
                                             {"A100 reference", {{1, 0.02}, {8, 0.06}}, Stroke::dashed}}};
    const std::string html = render_svg(chart);
    CHECK(layerbench::test::count_of(html, "<svg class=\"chart\"") == 3);
    CHECK(layerbench::test::count_of(html, "<polyline class=\"series\"") == 3);
    CHECK(layerbench::test::count_of(html, "<polyline class=\"context\"") == 6);
    CHECK(html.find("<title id=\"c-2-title\">t: EPYC</title>") != std::string::npos);
    CHECK(html.find(">A100 reference</text>") != std::string::npos);
    // Every panel has the same axes: the decades of all three series.
    CHECK(layerbench::test::count_of(html, ">0.01</text>") == 3);
    CHECK(layerbench::test::count_of(html, ">10</text>") == 3);
  }
  SUBCASE("every chart is drawn at its own size, narrow enough for a 390 px phone")
  {
    const auto width_of = [](const std::string& svg) {
      const size_t start = svg.find("width=\"") + 7;
      return std::stod(svg.substr(start, svg.find('"', start) - start));
    };
    LineChart line{"c", "t", "d", "x", "y", {{"run", {{1, 0.02}, {128, 0.5}}}}};
    BarChart bars{"b", "Bars", "All layers", "ms", {{"TransformerEncoder", 506, "506 ms"}, {"Dropout", 0.228, "0.228 ms"}}};
    CHECK(width_of(render_svg(line)) <= 358);
    CHECK(width_of(render_svg(bars)) <= 358);
  }
  SUBCASE("a bar chart has one bar per value, longer for larger values")
  {
    BarChart chart{"b", "Bars", "All layers", "ms", {{"Dropout", 0.005, "0.005 ms"}, {"TransformerEncoder", 16.3, "16.3 ms"}}};
    const std::string svg = render_svg(chart);
    CHECK(layerbench::test::count_of(svg, "<rect class=\"bar\"") == 2);
    CHECK(svg.find(">0.001</text>") != std::string::npos);
    CHECK(svg.find(">100</text>") != std::string::npos);
    CHECK(attribute_of(svg, "<rect class=\"bar\"", 0, "width") < attribute_of(svg, "<rect class=\"bar\"", 1, "width"));
  }
  SUBCASE("a point with a whisker draws it from its low to its high end, with its tooltip and a legend")
  {
    LineChart chart{"c", "t", "Medians.", "x", "y", {{"run", {{1, 0.5}, {8, 4.0}}}}};
    chart.series[0].points[0].whisker = Whisker{0.3, 0.9, "0.3 to 0.9 ms"};
    chart.whisker_label = "Whiskers: 25th to 75th percentile";
    const std::string svg = render_svg(chart);
    CHECK(layerbench::test::count_of(svg, "<path class=\"whisker\"") == 1);
    CHECK(svg.find("<title>0.3 to 0.9 ms</title>") != std::string::npos);
    CHECK(svg.find(">Whiskers: 25th to 75th percentile</text>") != std::string::npos);
    CHECK(svg.find("<desc id=\"c-desc\">Medians. Whiskers: 25th to 75th percentile.</desc>") != std::string::npos);
    // The whisker runs along the point's vertical line: one x for the stem, the high end above the low.
    const size_t d = svg.find(" d=\"", svg.find("<path class=\"whisker\"")) + 4;
    const std::string path = svg.substr(d, svg.find('"', d) - d);
    const size_t stem = path.find('M', 1);
    const size_t comma = path.find(',', stem);
    const size_t up = path.find('V', comma);
    const double low_y = std::stod(path.substr(comma + 1, up - comma - 1));
    const double high_y = std::stod(path.substr(up + 1, path.find('M', up) - up - 1));
    CHECK(high_y < low_y);
  }
  SUBCASE("a whisker's ends widen the axis, and a chart without whiskers names none")
  {
    LineChart plain{"c", "t", "d", "x", "y", {{"run", {{1, 0.5}, {8, 4.0}}}}};
    plain.whisker_label = "Whiskers: 25th to 75th percentile";
    const std::string without = render_svg(plain);
    CHECK(without.find("Whiskers") == std::string::npos);
    CHECK(without.find(">0.01</text>") == std::string::npos);
    plain.series[0].points[0].whisker = Whisker{0.05, 0.6, "wide"};
    CHECK(render_svg(plain).find(">0.01</text>") != std::string::npos);
  }
  SUBCASE("a bar's whisker is horizontal, and its value is printed past the whisker's end")
  {
    BarChart chart{"b", "Bars", "All layers", "ms", {{"Conv2d", 1.0, "1 ms", Whisker{0.5, 9.0, "0.5 to 9 ms"}}, {"ReLU", 0.1, "0.1 ms"}}};
    chart.whisker_label = "Whiskers: 25th to 75th percentile";
    const std::string svg = render_svg(chart);
    CHECK(layerbench::test::count_of(svg, "<path class=\"whisker\"") == 1);
    CHECK(svg.find("<title>0.5 to 9 ms</title>") != std::string::npos);
    CHECK(svg.find(">Whiskers: 25th to 75th percentile</text>") != std::string::npos);
    const size_t bar = svg.find("<rect class=\"bar\"");
    const size_t start = svg.find("width=\"", bar) + 7;
    const double bar_end = 8 + std::stod(svg.substr(start, svg.find('"', start) - start));
    const size_t text = svg.find(">1 ms</text>");
    const size_t x = svg.rfind("<text x=\"", text) + 9;
    CHECK(std::stod(svg.substr(x, svg.find('"', x) - x)) > bar_end + 20);
  }
  SUBCASE("a small bar chart keeps a slot per category, bars from zero, an empty slot where none was measured")
  {
    layerbench::site::SmallBarChart chart{"s", "Linear on each release", "torch 1: 1 ms, torch 2: —, torch 3: 2 ms.",
                                          {{"torch 1", 1.0, "1 ms", Whisker{0.9, 1.1, "q"}}, {"torch 2", 0, "not measured"},
                                           {"torch 3", 2.0, "2 ms"}}};
    const std::string svg = render_svg(chart);
    CHECK(svg.find("<svg class=\"spark\"") == 0);
    CHECK(svg.find("<desc id=\"s-desc\">torch 1: 1 ms, torch 2: —, torch 3: 2 ms.</desc>") != std::string::npos);
    CHECK(layerbench::test::count_of(svg, "<rect") == 2);
    CHECK(layerbench::test::count_of(svg, "<path class=\"whisker\"") == 1);
    CHECK(svg.find("<title>torch 1: 1 ms; q</title>") != std::string::npos);
    // Linear from zero: the bar of 2 ms is twice as tall as the bar of 1 ms.
    CHECK(attribute_of(svg, "<rect", 1, "height") == doctest::Approx(2 * attribute_of(svg, "<rect", 0, "height")).epsilon(0.02));
    CHECK(render_svg(layerbench::site::SmallBarChart{"e", "t", "d", {{"torch 1", 0, "not measured"}}}) == "");
  }
  SUBCASE("no data gives no chart")
  {
    CHECK(render_svg(LineChart{}) == "");
    CHECK(render_svg(BarChart{}) == "");
  }
}
