// SPDX-License-Identifier: MIT
#include "site/cell_whisker.hpp"

#include "site/view_common.hpp"

namespace layerbench::site {

const char* const k_quartile_whisker_label = "Whiskers: 25th to 75th percentile";

namespace {

// The quartiles of an ok cell that has both, positive and in order (a log axis cannot place zero).
bool has_quartiles(const dataset::Cell* cell)
{
  if (!cell || cell->status != dataset::CellStatus::ok || !cell->stats) {
    return false;
  }
  const auto& stats = *cell->stats;
  return stats.p25_ms && stats.p75_ms && *stats.p25_ms > 0 && *stats.p75_ms >= *stats.p25_ms;
}

Whisker whisker_of(double low, double high, const std::string& unit)
{
  return {low, high, "25th to 75th percentile: " + trimmed_significant(low, 3) + " to " + trimmed_significant(high, 3) + " " + unit};
}

} // namespace

std::optional<Whisker> time_whisker(const dataset::Cell* cell)
{
  if (!has_quartiles(cell)) {
    return std::nullopt;
  }
  return whisker_of(*cell->stats->p25_ms, *cell->stats->p75_ms, "ms");
}

std::optional<Whisker> throughput_whisker(const dataset::Cell* cell)
{
  if (!has_quartiles(cell)) {
    return std::nullopt;
  }
  const double samples = cell->batch_size * 1000.0;
  return whisker_of(samples / *cell->stats->p75_ms, samples / *cell->stats->p25_ms, "samples/s");
}

} // namespace layerbench::site
