// SPDX-License-Identifier: MIT
#pragma once

// Puts the shards of one matrix run (`layerbench run --shard i/n` on n machines) back together.

#include "dataset/dataset.hpp"

#include <string>
#include <vector>

namespace layerbench::dataset {

struct ShardFile
{
  std::string origin; // the file name, for messages
  Dataset dataset;
};

// All shards must be measured datasets with the same environment, the same methodology apart from
// its "shard", the same layers and the same tool build; together they must hold shards 1..n of one
// n, and no cell may appear twice; shards planned by cost must list, together, every cell of the matrix
// once. Anything else throws Error naming the files. The result has no shard, the cells in matrix
// order, the highest load averages any shard saw, per device peak the shard's measurement with the
// highest rate (a roof is the most the device was seen to give), and `command_line` as its provenance
// command line.
// Speed classes are not compared and come back empty: each shard ranks its layers against its own
// fastest one, so only the whole matrix can give them (cmd_merge does, in the torch build).
Dataset merge(const std::vector<ShardFile>& shards, const std::string& command_line);

// Whole runs of one device and build that measured different cells (`merge --union`): each chose
// its own layers, batch sizes and corners, as a lease measures each model at the largest batch that
// fits it. They must be measured, whole (no shard), single-process (no rounds) runs, equal in all that
// `merge` compares but the matrix; a layer that two runs describe must be described alike, and no cell
// may be in two runs. The result lists its matrix in methodology.cells (the cells measured, layer by
// layer in first-seen order, then by batch size and corner), declares the union of the layers, batch
// sizes and axis values, keeps each run's command line in provenance.parts and joins the environments
// as `merge` does (highest load, fastest peaks). Anything else throws Error naming the file and field.
Dataset union_runs(const std::vector<ShardFile>& runs, const std::string& command_line);

} // namespace layerbench::dataset
