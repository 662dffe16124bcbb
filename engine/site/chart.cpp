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

// The other series, faint behind a panel's own, so a panel compares without a line hiding another.
const char* const k_context_color = "#c4c9d1";

// One panel of a line chart, in CSS pixels (268 wide): two fit beside each other in the layer page's
// answer at 1280 px, and a 390 px phone shows one with its text at its full 13 px.
struct Panel
{
  double left = 60;
  double top = 30;
  double width = 190;
  double height = 170;
  double right = 18;
  double bottom = 48;
};

struct LineScales
{
  std::set<double> xs;
  LogRange y_range;
  bool whiskers = false; // some point of the chart has one: each panel says what they span
};

// A whisker from one end to the other, with a cap across each end; its <title> is a pointer's tooltip.
std::string whisker_svg(double x1, double y1, double x2, double y2, const std::string& color, const std::string& text)
{
  const double cap = 4;
  std::string d;
  if (x1 == x2) {
    d = "M" + px(x1 - cap) + "," + px(y1) + "H" + px(x1 + cap) + "M" + px(x1) + "," + px(y1) + "V" + px(y2) + "M"
        + px(x1 - cap) + "," + px(y2) + "H" + px(x1 + cap);
  } else {
    d = "M" + px(x1) + "," + px(y1 - cap) + "V" + px(y1 + cap) + "M" + px(x1) + "," + px(y1) + "H" + px(x2) + "M"
        + px(x2) + "," + px(y2 - cap) + "V" + px(y2 + cap);
  }
  return "<path class=\"whisker\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"1.5\" d=\"" + d + "\"><title>"
         + escape(text) + "</title></path>\n";
}

// A whisker's ends widen the range the axis must cover.
void widen(double& low, double& high, double value, const std::optional<Whisker>& whisker)
{
  low = std::min(low, whisker ? std::min(whisker->low, value) : value);
  high = std::max(high, whisker ? std::max(whisker->high, value) : value);
}

std::string described(const std::string& description, const std::string& whisker_label, bool whiskers)
{
  return whiskers && !whisker_label.empty() ? description + " " + whisker_label + "." : description;
}

std::string dash_of(Stroke stroke) { return stroke == Stroke::dashed ? " stroke-dasharray=\"6 4\"" : ""; }

std::string panel_svg(const LineChart& chart, size_t index, const LineScales& scales)
{
  Panel frame;
  if (scales.whiskers) {
    frame.bottom += 18;
  }
  const auto& xs = scales.xs;
  const auto x_of = [&](double x) {
    const double low = std::log10(*xs.begin());
    const double high = xs.size() > 1 ? std::log10(*xs.rbegin()) : low + 1;
    return frame.left + (std::log10(x) - low) / (high - low) * frame.width;
  };
  const auto y_of = [&](double y) { return frame.top + (1.0 - scales.y_range.position(y)) * frame.height; };
  const auto points_of = [&](const ChartSeries& series) {
    std::string points;
    for (const auto& point : series.points) {
      points += (points.empty() ? "" : " ") + px(x_of(point.x)) + "," + px(y_of(point.y));
    }
    return points;
  };
  const ChartSeries& own = chart.series[index];
  const std::string id = chart.series.size() == 1 ? chart.id : chart.id + "-" + std::to_string(index + 1);
  std::string svg = open_svg(id, frame.left + frame.width + frame.right, frame.top + frame.height + frame.bottom,
                             chart.title + ": " + own.name, described(chart.description, chart.whisker_label, scales.whiskers));
  svg += text_at(frame.left, 16, "start", own.name, " class=\"panel-title\" fill=\"" + std::string(k_colors[index]) + "\"");
  for (int decade = scales.y_range.first; decade <= scales.y_range.last; ++decade) {
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
  if (scales.whiskers) {
    // Centred on the whole panel, not the plot: the sentence is wider than the 190 px plot.
    svg += text_at((frame.left + frame.width + frame.right) / 2, frame.top + frame.height + 58, "middle", chart.whisker_label,
                   " class=\"label\"");
  }
  for (size_t other = 0; other < chart.series.size(); ++other) {
    if (other != index) {
      svg += "<polyline class=\"context\" fill=\"none\" stroke=\"" + std::string(k_context_color) + "\" stroke-width=\"1.5\""
             + dash_of(chart.series[other].stroke) + " points=\"" + points_of(chart.series[other]) + "\"/>\n";
    }
  }
  const std::string color = k_colors[index];
  svg += "<polyline class=\"series\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2.5\"" + dash_of(own.stroke)
         + " points=\"" + points_of(own) + "\"/>\n";
  for (const auto& point : own.points) {
    if (point.whisker) {
      svg += whisker_svg(x_of(point.x), y_of(point.whisker->low), x_of(point.x), y_of(point.whisker->high), color,
                         point.whisker->text);
    }
    svg += "<circle cx=\"" + px(x_of(point.x)) + "\" cy=\"" + px(y_of(point.y)) + "\" r=\"3.5\" fill=\"" + color + "\"/>\n";
  }
  return svg + "</svg>\n";
}

// A step of 1, 2 or 5 times a power of ten that cuts [0, high] into two to four spans.
double tick_step(double high)
{
  const double raw = high / 4;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double factor : {1.0, 2.0, 5.0}) {
    if (raw <= factor * power) {
      return factor * power;
    }
  }
  return 10 * power;
}

