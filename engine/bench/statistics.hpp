// SPDX-License-Identifier: MIT
#pragma once

// Summary statistics and the adaptive stopping rule. Knows nothing of torch, so it is tested on
// known samples.

#include <vector>

namespace layerbench::bench {

struct Summary
{
  double median = 0;
  double p25 = 0;
  double p75 = 0;
  double min = 0;
  double mean = 0;
  double stddev = 0; // sample standard deviation (n - 1); 0 for one sample
  int count = 0;
  // (p75 - p25) / median: the relative interquartile range. Robust to the odd slow outlier that a
  // context switch or a clock change puts in a sample, unlike the coefficient of variation.
  double noise = 0;
};

// Quantile by linear interpolation between order statistics (Hyndman and Fan type 7, what numpy's
// default and R's default compute), so the numbers can be checked with either.
double quantile(std::vector<double> values, double q);

// Throws Error on an empty sample set or a non-finite value.
Summary summarize(const std::vector<double>& values);

struct StoppingRule
{
  double noise_target = 0.05;
  int min_samples = 5;
  int max_samples = 200;
  double budget_seconds = 3.0;
};

enum class Verdict {
  continue_sampling,
  target_met,   // at least min_samples and noise <= target
  max_samples,  // the sample cap was reached before the target
  budget_spent  // the cell's time budget ran out before the target
};

// Decides after each sample. min_samples always comes first, except that a cell whose time budget
// is spent stops once it has three samples: the fewest that give quartiles at all. That keeps a
// slow layer on a slow CPU (one forward can take seconds) from holding the whole matrix up.
Verdict decide(const StoppingRule& rule, const std::vector<double>& samples, double elapsed_seconds);

inline constexpr int k_fewest_samples = 3;

} // namespace layerbench::bench
