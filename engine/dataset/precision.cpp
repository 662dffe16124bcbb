// SPDX-License-Identifier: MIT
#include "dataset/precision.hpp"

#include "util/format.hpp"

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

std::string format_median(const Dataset& dataset, const Cell& cell)
{
  if (!cell.stats) {
    return "";
  }
  return util::format_significant(cell.stats->median_ms, supported_figures(dataset, cell));
}

std::string format_interval(const Dataset& dataset, const Cell& cell)
{
  if (!cell.round_spread || !cell.stats) {
    return "";
  }
  const int figures = supported_figures(dataset, cell);
  return "95% CI " + util::format_significant(cell.round_spread->ci95_low_ms, figures) + "\u2013"
         + util::format_significant(cell.round_spread->ci95_high_ms, figures);
}

} // namespace layerbench::dataset
