// SPDX-License-Identifier: MIT
#include "site/roofline_chart.hpp"

#include "site/svg.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace layerbench::site {

namespace {

using namespace svg;

// Fourteen layers need fourteen colours that stay apart on white; the marker shape alternates too,
// so two neighbours in the palette differ in more than hue.
constexpr std::array<const char*, 14> k_palette = {"#1f5fa8", "#c2410c", "#15803d", "#7e22ce", "#a16207", "#be123c",
                                                   "#0e7490", "#4d7c0f", "#9d174d", "#1e3a8a", "#92400e", "#065f46",
                                                   "#6b21a8", "#374151"};

// 352 px wide, a phone's width, so the chart never shrinks its text there nor scrolls sideways.
struct Frame
{
  double left = 60;
  double top = 24;
  double width = 272;
  double height = 260;
  double right = 20;
};

std::string marker(size_t group, double x, double y, const std::string& color, const std::string& tooltip)
{
  const std::string title = tooltip.empty() ? "" : "<title>" + escape(tooltip) + "</title>";
  if (group % 2 == 0) {
    return "<circle cx=\"" + px(x) + "\" cy=\"" + px(y) + "\" r=\"4.5\" fill=\"" + color + "\">" + title + "</circle>\n";
  }
  return "<rect x=\"" + px(x - 4) + "\" y=\"" + px(y - 4) + "\" width=\"8\" height=\"8\" fill=\"" + color + "\">" + title
         + "</rect>\n";
}

std::vector<std::string> groups_of(const std::vector<RooflinePoint>& points)
{
  std::vector<std::string> groups;
  for (const auto& point : points) {
    if (std::find(groups.begin(), groups.end(), point.group) == groups.end()) {
      groups.push_back(point.group);
    }
  }
  return groups;
}

} // namespace

