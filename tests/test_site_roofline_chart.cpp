// SPDX-License-Identifier: MIT
#include "site/roofline_chart.hpp"
#include "test_text.hpp"

#include <doctest/doctest.h>

using namespace layerbench::site;

namespace {

RooflineChart chart()
{
  RooflineChart chart;
  chart.id = "r";
  chart.title = "Roofline <test>";
  chart.description = "points & roofs";
  chart.roofs.push_back({"measured fp32", 100e9, 10e9, Stroke::solid});
  chart.points = {{"Linear", "Linear, batch 1: 0.5 FLOP/byte", 0.5, 2e9},
                  {"Linear", "Linear, batch 128", 60, 80e9},
                  {"LayerNorm", "LayerNorm, batch 1", 0.8, 1e9}};
  return chart;
}

} // namespace

TEST_CASE("site::render_svg(RooflineChart)")
{
  SUBCASE("accessible: role img with a title and a description, labelled log axes with units")
  {
    const std::string svg = render_svg(chart());
    CHECK(svg.find("role=\"img\" aria-labelledby=\"r-title r-desc\"") != std::string::npos);
    CHECK(svg.find("<title id=\"r-title\">Roofline &lt;test&gt;</title>") != std::string::npos);
    CHECK(svg.find("<desc id=\"r-desc\">points &amp; roofs</desc>") != std::string::npos);
    CHECK(svg.find(">FLOP per byte moved (log scale)</text>") != std::string::npos);
    CHECK(svg.find(">FLOP/s (log scale)</text>") != std::string::npos);
  }
  SUBCASE("one marker per cell with its figures, one legend entry per layer, a labelled roof")
  {
    const std::string svg = render_svg(chart());
    CHECK(layerbench::test::count_of(svg, "<title>") == 3);
    CHECK(svg.find("<title>Linear, batch 1: 0.5 FLOP/byte</title>") != std::string::npos);
    CHECK(layerbench::test::count_of(svg, ">Linear</text>") == 1);
    CHECK(layerbench::test::count_of(svg, ">LayerNorm</text>") == 1);
    CHECK(layerbench::test::count_of(svg, "class=\"roof\"") == 1);
    CHECK(svg.find(">measured fp32</text>") != std::string::npos);
    CHECK(svg.find(">100 GFLOP/s, 10.0 GB/s</text>") != std::string::npos); // the roof's figures, a line of their own
    // Decades around the data and the ridge at 10 FLOP/byte: 0.1 to 100 across, 1G to 100G up.
    CHECK(svg.find(">0.1</text>") != std::string::npos);
    CHECK(svg.find(">100</text>") != std::string::npos);
    CHECK(svg.find(">1G</text>") != std::string::npos);
    CHECK(svg.find(">100G</text>") != std::string::npos);
  }
  SUBCASE("the roof bends at the ridge: slanted up to it, flat after")
  {
    // Frame 60..332 across 3 decades (0.1..100): the ridge at 10 sits at 60 + 2/3*272 = 241.3;
    // the peak 100G is the top decade, y = 24.
    const std::string svg = render_svg(chart());
    CHECK(svg.find(" 241.3,24.0 332.0,24.0\"/>") != std::string::npos);
  }
  SUBCASE("a datasheet roof is dashed beside the measured one")
  {
    auto both = chart();
    both.roofs.push_back({"datasheet fp32", 1e12, 20e9, Stroke::dashed});
    const std::string svg = render_svg(both);
    CHECK(layerbench::test::count_of(svg, "class=\"roof\"") == 2);
    CHECK(layerbench::test::count_of(svg, "stroke-dasharray") == 2); // the roof and its legend line
  }
  SUBCASE("drawn at its own size, narrow enough for a 390 px phone")
  {
    const std::string svg = render_svg(chart());
    CHECK(svg.find("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"352.0\"") != std::string::npos);
  }
  SUBCASE("nothing to draw without a roof or a point")
  {
    auto empty = chart();
    empty.points.clear();
    CHECK(render_svg(empty).empty());
    auto roofless = chart();
    roofless.roofs.clear();
    CHECK(render_svg(roofless).empty());
  }
}
