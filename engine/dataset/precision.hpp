// SPDX-License-Identifier: MIT
#pragma once

// The precision a measured median supports, one rule for the site, diff and the CSV (issue 24): no
// more significant figures than the cell's spread between processes justifies.
//
//   - a cell measured in rounds: w = (ci95_high - ci95_low) / median, its bootstrap 95% interval's
//     width. 2 significant figures when w >= 10%, 3 when w >= 1%, 4 below that.
//   - a cell of one round: the spread between processes was not measured, and on a shared machine it
//     is tens of percent (docs/validity.md), so 2 figures.
//   - a published reference: its figures as printed, k_reference_figures.

#include "dataset/dataset.hpp"

#include <optional>
#include <string>

namespace layerbench::dataset {

inline constexpr int k_reference_figures = 3;
inline constexpr int k_one_round_figures = 2;

// The significant figures of `cell`'s median in `dataset` (which says whether it is a reference).
int supported_figures(const Dataset& dataset, const Cell& cell);
// The same rule for a median and its relative interval width, where there is one.
int supported_figures(std::optional<double> relative_width);

// `value` rounded to `figures` significant figures, its integer digits included: 205 at 2 figures is
// 210, 2,214 is 2,200. Every text of a median or a throughput (the site's and the CSV's) shows this.
double round_to_figures(double value, int figures);
// `value` at `figures` significant figures as text, rounded so: "210", "0.12", "2210".
std::string format_figures(double value, int figures);

// The cell's median in ms at its supported figures ("0.12", "210"); empty for a cell without timings.
std::string format_median(const Dataset& dataset, const Cell& cell);

// The interval beside a median: "95% CI 0.11–0.13" for a cell measured in rounds, at the median's
// figures; empty otherwise.
std::string format_interval(const Dataset& dataset, const Cell& cell);

} // namespace layerbench::dataset
