// SPDX-License-Identifier: MIT
#pragma once

#include <utility>
#include <vector>

namespace layerbench::util {

// Summary statistics of samples, for the bench's cells and for the rounds that combine them.

// Quantile by linear interpolation between order statistics (Hyndman and Fan type 7, what numpy's
// default and R's default compute), so the numbers can be checked with either. Throws Error on no values.
double quantile(std::vector<double> values, double q);

inline double median(std::vector<double> values) { return quantile(std::move(values), 0.5); }

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

// Throws Error on an empty sample set or a non-finite value.
Summary summarize(const std::vector<double>& values);

} // namespace layerbench::util
