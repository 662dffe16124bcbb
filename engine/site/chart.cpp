// SPDX-License-Identifier: MIT
#include "site/chart.hpp"

#include "site/svg.hpp"

#include "util/error.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace layerbench::site {

namespace {

using util::format_fixed;
using namespace svg;

// Distinct hues, each dark enough for text contrast on white; a chart never reuses one (render_svg throws).
constexpr std::array<const char*, 8> k_colors = {"#1f5fa8", "#c2410c", "#15803d", "#7e22ce",
                                                 "#a16207", "#be123c", "#0e7490", "#4d4d4d"};

struct Frame
{
  double left = 64;
  double top = 16;
  double width = 400;
  double height = 240;
};

} // namespace

std::string render_svg(const LineChart& chart)
{
  std::set<double> xs;
  double y_low = HUGE_VAL;
  double y_high = 0;
  for (const auto& series : chart.series) {
    for (const auto& point : series.points) {
      xs.insert(point.x);
      y_low = std::min(y_low, point.y);
      y_high = std::max(y_high, point.y);
    }
  }
  if (xs.empty()) {
    return "";
  }
  if (chart.series.size() > k_colors.size()) {
    // Two lines of one colour cannot be told apart: draw small multiples instead.
    throw Error("chart \"" + chart.title + "\": " + std::to_string(chart.series.size()) + " lines, but only "
                + std::to_string(k_colors.size()) + " distinct colours");
  }
  const Frame frame;
  const double legend_top = frame.top + frame.height + 52;
  const double total_height = legend_top + 20.0 * static_cast<double>(chart.series.size()) + 8;
  const LogRange y_range = decades(y_low, y_high);
  const auto x_of = [&](double x) {
    const double low = std::log10(*xs.begin());
    const double high = xs.size() > 1 ? std::log10(*xs.rbegin()) : low + 1;
    return frame.left + (std::log10(x) - low) / (high - low) * frame.width;
  };
  const auto y_of = [&](double y) { return frame.top + (1.0 - y_range.position(y)) * frame.height; };

  std::string svg = open_svg(chart.id, frame.left + frame.width + 24, total_height, chart.title, chart.description);
  for (int decade = y_range.first; decade <= y_range.last; ++decade) {
    const double y = y_of(std::pow(10.0, decade));
    svg += line(frame.left, y, frame.left + frame.width, y, "grid");
    svg += text_at(frame.left - 6, y + 4, "end", tick_label(decade));
  }
  for (double x : xs) {
    svg += line(x_of(x), frame.top, x_of(x), frame.top + frame.height, "grid");
    svg += text_at(x_of(x), frame.top + frame.height + 18, "middle", format_fixed(x, 0));
  }
  svg += line(frame.left, frame.top + frame.height, frame.left + frame.width, frame.top + frame.height, "axis");
  svg += line(frame.left, frame.top, frame.left, frame.top + frame.height, "axis");
  svg += text_at(frame.left + frame.width / 2, frame.top + frame.height + 40, "middle", chart.x_label, " class=\"label\"");
  svg += text_at(16, frame.top + frame.height / 2, "middle", chart.y_label,
                 " class=\"label\" transform=\"rotate(-90 16 " + px(frame.top + frame.height / 2) + ")\"");
  for (size_t i = 0; i < chart.series.size(); ++i) {
    const auto& series = chart.series[i];
    const std::string color = k_colors[i];
    std::string points;
    for (const auto& point : series.points) {
      points += (points.empty() ? "" : " ") + px(x_of(point.x)) + "," + px(y_of(point.y));
    }
    const std::string dash = series.stroke == Stroke::dashed ? " stroke-dasharray=\"6 4\"" : "";
    svg += "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\"" + dash + " points=\"" + points + "\"/>\n";
    for (const auto& point : series.points) {
      svg += "<circle cx=\"" + px(x_of(point.x)) + "\" cy=\"" + px(y_of(point.y)) + "\" r=\"3.5\" fill=\"" + color + "\"/>\n";
    }
    const double y = legend_top + 20.0 * static_cast<double>(i);
    svg += "<line x1=\"" + px(frame.left) + "\" y1=\"" + px(y - 4) + "\" x2=\"" + px(frame.left + 24) + "\" y2=\"" + px(y - 4)
           + "\" stroke=\"" + color + "\" stroke-width=\"3\"" + dash + "/>\n";
    svg += text_at(frame.left + 32, y, "start", series.name);
  }
  return svg + "</svg>";
}

std::string render_svg(const BarChart& chart)
{
  if (chart.bars.empty()) {
    return "";
  }
  double low = HUGE_VAL;
  double high = 0;
  for (const auto& bar : chart.bars) {
    low = std::min(low, bar.value);
    high = std::max(high, bar.value);
  }
  const LogRange range = decades(low, high);
  const double label_width = 150;
  const double bar_width = 300;
  const double row = 22;
  const double top = 28;
  const double height = top + row * static_cast<double>(chart.bars.size()) + 40;
  const auto x_of = [&](double value) { return label_width + range.position(value) * bar_width; };

  std::string svg = open_svg(chart.id, label_width + bar_width + 90, height, chart.title, chart.description);
  const double bottom = top + row * static_cast<double>(chart.bars.size());
  for (int decade = range.first; decade <= range.last; ++decade) {
    const double x = x_of(std::pow(10.0, decade));
    svg += line(x, top - 6, x, bottom, "grid");
    svg += text_at(x, top - 10, "middle", tick_label(decade));
  }
  for (size_t i = 0; i < chart.bars.size(); ++i) {
    const auto& bar = chart.bars[i];
    const double y = top + row * static_cast<double>(i);
    const double length = std::max(2.0, x_of(bar.value) - label_width);
    svg += text_at(label_width - 8, y + 15, "end", bar.label);
    svg += "<rect class=\"bar\" x=\"" + px(label_width) + "\" y=\"" + px(y + 4) + "\" width=\"" + px(length)
           + "\" height=\"14\"/>\n";
    svg += text_at(label_width + length + 6, y + 15, "start", bar.value_text);
  }
  svg += line(label_width, top - 6, label_width, bottom, "axis");
  svg += text_at(label_width + bar_width / 2, bottom + 28, "middle", chart.value_label, " class=\"label\"");
  return svg + "</svg>";
}

} // namespace layerbench::site
