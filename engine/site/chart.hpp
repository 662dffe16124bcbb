// SPDX-License-Identifier: MIT
#pragma once

// Inline SVG charts, written as text so the pages need no script and no chart library. Each chart has
// a <title> and <desc> for screen readers, labelled axes with units, and a viewBox so it shrinks to a
// narrow window. Values are plotted on log scales because layer times span four decades.

#include <string>
#include <vector>

namespace layerbench::site {

struct ChartPoint
{
  double x = 0;
  double y = 0;
};

// A transcribed reference is drawn dashed, so it never passes for a measurement.
enum class Stroke { solid, dashed, dotted };

struct ChartSeries
{
  std::string name;
  std::vector<ChartPoint> points; // x ascending; y > 0
  Stroke stroke = Stroke::solid;
};

struct LineChart
{
  std::string id; // unique on the page, prefixes the ids of <title> and <desc>
  std::string title;
  std::string description;
  std::string x_label;
  std::string y_label;
  std::vector<ChartSeries> series;
};

struct Bar
{
  std::string label;
  double value = 0; // > 0
  std::string value_text; // printed at the end of the bar, already formatted
};

struct BarChart
{
  std::string id;
  std::string title;
  std::string description;
  std::string value_label;
  std::vector<Bar> bars;
};

// Log-log lines, one per series, with a legend.
std::string render_svg(const LineChart& chart);
// Horizontal bars on a log scale, one row per bar.
std::string render_svg(const BarChart& chart);

} // namespace layerbench::site
