// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

namespace layerbench::util {

// Fixed decimals, "C" locale, never scientific: format_fixed(0.0244, 3) == "0.024".
std::string format_fixed(double value, int decimals);

// `digits` significant digits without exponent: 0.02437 -> "0.0244", 62.41 -> "62.4", 1234.6 -> "1235".
std::string format_significant(double value, int digits);

// Thousands separated: 73856 -> "73,856".
std::string format_thousands(int64_t value);

// A count and its noun, the noun in the plural (an added "s") unless the count is one: "1 iteration",
// "3 iterations", "1,000 samples".
std::string format_count(int64_t count, const std::string& noun);

// Count with a decimal suffix, three significant digits: 132710400 -> "133M", 4.7e9 -> "4.70B".
// "K", "M", "B" (billion, as the benchmark page writes it), "T".
std::string format_si(double value);

// Bytes in binary units with three significant digits: 18022400 -> "17.2 MiB".
std::string format_bytes(double bytes);

// A rate with a decimal prefix and unit: format_rate(1.5e12, "FLOP/s") == "1.50 TFLOP/s".
std::string format_rate(double value, const std::string& unit);

} // namespace layerbench::util