// As many decimals as the step needs: "0.15" on a step of 0.05, "12,000" on one of 2,000.
std::string linear_tick_label(double value, double step)
{
  if (step >= 1) {
    return util::format_thousands(static_cast<int64_t>(std::llround(value)));
  }
  return format_fixed(value, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
}

// The legend's entries in rows across the chart: a swatch of the series' colour, then its name.
// Returns the rows' height. A character is taken as 7.5 px of 13 px text.
double legend_svg(std::string& svg, const std::vector<std::string>& series, double left, double width)
{
  double x = left;
  double y = 4;
  for (size_t i = 0; i < series.size(); ++i) {
    const double item = 16 + 7.5 * static_cast<double>(series[i].size()) + 14;
    if (x > left && x + item > left + width) {
      x = left;
      y += 20;
    }
    svg += "<rect x=\"" + px(x) + "\" y=\"" + px(y + 2) + "\" width=\"12\" height=\"12\" fill=\"" + k_colors[i] + "\"/>\n";
    svg += text_at(x + 16, y + 13, "start", series[i]);
    x += item;
  }
  return y + 20;
}

} // namespace

std::string render_svg(const LineChart& chart)
{
  LineScales scales;
  double y_low = HUGE_VAL;
  double y_high = 0;
  for (const auto& series : chart.series) {
    for (const auto& point : series.points) {
      scales.xs.insert(point.x);
      widen(y_low, y_high, point.y, point.whisker);
      scales.whiskers = scales.whiskers || point.whisker.has_value();
    }
  }
  if (scales.xs.empty()) {
    return "";
  }
  if (chart.series.size() > k_colors.size()) {
    // Each panel's colour names its series across the page's charts; a ninth would repeat one.
    throw Error("chart \"" + chart.title + "\": " + std::to_string(chart.series.size()) + " series, but only "
                + std::to_string(k_colors.size()) + " distinct colours");
  }
  scales.y_range = decades(y_low, y_high);
  std::string html = "<div class=\"multiples\">\n";
  for (size_t i = 0; i < chart.series.size(); ++i) {
    html += panel_svg(chart, i, scales);
  }
  return html + "</div>";
}

