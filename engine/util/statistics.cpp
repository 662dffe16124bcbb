// SPDX-License-Identifier: MIT
#include "util/statistics.hpp"

#include "util/error.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace layerbench::util {

double quantile(std::vector<double> values, double q)
{
  if (values.empty()) {
    throw Error("quantile of no samples");
  }
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return values[below] + fraction * (values[above] - values[below]);
}

Summary summarize(const std::vector<double>& values)
{
  if (values.empty()) {
    throw Error("summary of no samples");
  }
  for (double value : values) {
    if (!std::isfinite(value)) {
      throw Error("a sample is not a finite number");
    }
  }
  Summary summary;
  summary.count = static_cast<int>(values.size());
  summary.median = quantile(values, 0.5);
  summary.p25 = quantile(values, 0.25);
  summary.p75 = quantile(values, 0.75);
  summary.min = *std::min_element(values.begin(), values.end());
  summary.mean = std::accumulate(values.begin(), values.end(), 0.0) / summary.count;
  if (summary.count > 1) {
    double squares = 0;
    for (double value : values) {
      squares += (value - summary.mean) * (value - summary.mean);
    }
    summary.stddev = std::sqrt(squares / (summary.count - 1));
  }
  summary.noise = summary.median > 0 ? (summary.p75 - summary.p25) / summary.median : 0.0;
  return summary;
}

} // namespace layerbench::util
