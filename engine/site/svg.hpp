// SPDX-License-Identifier: MIT
#pragma once

// The pieces every inline SVG chart is written with (chart.cpp, roofline_chart.cpp): escaped text,
// log-scale decades and their labels, the accessible <svg> opening.

#include <string>

namespace layerbench::site::svg {

std::string escape(const std::string& text);
std::string px(double value); // one decimal

// Decades that cover [low, high]: the first and last power of ten around the data.
struct LogRange
{
  int first = 0;
  int last = 1;
  double position(double value) const; // 0 at 10^first, 1 at 10^last
};
LogRange decades(double low, double high);

// From 10,000 up, an SI prefix (10k, 1M, 100M), so that a label fits the axis margin.
std::string tick_label(int decade);

// role="img" labelled by a <title> and a <desc>, so a screen reader names and describes the chart.
std::string open_svg(const std::string& id, double width, double height, const std::string& title, const std::string& description,
                     const std::string& css_class = "chart");
std::string text_at(double x, double y, const std::string& anchor, const std::string& text, const std::string& extra = "");
std::string line(double x1, double y1, double x2, double y2, const std::string& css_class);

} // namespace layerbench::site::svg
