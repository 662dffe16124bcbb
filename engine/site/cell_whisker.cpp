// SPDX-License-Identifier: MIT
#include "site/cell_whisker.hpp"

#include "site/view_common.hpp"
#include "util/format.hpp"

#include <utility>

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

namespace {

std::optional<Whisker> quartile_throughput(const dataset::Cell* cell, const std::string& unit)
{
  if (!has_quartiles(cell)) {
    return std::nullopt;
  }
  const double samples = cell->batch_size * 1000.0;
  return whisker_of(samples / *cell->stats->p75_ms, samples / *cell->stats->p25_ms, unit);
}

} // namespace

std::optional<Whisker> throughput_whisker(const dataset::Cell* cell) { return quartile_throughput(cell, "samples/s"); }

namespace {

// The round spread's ends in ms, the interval where the file has one, else the round medians' range.
std::optional<std::pair<double, double>> round_ends(const dataset::Cell* cell)
{
  if (!cell || cell->status != dataset::CellStatus::ok || !cell->round_spread) {
    return std::nullopt;
  }
  const auto& spread = *cell->round_spread;
  if (spread.ci95_low_ms > 0 && spread.ci95_high_ms >= spread.ci95_low_ms) {
    return std::make_pair(spread.ci95_low_ms, spread.ci95_high_ms);
  }
  if (spread.min_median_ms > 0 && spread.max_median_ms >= spread.min_median_ms) {
    return std::make_pair(spread.min_median_ms, spread.max_median_ms);
  }
  return std::nullopt;
}

} // namespace

IntervalSource interval_source(const dataset::Cell* cell)
{
  if (round_ends(cell)) {
    return IntervalSource::rounds;
  }
  return has_quartiles(cell) ? IntervalSource::quartiles : IntervalSource::none;
}

std::optional<Whisker> throughput_interval(const dataset::Cell* cell, const std::string& unit)
{
  const auto ends = round_ends(cell);
  if (!ends) {
    return quartile_throughput(cell, unit);
  }
  const double samples = cell->batch_size * 1000.0;
  const double low = samples / ends->second;
  const double high = samples / ends->first;
  const bool interval = cell->round_spread->ci95_low_ms > 0;
  const std::string what = interval ? "95% interval over " : "range of the round medians over ";
  return Whisker{low, high, what + util::format_count(cell->round_spread->rounds, "round") + ": " + trimmed_significant(low, 3)
                              + " to " + trimmed_significant(high, 3) + " " + unit};
}

} // namespace layerbench::site
