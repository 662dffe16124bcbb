// SPDX-License-Identifier: MIT
#include "bench/statistics.hpp"

#include "util/error.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace layerbench::bench {

Verdict decide(const StoppingRule& rule, const std::vector<double>& samples, double elapsed_seconds)
{
  const int count = static_cast<int>(samples.size());
  if (count >= rule.min_samples && summarize(samples).noise <= rule.noise_target) {
    return Verdict::target_met;
  }
  if (count >= rule.max_samples) {
    return Verdict::max_samples;
  }
  if (elapsed_seconds >= rule.budget_seconds && count >= std::min(rule.min_samples, k_fewest_samples)) {
    return Verdict::budget_spent;
  }
  return Verdict::continue_sampling;
}

} // namespace layerbench::bench
