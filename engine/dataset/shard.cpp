// SPDX-License-Identifier: MIT
#include "dataset/shard.hpp"

#include "util/error.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

namespace layerbench::dataset {

namespace {

// A count of at most six digits: no overflow, and no machine park is larger.
std::optional<int> small_count(const std::string& digits)
{
  if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoi(digits);
}

} // namespace

Shard parse_shard(const std::string& text)
{
  const auto slash = text.find('/');
  const auto index = small_count(text.substr(0, slash));
  const auto count = slash == std::string::npos ? std::nullopt : small_count(text.substr(slash + 1));
  if (!index || !count || *count < 1 || *index < 1 || *index > *count) {
    throw Error("shard \"" + text + "\" is not I/N with 1 <= I <= N (for example 2/4)");
  }
  return Shard{*index, *count};
}

std::string to_string(const Shard& shard)
{
  return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

bool in_round_robin_shard(const Shard& shard, size_t cell_index)
{
  return cell_index % static_cast<size_t>(shard.count) == static_cast<size_t>(shard.index - 1);
}

std::vector<ShardLoad> plan_shards(const std::vector<CellCost>& costs, int count)
{
  if (count < 1) {
    throw UsageError("--shard: the matrix cannot be split in " + std::to_string(count) + " shards");
  }
  std::vector<size_t> order(costs.size());
  std::iota(order.begin(), order.end(), size_t{0});
  // Stable, so equal costs keep matrix order and the plan is the same in every process.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return costs[a].seconds > costs[b].seconds; });
  std::vector<ShardLoad> shards(static_cast<size_t>(count));
  std::vector<std::vector<size_t>> members(shards.size());
  for (size_t cell : order) {
    size_t lightest = 0;
    for (size_t s = 1; s < shards.size(); ++s) {
      if (shards[s].seconds < shards[lightest].seconds) {
        lightest = s;
      }
    }
    shards[lightest].seconds += costs[cell].seconds;
    members[lightest].push_back(cell);
  }
  for (size_t s = 0; s < shards.size(); ++s) {
    std::sort(members[s].begin(), members[s].end());
    for (size_t cell : members[s]) {
      shards[s].cells.push_back(costs[cell].cell);
    }
  }
  return shards;
}

double balance(const std::vector<ShardLoad>& shards)
{
  double longest = 0;
  double total = 0;
  for (const auto& shard : shards) {
    longest = std::max(longest, shard.seconds);
    total += shard.seconds;
  }
  return total > 0 ? longest / (total / static_cast<double>(shards.size())) : 1.0;
}

double estimate_cell_seconds(double flops, const CostModel& model)
{
  const double forward = model.flop_rate > 0 ? flops / model.flop_rate : 0;
  const double sample = std::max(model.block_target_seconds, forward);
  const double warmup = std::max(model.warmup_seconds, model.warmup_min_iterations * forward);
  // The block grows by doubling up to the target: about twice the target in all.
  const double growth = 2 * sample;
  const double sampling = std::max(model.min_samples * sample,
                                   std::min(std::max(model.budget_seconds, 3 * sample), model.max_samples * sample));
  // First call, the memory-peak forward and the profiled forward.
  return 3 * forward + warmup + growth + sampling;
}

std::vector<CellCost> costs_from_dataset(const Dataset& previous, const std::vector<CellCost>& fallback, size_t* measured)
{
  std::vector<CellCost> costs = fallback;
  size_t found = 0;
  for (auto& cost : costs) {
    const auto* cell = find_cell(previous, cost.cell.layer, cost.cell.batch_size, cost.cell.axes);
    if (cell && cell->cell_seconds && *cell->cell_seconds > 0) {
      cost.seconds = *cell->cell_seconds;
      ++found;
    }
  }
  if (measured) {
    *measured = found;
  }
  return costs;
}

} // namespace layerbench::dataset