std::string render_svg(const BarChart& chart)
{
  if (chart.bars.empty()) {
    return "";
  }
  double low = HUGE_VAL;
  double high = 0;
  for (const auto& bar : chart.bars) {
    widen(low, high, bar.value, bar.whisker);
  }
  const bool whiskers = std::any_of(chart.bars.begin(), chart.bars.end(), [](const Bar& bar) { return bar.whisker.has_value(); });
  const LogRange range = decades(low, high);
  // Each label sits above its bar, so a long layer name never narrows the bars: the chart is 352 px
  // wide, a phone's width, with its text at its full size.
  const double left = 8;
  const double bar_width = 264;
  const double value_width = 80;
  const double row = 38;
  const double top = 28;
  const double bottom = top + row * static_cast<double>(chart.bars.size());
  const auto x_of = [&](double value) { return left + range.position(value) * bar_width; };

  std::string svg = open_svg(chart.id, left + bar_width + value_width, bottom + (whiskers ? 58 : 40), chart.title,
                             described(chart.description, chart.whisker_label, whiskers));
  for (int decade = range.first; decade <= range.last; ++decade) {
    const double x = x_of(std::pow(10.0, decade));
    svg += line(x, top - 6, x, bottom, "grid");
    svg += text_at(x, top - 10, decade == range.first ? "start" : "middle", tick_label(decade));
  }
  for (size_t i = 0; i < chart.bars.size(); ++i) {
    const auto& bar = chart.bars[i];
    const double y = top + row * static_cast<double>(i);
    const double length = std::max(2.0, x_of(bar.value) - left);
    svg += text_at(left + 4, y + 16, "start", bar.label);
    svg += "<rect class=\"bar\" x=\"" + px(left) + "\" y=\"" + px(y + 21) + "\" width=\"" + px(length)
           + "\" height=\"12\"/>\n";
    double text_x = left + length + 6;
    if (bar.whisker) {
      svg += whisker_svg(x_of(bar.whisker->low), y + 27, x_of(bar.whisker->high), y + 27, "#1a1a1a", bar.whisker->text);
      text_x = std::max(text_x, x_of(bar.whisker->high) + 6);
    }
    svg += text_at(text_x, y + 32, "start", bar.value_text);
  }
  svg += line(left, top - 6, left, bottom, "axis");
  svg += text_at(left + bar_width / 2, bottom + 28, "middle", chart.value_label, " class=\"label\"");
  if (whiskers) {
    svg += text_at(left + bar_width / 2, bottom + 48, "middle", chart.whisker_label, " class=\"label\"");
  }
  return svg + "</svg>";
}

std::string render_svg(const SmallBarChart& chart)
{
  double high = 0;
  for (const auto& bar : chart.bars) {
    high = std::max(high, bar.whisker ? std::max(bar.whisker->high, bar.value) : bar.value);
  }
  if (!(high > 0)) {
    return "";
  }
  // 14 px a release and 36 px tall: the cell grows no taller than its row of text does by much.
  const double slot = 14;
  const double bar_width = 8;
  const double top = 4;
  const double plot = 30;
  const double width = slot * static_cast<double>(chart.bars.size()) + 4;
  const auto y_of = [&](double value) { return top + plot * (1.0 - value / high); };
  std::string svg = open_svg(chart.id, width, top + plot + 2, chart.title, chart.description, "spark");
  // The baseline drawn in place: the stylesheet's axis class belongs to the full-size charts.
  svg += "<line x1=\"0\" y1=\"" + px(top + plot) + "\" x2=\"" + px(width) + "\" y2=\"" + px(top + plot)
         + "\" stroke=\"#4d4d4d\" stroke-width=\"1\"/>\n";
  for (size_t i = 0; i < chart.bars.size(); ++i) {
    const auto& bar = chart.bars[i];
    if (!(bar.value > 0)) {
      continue;
    }
    const double x = 2 + slot * static_cast<double>(i) + (slot - bar_width) / 2;
    const std::string tip = bar.label + ": " + bar.value_text + (bar.whisker ? "; " + bar.whisker->text : "");
    svg += "<rect x=\"" + px(x) + "\" y=\"" + px(y_of(bar.value)) + "\" width=\"" + px(bar_width) + "\" height=\""
           + px(top + plot - y_of(bar.value)) + "\" fill=\"" + k_colors[0] + "\"><title>" + escape(tip) + "</title></rect>\n";
    if (bar.whisker) {
      const double middle = x + bar_width / 2;
      svg += whisker_svg(middle, y_of(bar.whisker->low), middle, y_of(bar.whisker->high), "#1a1a1a", tip);
    }
  }
  return svg + "</svg>";
}

