// SPDX-License-Identifier: MIT
#pragma once

// Cell-by-cell comparison of two datasets (B against A), with a verdict per cell that counts a
// change only when it stands out of what two runs of the same binary show.
//
// The rule: a cell is faster or slower when |B/A - 1| is at least the threshold (k_diff_threshold
// unless told otherwise) and
//   - both runs measured the cell in rounds (1.4.0): the bootstrap 95% intervals of the two medians
//     (round_spread) do not overlap;
//   - otherwise: the interquartile intervals [p25, p75] do not overlap and |B/A - 1| exceeds the noise
//     of each run, noise = (p75 - p25) / median. A run without quartiles (a published reference gives
//     medians only) has the single point [median, median] as its interval and noise 0.
// The false-positive rate and the sensitivity of the rule on this project's machine are measured by
// bench/validity/diff_rates.py (docs/validity.md).
// A cell that either dataset lacks or skipped is "missing". Cells are matched by layer, batch size and
// corner of the performance-setting cube (dataset/axes.hpp).

#include "dataset/dataset.hpp"

#include <optional>
#include <string>
#include <vector>

namespace layerbench::dataset {

// The interval a cell's median is compared by: its bootstrap 95% interval when measured in rounds,
// else its interquartile interval (a point for a median without quartiles); noise is the latter's
// width over the median (0 for the others).
struct MedianInterval
{
  double low = 0;
  double high = 0;
  double noise = 0;
};
MedianInterval median_interval(const Cell& cell, const Stats& stats);

enum class Change { faster, slower, unchanged, missing };
std::string to_string(Change change);

struct CellChange
{
  std::string layer;
  int batch_size = 0;
  Axes axes; // the corner compared (1.3.0); the reference corner for older files
  std::optional<double> a_ms; // median
  std::optional<double> b_ms;
  std::optional<double> ratio; // b / a
  // The range of b / a the two cells' intervals allow: B's low over A's high to B's high over A's low.
  std::optional<double> ratio_low;
  std::optional<double> ratio_high;
  bool rounds = false; // both sides measured in rounds: the intervals are bootstrap 95% intervals
  int figures = 2;     // significant figures the two medians support together (dataset/precision.hpp)
  Change change = Change::missing;
  std::optional<double> a_page_faults; // minor page faults per iteration, where recorded (schema 1.2)
  std::optional<double> b_page_faults;
};

// A setting of the method or the environment that differs between A and B, the likely cause of
// the cells' changes: the CPU memory policy, the precision in force, threads, GLIBC_TUNABLES...
struct SettingChange
{
  std::string name;
  std::string a; // "not recorded" where the file predates the field
  std::string b;
};

struct DiffSummary
{
  int faster = 0;
  int slower = 0;
  int unchanged = 0;
  int missing = 0;
};

struct DiffResult
{
  std::vector<SettingChange> settings;
  std::vector<CellChange> cells; // A's order, then the cells only B has
  DiffSummary summary;
  double threshold = 0; // the smallest relative change called
};

// The smallest relative change diff calls (10%), whatever the intervals say: at 5% two 3-round runs
// of one binary on this project's 2-vCPU machine differed on 0 to 20% of the cells, at 10% on 0 to 7%
// (bench/validity/diff_rates.py, docs/validity.md section 7).
inline constexpr double k_diff_threshold = 0.10;

DiffResult diff(const Dataset& a, const Dataset& b, double threshold = k_diff_threshold);

enum class DiffFormat { text, markdown, json };
// nullopt for anything but text, markdown, json (the command line names its option).
std::optional<DiffFormat> parse_diff_format(const std::string& text);

// `a_name` and `b_name` label the two sides (usually the file names).
std::string format_diff(const DiffResult& result, const std::string& a_name, const std::string& b_name, DiffFormat format);

} // namespace layerbench::dataset
