// SPDX-License-Identifier: MIT
#pragma once

// One shard of the layer x batch-size matrix, so that `layerbench run --shard i/n` on n machines
// measures every cell exactly once and `layerbench merge` puts the shards back together.
//
// Shards balance the expected time of their cells, not their number: one TransformerEncoder cell at
// batch 128 can cost more than all the pooling cells together. The plan is a pure function of the
// cells' costs, so every task of a cluster job computes the same plan from the same inputs; each shard
// records its cells (methodology.shard_cells), so `validate` and `merge` need not recompute it.

#include "dataset/dataset.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace layerbench::dataset {

struct Shard
{
  int index = 1; // 1-based
  int count = 1;
};

// "i/n" with 1 <= i <= n; anything else throws Error saying so (the command line adds its option).
Shard parse_shard(const std::string& text);

std::string to_string(const Shard& shard);

// How datasets older than 1.3.0 were split: cells numbered in layer-major order (every batch size of
// the first layer, then the next layer) and dealt round-robin, cell k to shard (k mod n) + 1.
bool in_round_robin_shard(const Shard& shard, size_t cell_index);

// The expected seconds of one cell of the matrix.
struct CellCost
{
  CellKey cell;
  double seconds = 0;
};

struct ShardLoad
{
  std::vector<CellKey> cells; // in matrix order
  double seconds = 0;         // the sum of their costs
};

// Greedy longest-processing-time-first: cells by falling cost (ties in matrix order), each to the
// shard with the least expected time so far (ties: the lowest index). Its longest shard is at most
// 4/3 of the optimum. `costs` is in matrix order; the result has `count` shards, some maybe empty.
std::vector<ShardLoad> plan_shards(const std::vector<CellCost>& costs, int count);

// The longest shard over the mean of all shards: 1 is a perfect balance.
double balance(const std::vector<ShardLoad>& shards);

// What decides a cell's cost when no earlier run gives its time, from the run's settings.
struct CostModel
{
  double flop_rate = 0; // FLOP/s assumed for the forward pass
  double warmup_seconds = 0;
  int warmup_min_iterations = 0;
  double block_target_seconds = 0;
  int min_samples = 0;
  int max_samples = 0;
  double budget_seconds = 0;
};

// A cell's expected seconds from its FLOPs per forward (FLOPs per sample x batch size) under the
// measurement method: the first call, warm-up, memory and profile forwards, the block growth, and
// sampling until the budget (the noise target is assumed missed, as it often is on shared machines).
double estimate_cell_seconds(double flops, const CostModel& model);

// Each cell's measured cell_seconds in `previous` (a run of the same matrix on the same kind of device)
// where it has one, else `fallback`'s estimate. `measured` counts the cells the dataset gave.
std::vector<CellCost> costs_from_dataset(const Dataset& previous, const std::vector<CellCost>& fallback, size_t* measured);

} // namespace layerbench::dataset
