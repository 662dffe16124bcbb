// SPDX-License-Identifier: MIT
#pragma once

// Inline SVG charts, written as text so the pages need no script and no chart library. Each chart has
// a <title> and <desc> for screen readers, labelled axes with units, and a viewBox so it shrinks to a
// narrow window. Values are plotted on log scales because layer times span four decades.

#include <optional>
#include <string>
#include <vector>

namespace layerbench::site {

// The spread around a plotted value, drawn as a whisker with caps: its ends (> 0, on the value's
// scale) and the words a pointer's tooltip reads, already formatted ("0.131 to 0.152 ms").
struct Whisker
{
  double low = 0;
  double high = 0;
  std::string text;
};

struct ChartPoint
{
  double x = 0;
  double y = 0;
  std::optional<Whisker> whisker; // none for a published median without quartiles
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
  // What a whisker spans, in words ("whiskers: 25th to 75th percentile"), printed under the axes and
  // added to the description; shown only where a point has a whisker.
  std::string whisker_label;
};

struct Bar
{
  std::string label;
  double value = 0; // > 0
  std::string value_text; // printed at the end of the bar, already formatted
  std::optional<Whisker> whisker;
};

struct BarChart
{
  std::string id;
  std::string title;
  std::string description;
  std::string value_label;
  std::vector<Bar> bars;
  std::string whisker_label; // as LineChart's
};

// A chart small enough for a table cell: one bar per category (a release) in order, from zero on a
// linear scale so that a bar twice as tall is twice the time, each with its whisker. A bar of value 0
// keeps its slot empty (not measured there).
struct SmallBarChart
{
  std::string id;
  std::string title;
  std::string description; // gives every bar's figure: the chart has no axis labels
  std::vector<Bar> bars;   // label: the tooltip's name of the bar ("torch 2.9.1")
};

// Seed 001's figure: groups of bars (one group a torch release), one bar per series (eager, torch.compile)
// in the series' colour, named by a legend. Horizontal bars from zero on a linear scale, so that a bar
// twice as long is twice the throughput. A bar of value 0 leaves its slot empty but for its value_text
// ("not measured").
struct BarGroup
{
  std::string label;     // above the group's bars, "torch 2.11.0"
  std::vector<Bar> bars; // one per series, in the chart's order; Bar::label is the bar's tooltip name
};

struct GroupedBarChart
{
  std::string id;
  std::string title;
  std::string description;
  std::string value_label;
  std::vector<std::string> series; // the legend: one colour each, in this order
  std::vector<BarGroup> groups;
  std::string whisker_label; // as LineChart's
};

// Log-log lines, one per series, with a legend.
std::string render_svg(const LineChart& chart);
// Horizontal bars on a log scale, one row per bar.
std::string render_svg(const BarChart& chart);
std::string render_svg(const SmallBarChart& chart);
// 352 px wide, a phone's width; "" without a bar of value > 0.
std::string render_svg(const GroupedBarChart& chart);

} // namespace layerbench::site