std::string render_svg(const RooflineChart& chart)
{
  if (chart.roofs.empty() || chart.points.empty()) {
    return "";
  }
  double x_low = HUGE_VAL, x_high = 0, y_low = HUGE_VAL, y_high = 0;
  for (const auto& roof : chart.roofs) {
    if (!roof.compute_flop_per_s) {
      continue; // a slope alone: the points set the frame
    }
    const double ridge = *roof.compute_flop_per_s / roof.memory_bytes_per_s;
    x_low = std::min(x_low, ridge / 10);
    x_high = std::max(x_high, ridge * 10);
    y_high = std::max(y_high, *roof.compute_flop_per_s);
  }
  for (const auto& point : chart.points) {
    x_low = std::min(x_low, point.intensity);
    x_high = std::max(x_high, point.intensity);
    y_low = std::min(y_low, point.flop_per_s);
    y_high = std::max(y_high, point.flop_per_s);
  }
  // A slope alone enters the frame where the points begin.
  for (const auto& roof : chart.roofs) {
    if (!roof.compute_flop_per_s) {
      y_low = std::min(y_low, x_low * roof.memory_bytes_per_s);
      y_high = std::max(y_high, x_low * roof.memory_bytes_per_s);
    }
  }
  const LogRange xs = decades(x_low, x_high);
  const LogRange ys = decades(y_low, y_high);
  const Frame frame;
  const auto x_of = [&](double x) { return frame.left + xs.position(x) * frame.width; };
  const auto y_of = [&](double y) { return frame.top + (1.0 - ys.position(y)) * frame.height; };
  const auto groups = groups_of(chart.points);
  const double legend_top = frame.top + frame.height + 56;
  const double total_width = frame.left + frame.width + frame.right;
  // A roof takes two legend rows (its name, then its figures); the layers take two columns, or one where a
  // name would not fit half the width ("MultiheadAttention(seq=1024)", a layer at the user's shapes).
  constexpr double k_legend_char_width = 7.5; // px per character of the legend's text, generously
  size_t longest = 0;
  for (const auto& group : groups) {
    longest = std::max(longest, group.size());
  }
  const size_t columns = 18 + k_legend_char_width * static_cast<double>(longest) > total_width / 2 - 8 ? 1 : 2;
  const size_t legend_rows = 2 * chart.roofs.size() + (groups.size() + columns - 1) / columns;
  const double height = legend_top + 20.0 * static_cast<double>(legend_rows) + 8;

  std::string svg = open_svg(chart.id, total_width, height, chart.title, chart.description);
  for (int decade = ys.first; decade <= ys.last; ++decade) {
    const double y = y_of(std::pow(10.0, decade));
    svg += line(frame.left, y, frame.left + frame.width, y, "grid");
    svg += text_at(frame.left - 6, y + 4, "end", tick_label(decade));
  }
  for (int decade = xs.first; decade <= xs.last; ++decade) {
    const double x = x_of(std::pow(10.0, decade));
    svg += line(x, frame.top, x, frame.top + frame.height, "grid");
    svg += text_at(x, frame.top + frame.height + 18, "middle", tick_label(decade));
  }
  svg += line(frame.left, frame.top + frame.height, frame.left + frame.width, frame.top + frame.height, "axis");
  svg += line(frame.left, frame.top, frame.left, frame.top + frame.height, "axis");
  svg += text_at(frame.left + frame.width / 2, frame.top + frame.height + 40, "middle",
                 "FLOP per byte moved (log scale)", " class=\"label\"");
  svg += text_at(16, frame.top + frame.height / 2, "middle", "FLOP/s (log scale)",
                 " class=\"label\" transform=\"rotate(-90 16 " + px(frame.top + frame.height / 2) + ")\"");

  const double x_min = std::pow(10.0, xs.first), x_max = std::pow(10.0, xs.last);
  const double y_min = std::pow(10.0, ys.first), y_max = std::pow(10.0, ys.last);
  double legend_y = legend_top;
  for (const auto& roof : chart.roofs) {
    // The slanted part starts where it enters the frame: at the left edge or at the bottom. Without a
    // compute peak it leaves the frame at the right edge or at the top.
    const double start = std::max(x_min, y_min / roof.memory_bytes_per_s);
    const double ridge = roof.compute_flop_per_s ? *roof.compute_flop_per_s / roof.memory_bytes_per_s
                                                 : std::min(x_max, y_max / roof.memory_bytes_per_s);
    const std::string dash = roof.stroke == Stroke::dashed  ? " stroke-dasharray=\"7 4\""
                             : roof.stroke == Stroke::dotted ? " stroke-dasharray=\"2 3\""
                                                              : "";
    std::string points = px(x_of(start)) + "," + px(y_of(start * roof.memory_bytes_per_s)) + " " + px(x_of(ridge)) + ","
                         + px(y_of(ridge * roof.memory_bytes_per_s));
    if (roof.compute_flop_per_s) {
      points += " " + px(x_of(x_max)) + "," + px(y_of(*roof.compute_flop_per_s));
    }
    svg += "<polyline class=\"roof\" fill=\"none\" stroke=\"#111827\" stroke-width=\"2\"" + dash + " points=\"" + points
           + "\"/>\n";
    svg += "<line x1=\"" + px(frame.left) + "\" y1=\"" + px(legend_y - 4) + "\" x2=\"" + px(frame.left + 28) + "\" y2=\""
           + px(legend_y - 4) + "\" stroke=\"#111827\" stroke-width=\"2\"" + dash + "/>\n";
    svg += text_at(frame.left + 36, legend_y, "start", roof.name);
    const std::string compute = roof.compute_flop_per_s ? util::format_rate(*roof.compute_flop_per_s, "FLOP/s") + ", " : "";
    svg += text_at(frame.left + 36, legend_y + 20, "start", compute + util::format_rate(roof.memory_bytes_per_s, "B/s"));
    legend_y += 40;
  }
  for (const auto& point : chart.points) {
    const size_t group = static_cast<size_t>(std::find(groups.begin(), groups.end(), point.group) - groups.begin());
    svg += marker(group, x_of(point.intensity), y_of(point.flop_per_s), k_palette[group % k_palette.size()], point.text);
  }
  for (size_t i = 0; i < groups.size(); ++i) {
    const double x = i % columns == 0 ? 8 : total_width / 2;
    const double y = legend_y + 20.0 * static_cast<double>(i / columns);
    svg += marker(i, x + 6, y - 4, k_palette[i % k_palette.size()], "");
    svg += text_at(x + 18, y, "start", groups[i]);
  }
  return svg + "</svg>";
}

} // namespace layerbench::site
