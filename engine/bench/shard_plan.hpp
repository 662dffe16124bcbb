// SPDX-License-Identifier: MIT
#pragma once

// The plan of a sharded run: the expected seconds of each cell of the matrix, from an earlier run's
// cell_seconds or else from the catalog's FLOP formulas, split by dataset::plan_shards. `run --shard`
// and `slurm` both call plan_matrix, so a cluster's tasks and the script's printout agree.

#include "bench/axes_plan.hpp"
#include "bench/measure.hpp"
#include "dataset/dataset.hpp"
#include "dataset/shard.hpp"

#include <optional>
#include <string>
#include <vector>

namespace layerbench::bench {

// An earlier run whose cell_seconds give the costs (`--plan-from FILE`).
struct PlanSource
{
  std::string path;
  std::string sha256; // of the file's bytes: the plan is recorded with it, so shards of other plans are told apart
  dataset::Dataset dataset;
};

// Loads FILE; throws Error naming it when it cannot be read or is not a measured run.
PlanSource load_plan_source(const std::string& path);

struct MatrixPlan
{
  std::vector<dataset::ShardLoad> shards;
  std::string description;   // methodology.shard_plan
  size_t measured_costs = 0; // cells whose cost came from the earlier run
};

// Throws UsageError when there are more shards than cells.
// Cells are (layer, batch size, corner) in matrix order; a corner the device or layer cannot run costs
// nothing (it is recorded as skipped), a corner costs its timed budgets (bench::timed_budgets).
MatrixPlan plan_matrix(const std::vector<std::string>& layers,
                       const std::vector<int>& batch_sizes,
                       const std::vector<dataset::Axes>& corners,
                       const MeasureSettings& settings,
                       DeviceKind device,
                       const std::optional<PlanSource>& source,
                       int shard_count);

} // namespace layerbench::bench
