// SPDX-License-Identifier: MIT
#include "dataset/precision.hpp"

#include "util/format.hpp"

#include <cmath>

namespace layerbench::dataset {

int supported_figures(std::optional<double> relative_width)
{
  if (!relative_width || *relative_width >= 0.1) {
    return 2;
  }
  return *relative_width >= 0.01 ? 3 : 4;
}

int supported_figures(const Dataset& dataset, const Cell& cell)
{
  if (dataset.kind == Kind::published_reference) {
    return k_reference_figures;
  }
  if (!cell.round_spread || !cell.stats || cell.stats->median_ms <= 0) {
    return k_one_round_figures;
  }
  const auto& spread = *cell.round_spread;
  return supported_figures((spread.ci95_high_ms - spread.ci95_low_ms) / cell.stats->median_ms);
}

double round_to_figures(double value, int figures)
{
  if (value == 0.0 || !std::isfinite(value)) {
    return value;
  }
  const double unit = std::pow(10.0, std::floor(std::log10(std::fabs(value))) - figures + 1);
  return unit >= 1 ? std::round(value / unit) * unit : value;
}

std::string format_figures(double value, int figures)
{
  return util::format_significant(round_to_figures(value, figures), figures);
}

std::string format_median(const Dataset& dataset, const Cell& cell)
{
  if (!cell.stats) {
    return "";
  }
  return format_figures(cell.stats->median_ms, supported_figures(dataset, cell));
}

std::string format_interval(const Dataset& dataset, const Cell& cell)
{
  if (!cell.round_spread || !cell.stats) {
    return "";
  }
  const int figures = supported_figures(dataset, cell);
  return "95% CI " + format_figures(cell.round_spread->ci95_low_ms, figures) + "\u2013"
         + format_figures(cell.round_spread->ci95_high_ms, figures);
}

} // namespace layerbench::dataset
