// SPDX-License-Identifier: MIT
#pragma once

// A cell's spread as a chart's whisker: the interquartile range of its timed samples, the same range
// the noise figure and `layerbench diff` read. A published reference gives medians only and has none.

#include "dataset/dataset.hpp"
#include "site/chart.hpp"

#include <optional>
#include <string>

namespace layerbench::site {

// What every quartile whisker spans, for a chart's whisker_label.
extern const char* const k_quartile_whisker_label;

// On milliseconds per batch.
std::optional<Whisker> time_whisker(const dataset::Cell* cell);
// On samples per second: the slower quartile is the low end.
std::optional<Whisker> throughput_whisker(const dataset::Cell* cell);

// Which spread a cell's interval is: between processes where it was measured in rounds, else within
// its one run.
enum class IntervalSource { rounds, quartiles, none };
IntervalSource interval_source(const dataset::Cell* cell);
// On samples per second, the widest spread the cell records: the 95% interval of its round medians
// (their range where the file has no interval), else its quartiles as throughput_whisker. `unit` ends
// the tooltip's words ("images/s").
std::optional<Whisker> throughput_interval(const dataset::Cell* cell, const std::string& unit);

} // namespace layerbench::site
