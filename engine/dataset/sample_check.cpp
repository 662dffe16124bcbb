// SPDX-License-Identifier: MIT
#include "dataset/sample_check.hpp"

#include "util/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace layerbench::dataset {

namespace {

// Six significant digits, exponent where needed: a sample of 1.1e-06 ms reads as what it is.
std::string number(double value)
{
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

bool agree(double stated, double recomputed)
{
  return std::abs(stated - recomputed) <= k_sample_agreement * std::max(std::abs(stated), std::abs(recomputed));
}

void compare(const char* field, std::optional<double> stated, double recomputed, size_t count, const std::string& pointer,
             std::vector<Problem>& problems)
{
  if (!stated || agree(*stated, recomputed)) {
    return;
  }
  problems.push_back({pointer + "/" + field, std::string(field) + " is " + number(*stated) + " but the "
                                               + std::to_string(count) + " samples_ms give "
                                               + number(recomputed)
                                               + ": the statistics are not those of the samples"});
}

void check_stats_samples(const Stats& stats, const std::string& pointer, std::vector<Problem>& problems)
{
  if (stats.samples_ms.empty()) {
    return;
  }
  const size_t count = stats.samples_ms.size();
  if (stats.samples && static_cast<size_t>(*stats.samples) != count) {
    problems.push_back({pointer + "/samples", "samples is " + std::to_string(*stats.samples) + " but samples_ms holds "
                                                + std::to_string(count) + " samples"});
    return;
  }
  util::Summary summary;
  try {
    summary = util::summarize(stats.samples_ms);
  } catch (const std::exception& error) {
    problems.push_back({pointer + "/samples_ms", error.what()});
    return;
  }
  compare("median_ms", stats.median_ms, summary.median, count, pointer, problems);
  compare("p25_ms", stats.p25_ms, summary.p25, count, pointer, problems);
  compare("p75_ms", stats.p75_ms, summary.p75, count, pointer, problems);
  compare("min_ms", stats.min_ms, summary.min, count, pointer, problems);
  compare("mean_ms", stats.mean_ms, summary.mean, count, pointer, problems);
}

} // namespace

std::vector<Problem> check_samples(const Dataset& dataset)
{
  std::vector<Problem> problems;
  for (size_t i = 0; i < dataset.results.size(); ++i) {
    const auto& cell = dataset.results[i];
    const auto pointer = "/results/" + std::to_string(i);
    if (cell.stats) {
      check_stats_samples(*cell.stats, pointer + "/stats", problems);
    }
    if (cell.train) {
      check_stats_samples(cell.train->forward, pointer + "/train/forward", problems);
      if (cell.train->backward_input) {
        check_stats_samples(*cell.train->backward_input, pointer + "/train/backward_input", problems);
      }
      if (cell.train->backward_weight) {
        check_stats_samples(*cell.train->backward_weight, pointer + "/train/backward_weight", problems);
      }
    }
    for (size_t r = 0; r < cell.rounds.size(); ++r) {
      if (cell.rounds[r].stats) {
        check_stats_samples(*cell.rounds[r].stats, pointer + "/rounds/" + std::to_string(r) + "/stats", problems);
      }
    }
  }
  return problems;
}

} // namespace layerbench::dataset
