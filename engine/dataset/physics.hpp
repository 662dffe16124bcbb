// SPDX-License-Identifier: MIT
#pragma once

// Cells that no device could have measured: a time that implies more FLOP/s than the device's own
// measured compute peak, or more bytes/s than its measured memory roof for a working set larger than
// its last-level cache, is a wrong time (a broken timer, a forward that did not run), whatever its noise.
// Checked against the dataset's own peaks (environment.peaks), with a margin for the peaks' own noise.
// Kept apart from dataset::check, which every reader runs: a run's own file stays readable, so nothing
// measured is lost, and `validate` and `publish` refuse it.

#include "dataset/dataset.hpp"

#include <string>
#include <vector>

namespace layerbench::dataset {

// A cell is impossible above this multiple of a measured peak; the measured peaks of a shared
// machine move by tens of percent between minutes, never by a factor of two within one run.
inline constexpr double k_impossible_margin = 2.0;

enum class Severity { error, warning };

struct Finding
{
  Severity severity = Severity::error;
  std::string pointer; // "/results/3/stats/median_ms"
  std::string message; // with its arithmetic
};

// Errors: an ok cell above k_impossible_margin x the measured compute peak at its precision, or above
// k_impossible_margin x the memory roof with a working set larger than the last-level cache.
// Warnings: a cell above the memory roof whose working set fits in that cache, or whose cache size the
// dataset does not record. Nothing for datasets without measured peaks.
std::vector<Finding> check_physics(const Dataset& dataset);

} // namespace layerbench::dataset
