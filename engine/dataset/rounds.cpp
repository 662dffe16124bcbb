// SPDX-License-Identifier: MIT
#include "dataset/rounds.hpp"

#include "dataset/speed_class.hpp"
#include "dataset/validate.hpp"
#include "util/error.hpp"
#include "util/statistics.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <tuple>

namespace layerbench::dataset {

namespace {

using RoundKey = std::tuple<std::string, int, Axes>;

RoundKey key_of(const CellKey& key) { return {key.layer, key.batch_size, key.axes}; }

// A uniform index below `count`; the modulo's bias is below 2^-20 for any matrix or sample count.
size_t draw(std::mt19937& generator, size_t count) { return static_cast<size_t>(generator() % count); }

std::vector<double> medians_of(const std::vector<const Stats*>& rounds)
{
  std::vector<double> medians;
  for (const auto* round : rounds) {
    medians.push_back(round->median_ms);
  }
  return medians;
}

// The rounds' values of an optional statistic, or nothing when a round lacks it.
template<typename Get>
std::optional<double> median_of_optional(const std::vector<const Stats*>& rounds, Get get)
{
  std::vector<double> values;
  for (const auto* round : rounds) {
    const auto value = get(*round);
    if (!value) {
      return std::nullopt;
    }
    values.push_back(*value);
  }
  return util::median(values);
}

// Where each matrix cell stood in a round's order: position[m] is 1-based; matrix order without a seed.
std::vector<int> positions(size_t count, const std::optional<uint32_t>& order_seed)
{
  std::vector<size_t> order = order_seed ? shuffled_order(count, *order_seed) : shuffled_order(0, 0);
  for (size_t i = order.size(); i < count; ++i) {
    order.push_back(i);
  }
  std::vector<int> position(count);
  for (size_t i = 0; i < order.size(); ++i) {
    position[order[i]] = static_cast<int>(i + 1);
  }
  return position;
}

void check_same_matrix(const Dataset& first, const Dataset& other, const Round& round)
{
  const auto key_list = [](const Dataset& dataset) {
    std::vector<RoundKey> keys;
    for (const auto& key : declared_matrix(dataset)) {
      keys.push_back(key_of(key));
    }
    return keys;
  };
  if (key_list(first) != key_list(other)) {
    throw Error("round " + std::to_string(round.index) + " declares another matrix than the first finished round");
  }
  if (first.environment && other.environment && first.environment->device.name != other.environment->device.name) {
    throw Error("round " + std::to_string(round.index) + " ran on " + other.environment->device.name + ", the first on "
                + first.environment->device.name);
  }
}

// Train cells: each part combined the same way when every finished round timed it.
void combine_train(Cell& out, const std::vector<const Cell*>& finished)
{
  std::vector<const Stats*> forward;
  std::vector<const Stats*> input;
  std::vector<const Stats*> weight;
  for (const auto* cell : finished) {
    if (!cell->train) {
      return;
    }
    forward.push_back(&cell->train->forward);
    if (cell->train->backward_input) {
      input.push_back(&*cell->train->backward_input);
    }
    if (cell->train->backward_weight) {
      weight.push_back(&*cell->train->backward_weight);
    }
  }
  auto& train = *out.train;
  train.forward = combine_stats(forward);
  train.sum_ms = train.forward.median_ms;
  if (train.backward_input && input.size() == finished.size()) {
    train.backward_input = combine_stats(input);
    train.sum_ms += train.backward_input->median_ms;
  }
  if (train.backward_weight && weight.size() == finished.size()) {
    train.backward_weight = combine_stats(weight);
    train.sum_ms += train.backward_weight->median_ms;
  }
}

// The all-reduce's figures as the stats' are combined: the median of the rounds' medians, and of their
// quartiles, which keeps p25 <= median <= p75. The buckets are the same in every round.
void combine_all_reduce(Cell& out, const std::vector<const Cell*>& finished)
{
  std::vector<double> medians;
  std::vector<double> p25s;
  std::vector<double> p75s;
  for (const auto* cell : finished) {
    if (!cell->data_parallel) {
      return;
    }
    medians.push_back(cell->data_parallel->all_reduce_median_ms);
    p25s.push_back(cell->data_parallel->all_reduce_p25_ms);
    p75s.push_back(cell->data_parallel->all_reduce_p75_ms);
  }
  auto& record = *out.data_parallel;
  record.all_reduce_median_ms = util::median(medians);
  record.all_reduce_p25_ms = util::median(p25s);
  record.all_reduce_p75_ms = util::median(p75s);
}

// The cell of every round combined; `base` is the first finished round's copy.
Cell combine_cell(const Cell& base, const std::vector<RoundResult>& rounds, const std::vector<std::vector<int>>& position,
                  size_t matrix_index, uint32_t bootstrap_seed)
{
  std::vector<RoundCell> per_round;
  std::vector<const Stats*> ok;
  std::vector<const Cell*> finished;
  double seconds = 0;
  bool timed = false;
  for (size_t r = 0; r < rounds.size(); ++r) {
    if (!rounds[r].dataset) {
      continue;
    }
    const auto* cell = find_cell(*rounds[r].dataset, base.layer, base.batch_size, base.axes);
    if (cell == nullptr) {
      throw Error("round " + std::to_string(rounds[r].record.index) + " has no cell "
                  + describe_cell({base.layer, base.batch_size, base.axes}));
    }
    per_round.push_back({rounds[r].record.index, position[r][matrix_index], cell->status, cell->skip_reason, cell->stats});
    if (cell->cell_seconds) {
      seconds += *cell->cell_seconds;
      timed = true;
    }
    if (cell->status == CellStatus::ok && cell->stats) {
      ok.push_back(&*cell->stats);
      finished.push_back(cell);
    }
  }
  Cell out = finished.empty() ? base : *finished.front();
  out.rounds = std::move(per_round);
  out.cell_seconds = timed ? std::optional<double>(seconds) : std::nullopt;
  if (ok.empty()) {
    return out;
  }
  const double first_median = out.stats->median_ms;
  out.stats = combine_stats(ok);
  const auto medians = medians_of(ok);
  const auto interval = bootstrap_interval(ok, bootstrap_seed, k_bootstrap_resamples);
  out.round_spread = RoundSpread{static_cast<int>(ok.size()), *std::min_element(medians.begin(), medians.end()),
                                 *std::max_element(medians.begin(), medians.end()), interval.low, interval.high};
  // Rates follow the combined median; the work per forward is the first round's.
  const double scale = first_median / out.stats->median_ms;
  if (out.throughput_samples_per_s) {
    *out.throughput_samples_per_s *= scale;
  }
  if (out.achieved_flop_per_s) {
    *out.achieved_flop_per_s *= scale;
  }
  if (out.train) {
    combine_train(out, finished);
  }
  if (out.data_parallel) {
    combine_all_reduce(out, finished);
  }
  return out;
}

} // namespace

RoundResult finished_round(int index, Dataset dataset, std::optional<uint32_t> order_seed)
{
  RoundResult result;
  result.record.index = index;
  result.record.status = "ok";
  result.record.order_seed = order_seed;
  result.record.started = dataset.created;
  if (dataset.environment) {
    result.record.load_average_start = dataset.environment->load_average_start;
    result.record.load_average_end = dataset.environment->load_average_end;
    result.record.other_cores_busy = dataset.environment->other_cores_busy;
  }
  result.dataset = std::move(dataset);
  return result;
}

uint32_t derived_seed(uint32_t seed, int index)
{
  // SplitMix32-style mixing: neighbouring indexes give unrelated seeds.
  uint32_t z = seed + 0x9E3779B9u * static_cast<uint32_t>(index + 1);
  z = (z ^ (z >> 16)) * 0x85EBCA6Bu;
  z = (z ^ (z >> 13)) * 0xC2B2AE35u;
  return z ^ (z >> 16);
}

std::vector<size_t> shuffled_order(size_t count, uint32_t seed)
{
  std::vector<size_t> order(count);
  for (size_t i = 0; i < count; ++i) {
    order[i] = i;
  }
  std::mt19937 generator(seed);
  for (size_t i = count; i > 1; --i) {
    std::swap(order[i - 1], order[draw(generator, i)]);
  }
  return order;
}

Interval bootstrap_interval(const std::vector<const Stats*>& rounds, uint32_t seed, int resamples)
{
  if (rounds.empty() || resamples < 1) {
    throw Error("bootstrap of no rounds");
  }
  std::mt19937 generator(seed);
  std::vector<double> estimates;
  estimates.reserve(static_cast<size_t>(resamples));
  std::vector<double> medians(rounds.size());
  std::vector<double> drawn;
  for (int b = 0; b < resamples; ++b) {
    for (auto& median : medians) {
      const auto& round = *rounds[draw(generator, rounds.size())];
      if (round.samples_ms.empty()) {
        median = round.median_ms;
        continue;
      }
      drawn.resize(round.samples_ms.size());
      for (auto& value : drawn) {
        value = round.samples_ms[draw(generator, round.samples_ms.size())];
      }
      median = util::median(drawn);
    }
    estimates.push_back(util::median(medians));
  }
  return {util::quantile(estimates, 0.025), util::quantile(estimates, 0.975)};
}

Stats combine_stats(const std::vector<const Stats*>& rounds)
{
  if (rounds.empty()) {
    throw Error("combined statistics of no rounds");
  }
  Stats stats;
  stats.median_ms = util::median(medians_of(rounds));
  std::vector<double> pooled;
  int samples = 0;
  bool all_sampled = true;
  for (const auto* round : rounds) {
    pooled.insert(pooled.end(), round->samples_ms.begin(), round->samples_ms.end());
    samples += round->samples.value_or(0);
    all_sampled = all_sampled && !round->samples_ms.empty();
  }
  // The quartiles are the median of the rounds' quartiles: each round's p25 <= its median <= its p75,
  // and the median keeps that order, so the median of round medians lies between them (the pooled
  // samples' quartiles need not bracket it).
  stats.p25_ms = median_of_optional(rounds, [](const Stats& s) { return s.p25_ms; });
  stats.p75_ms = median_of_optional(rounds, [](const Stats& s) { return s.p75_ms; });
  if (all_sampled) {
    const auto pooled_summary = util::summarize(pooled);
    stats.min_ms = pooled_summary.min;
    stats.mean_ms = pooled_summary.mean;
    stats.stddev_ms = pooled_summary.stddev;
  }
  stats.samples = samples > 0 ? std::optional<int>(samples) : std::nullopt;
  stats.iterations_per_sample = rounds.front()->iterations_per_sample;
  stats.noise = median_of_optional(rounds, [](const Stats& s) { return s.noise; });
  bool met = true;
  for (const auto* round : rounds) {
    met = met && round->noise_target_met.value_or(false);
  }
  stats.noise_target_met = met;
  return stats;
}

std::string rounds_method(int count, RoundSource source)
{
  const std::string how
    = source == RoundSource::processes
        ? " rounds, one after the other, each a fresh process that measured every cell once in an order shuffled by "
          "its own seed (rounds.runs[].order_seed, derived from rounds.seed; a Fisher-Yates shuffle over std::mt19937), "
          "so that a cell's rounds lie minutes apart and no cell always follows the same one."
        : " rounds: separate runs of the same matrix on the same device, each a process of its own that measured every "
          "cell once, joined by layerbench merge --rounds in the order given (each run in matrix order unless it was "
          "shuffled; rounds[].position then counts matrix order).";
  return "measured in " + std::to_string(count) + how + " A cell's median is the median of its round medians; its quartiles, minimum, mean and standard deviation pool the rounds' samples; "
           "its noise is the median of the rounds' (the noise within a round). round_spread gives the lowest and "
           "highest round median and a 95% interval of the median from a hierarchical bootstrap ("
         + std::to_string(k_bootstrap_resamples)
         + " resamples: rounds drawn with replacement, then samples within each drawn round). Throughput and "
           "achieved FLOP/s follow the combined median; first-call time, the host clock, peak memory, operator "
           "profiles, CUDA variants and the device peaks are the first round's.";
}

Dataset combine_rounds(const std::vector<RoundResult>& rounds, uint32_t seed, RoundSource source)
{
  const auto first = std::find_if(rounds.begin(), rounds.end(), [](const RoundResult& r) { return r.dataset.has_value(); });
  if (first == rounds.end()) {
    std::string reasons;
    for (const auto& round : rounds) {
      reasons += (reasons.empty() ? "" : "; ") + std::string("round ") + std::to_string(round.record.index) + ": "
                 + round.record.reason;
    }
    throw Error("no round finished (" + reasons + ")");
  }
  Dataset combined = *first->dataset;
  const auto matrix = declared_matrix(combined);
  std::map<RoundKey, size_t> index;
  for (size_t m = 0; m < matrix.size(); ++m) {
    index.emplace(key_of(matrix[m]), m);
  }
  Rounds header;
  header.count = static_cast<int>(rounds.size());
  header.seed = seed;
  header.bootstrap_resamples = k_bootstrap_resamples;
  header.method = rounds_method(header.count, source);
  std::vector<std::vector<int>> position;
  std::optional<double> busiest;
  for (const auto& round : rounds) {
    header.runs.push_back(round.record);
    position.push_back(positions(matrix.size(), round.record.order_seed));
    if (round.dataset) {
      check_same_matrix(combined, *round.dataset, round.record);
      if (round.record.other_cores_busy) {
        busiest = std::max(busiest.value_or(0.0), *round.record.other_cores_busy);
      }
    }
  }
  const uint32_t bootstrap_seed = derived_seed(seed, 0);
  for (auto& cell : combined.results) {
    const auto found = index.find(key_of({cell.layer, cell.batch_size, cell.axes}));
    if (found == index.end()) {
      throw Error("cell " + describe_cell({cell.layer, cell.batch_size, cell.axes}) + " is outside the declared matrix");
    }
    cell = combine_cell(cell, rounds, position, found->second, bootstrap_seed);
  }
  const auto last = std::find_if(rounds.rbegin(), rounds.rend(), [](const RoundResult& r) { return r.dataset.has_value(); });
  if (combined.environment && last->dataset->environment) {
    combined.environment->load_average_end = last->dataset->environment->load_average_end;
    combined.environment->other_cores_busy = busiest;
  }
  combined.rounds = header;
  assign_speed_classes(combined);
  return combined;
}

} // namespace layerbench::dataset
