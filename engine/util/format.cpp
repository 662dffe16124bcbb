// SPDX-License-Identifier: MIT
#include "util/format.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <utility>

namespace layerbench::util {

std::string format_fixed(double value, int decimals)
{
  std::array<char, 64> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%.*f", decimals, value);
  std::string text = buffer.data();
  // "-0.000" reads as a sign error to a person; print the zero without it.
  if (text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos) {
    return text.substr(1);
  }
  return text;
}

std::string format_significant(double value, int digits)
{
  if (value == 0.0 || !std::isfinite(value)) {
    return format_fixed(value, 0);
  }
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  int decimals = digits - 1 - magnitude;
  // Rounding can carry into a new digit (9.996 -> 10.0); recompute the decimals for the rounded value.
  const double rounded = std::round(value * std::pow(10.0, decimals)) / std::pow(10.0, decimals);
  if (rounded != 0.0 && static_cast<int>(std::floor(std::log10(std::fabs(rounded)))) > magnitude) {
    decimals -= 1;
  }
  return format_fixed(value, decimals < 0 ? 0 : decimals);
}

std::string format_thousands(int64_t value)
{
  const bool negative = value < 0;
  std::string digits = std::to_string(negative ? -value : value);
  std::string result;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) {
      result += ',';
    }
    result += digits[i];
  }
  return negative ? "-" + result : result;
}

namespace {

std::string with_prefix(double value,
                        double base,
                        const std::array<const char*, 5>& prefixes,
                        const std::string& separator)
{
  size_t index = 0;
  double scaled = value;
  while (std::fabs(scaled) >= base && index + 1 < prefixes.size()) {
    scaled /= base;
    ++index;
  }
  // 999.6 rounds to "1000"; move it to the next prefix instead.
  if (std::fabs(scaled) >= base - 0.5 && index + 1 < prefixes.size() && index > 0) {
    scaled /= base;
    ++index;
  }
  return format_significant(scaled, 3) + separator + prefixes[index];
}

} // namespace

std::string format_si(double value)
{
  if (value == 0.0) {
    return "0";
  }
  if (std::fabs(value) < 1000.0) {
    return format_significant(value, 3);
  }
  return with_prefix(value, 1000.0, {"", "K", "M", "B", "T"}, "");
}

std::string format_bytes(double bytes)
{
  if (std::fabs(bytes) < 1024.0) {
    return format_fixed(bytes, 0) + " B";
  }
  return with_prefix(bytes, 1024.0, {"B", "KiB", "MiB", "GiB", "TiB"}, " ");
}

std::string format_rate(double value, const std::string& unit)
{
  return with_prefix(value, 1000.0, {"", "K", "M", "G", "T"}, " ") + unit;
}

std::string format_count(int64_t count, const std::string& noun)
{
  return format_thousands(count) + " " + noun + (count == 1 ? "" : "s");
}

} // namespace layerbench::util
