// SPDX-License-Identifier: MIT
#include "site/svg.hpp"

#include "util/format.hpp"

#include <cmath>

namespace layerbench::site::svg {

std::string escape(const std::string& text)
{
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string px(double value) { return util::format_fixed(value, 1); }

double LogRange::position(double value) const
{
  return (std::log10(value) - first) / (last - first);
}

LogRange decades(double low, double high)
{
  LogRange range;
  range.first = static_cast<int>(std::floor(std::log10(low)));
  range.last = static_cast<int>(std::ceil(std::log10(high)));
  if (range.last <= range.first) {
    range.last = range.first + 1;
  }
  return range;
}

// "10000000" did not fit the axis margin.
std::string tick_label(int decade)
{
  static const char* const k_prefixes[] = {"k", "M", "G", "T", "P"};
  if (decade < 4 || decade >= 18) {
    return util::format_significant(std::pow(10.0, decade), 1);
  }
  return std::to_string(static_cast<int>(std::pow(10.0, decade % 3))) + k_prefixes[decade / 3 - 1];
}

std::string open_svg(const std::string& id, double width, double height, const std::string& title, const std::string& description,
                     const std::string& css_class)
{
  // Drawn at its own size (one unit a CSS pixel), so its text is as large on a desktop as on a phone;
  // the stylesheet lets it shrink only in a window narrower than the chart.
  return "<svg class=\"" + css_class + "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(width) + "\" height=\"" + px(height)
         + "\" viewBox=\"0 0 " + px(width) + " " + px(height) + "\" role=\"img\" aria-labelledby=\"" + id + "-title " + id + "-desc\">\n<title id=\"" + id + "-title\">"
         + escape(title) + "</title>\n<desc id=\"" + id + "-desc\">" + escape(description) + "</desc>\n";
}

std::string text_at(double x, double y, const std::string& anchor, const std::string& text, const std::string& extra)
{
  return "<text x=\"" + px(x) + "\" y=\"" + px(y) + "\" text-anchor=\"" + anchor + "\"" + extra + ">" + escape(text) + "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, const std::string& css_class)
{
  return "<line class=\"" + css_class + "\" x1=\"" + px(x1) + "\" y1=\"" + px(y1) + "\" x2=\"" + px(x2) + "\" y2=\""
         + px(y2) + "\"/>\n";
}

} // namespace layerbench::site::svg
