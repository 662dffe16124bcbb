// SPDX-License-Identifier: MIT
#pragma once

// A run measured in rounds (`layerbench run --rounds N`): every cell once per round, each round a fresh
// process with its own cell order, the rounds one after the other. This file owns what does not need
// torch: the seeded orders, the combination of the rounds' datasets into one, and the spread of a
// cell's rounds (the median of round medians and its bootstrap interval).

#include "dataset/dataset.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace layerbench::dataset {

// Publishing wants at least this many rounds (a single process's median is good to tens of percent
// on a shared machine; docs/validity.md).
inline constexpr int k_publish_rounds = 3;
// `--rounds` from 1 to this: more is a mistake, not a measurement plan.
inline constexpr int k_max_rounds = 50;
inline constexpr int k_bootstrap_resamples = 2000;

// The seed of round `index` (1-based) and of the bootstrap (index 0), derived from the run's seed so
// that one recorded number reproduces every order.
uint32_t derived_seed(uint32_t seed, int index);

// A permutation of 0 .. count-1 by a Fisher-Yates shuffle driven by std::mt19937, whose output the
// C++ standard fixes: the same seed gives the same order on every platform. Element i of the result is
// the matrix index of the cell measured i-th.
std::vector<size_t> shuffled_order(size_t count, uint32_t seed);

// The 95% interval of the median of round medians by a hierarchical bootstrap: each resample draws
// the rounds with replacement and, within each drawn round, its samples with replacement (a round
// without samples contributes its median). Deterministic for a seed.
struct Interval
{
  double low = 0;
  double high = 0;
};
Interval bootstrap_interval(const std::vector<const Stats*>& rounds, uint32_t seed, int resamples);

// The round statistics combined: the median of round medians; the median of the rounds' quartiles
// (which brackets it); minimum, mean and standard deviation of the pooled samples where every round
// kept its samples; the noise is the median of the rounds' (the noise within a round); the target met
// when every round met it.
Stats combine_stats(const std::vector<const Stats*>& rounds);

// One round as the run left it: its record (status, times, seeds) and, when it finished, its dataset.
struct RoundResult
{
  Round record;
  std::optional<Dataset> dataset;
};

// Where the rounds come from: the processes of one `run --rounds`, or separate runs joined by
// `merge --rounds` (each measured in its own order, recorded or not).
enum class RoundSource { processes, joined_runs };

// A finished round as the combination takes it: its dataset, and its record (start, load averages,
// the busy-machine measure) read from that dataset's own environment.
RoundResult finished_round(int index, Dataset dataset, std::optional<uint32_t> order_seed);

// The rounds in one dataset: the first finished round's dataset with every cell's stats, spread and
// per-round record from all finished rounds, `rounds` describing each round (failed ones with their
// reason). Throws Error when no round finished, or when the rounds did not measure the same matrix.
Dataset combine_rounds(const std::vector<RoundResult>& rounds, uint32_t seed, RoundSource source = RoundSource::processes);

// The methodology's words for `count` rounds from `source`.
std::string rounds_method(int count, RoundSource source);

} // namespace layerbench::dataset
