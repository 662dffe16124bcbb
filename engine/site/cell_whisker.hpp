// SPDX-License-Identifier: MIT
#pragma once

// A cell's spread as a chart's whisker: the interquartile range of its timed samples, the same range
// the noise figure and `layerbench diff` read. A published reference gives medians only and has none.

#include "dataset/dataset.hpp"
#include "site/chart.hpp"

#include <optional>

namespace layerbench::site {

// What every quartile whisker spans, for a chart's whisker_label.
extern const char* const k_quartile_whisker_label;

// On milliseconds per batch.
std::optional<Whisker> time_whisker(const dataset::Cell* cell);
// On samples per second: the slower quartile is the low end.
std::optional<Whisker> throughput_whisker(const dataset::Cell* cell);

} // namespace layerbench::site