std::string render_svg(const GroupedBarChart& chart)
{
  if (chart.series.size() > k_colors.size()) {
    throw Error("chart \"" + chart.title + "\": " + std::to_string(chart.series.size()) + " series, but only "
                + std::to_string(k_colors.size()) + " distinct colours");
  }
  double high = 0;
  bool whiskers = false;
  for (const auto& group : chart.groups) {
    for (const auto& bar : group.bars) {
      high = std::max(high, bar.whisker ? std::max(bar.whisker->high, bar.value) : bar.value);
      whiskers = whiskers || (bar.value > 0 && bar.whisker.has_value());
    }
  }
  if (!(high > 0)) {
    return "";
  }
  const double step = tick_step(high);
  const double axis_high = std::ceil(high / step - 1e-9) * step;
  // 352 px wide, a phone's width: each group's label sits above its bars, so a long label never
  // narrows them, and the value after the longest bar still fits.
  const double left = 8;
  const double plot_width = 236;
  const double value_width = 108;
  const double pitch = 18; // one bar of 12 px and its gap
  const auto x_of = [&](double value) { return left + value / axis_high * plot_width; };

  std::string body;
  const double legend_bottom = legend_svg(body, chart.series, left, plot_width + value_width);
  const double ticks_y = legend_bottom + 14;
  double y = ticks_y + 8;
  for (const auto& group : chart.groups) {
    body += text_at(left + 4, y + 14, "start", group.label, " class=\"group\"");
    for (size_t i = 0; i < group.bars.size() && i < chart.series.size(); ++i) {
      const auto& bar = group.bars[i];
      const double top = y + 20 + pitch * static_cast<double>(i);
      if (!(bar.value > 0)) {
        body += text_at(left + 4, top + 11, "start", bar.value_text, " class=\"label\"");
        continue;
      }
      const std::string tip = bar.label + ": " + bar.value_text + (bar.whisker ? "; " + bar.whisker->text : "");
      const double length = std::max(2.0, x_of(bar.value) - left);
      body += "<rect x=\"" + px(left) + "\" y=\"" + px(top) + "\" width=\"" + px(length) + "\" height=\"12\" fill=\""
              + k_colors[i] + "\"><title>" + escape(tip) + "</title></rect>\n";
      double text_x = left + length + 6;
      if (bar.whisker) {
        body += whisker_svg(x_of(bar.whisker->low), top + 6, x_of(bar.whisker->high), top + 6, "#1a1a1a", tip);
        text_x = std::max(text_x, x_of(bar.whisker->high) + 6);
      }
      body += text_at(text_x, top + 11, "start", bar.value_text);
    }
    y += 20 + pitch * static_cast<double>(chart.series.size()) + 8;
  }
  const double bottom = y;
  std::string svg = open_svg(chart.id, left + plot_width + value_width, bottom + (whiskers ? 48 : 28), chart.title,
                             described(chart.description, chart.whisker_label, whiskers));
  const int ticks = static_cast<int>(std::llround(axis_high / step));
  for (int k = 0; k <= ticks; ++k) {
    const double tick = step * k;
    const double x = x_of(tick);
    svg += line(x, ticks_y + 4, x, bottom, "grid");
    svg += text_at(x, ticks_y, tick == 0 ? "start" : "middle", linear_tick_label(tick, step));
  }
  svg += body;
  svg += line(left, ticks_y + 4, left, bottom, "axis");
  svg += text_at(left + plot_width / 2, bottom + 20, "middle", chart.value_label, " class=\"label\"");
  if (whiskers) {
    // Centred on the whole chart, not the plot: the sentence is wider than the plot's half.
    svg += text_at((left + plot_width + value_width) / 2, bottom + 40, "middle", chart.whisker_label, " class=\"label\"");
  }
  return svg + "</svg>";
}

} // namespace layerbench::site
