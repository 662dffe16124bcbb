// SPDX-License-Identifier: MIT
#pragma once

// The adaptive stopping rule over a cell's samples (their summary is util/statistics.hpp). Knows
// nothing of torch, so it is tested on known samples.

#include "util/statistics.hpp"

#include <vector>

namespace layerbench::bench {

using util::quantile;
using util::Summary;
using util::summarize;

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
