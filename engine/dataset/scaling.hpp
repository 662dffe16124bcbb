// SPDX-License-Identifier: MIT
#pragma once

// How data-parallel training scales (issue 27, docs/scale.md): for a whole model's training step
// measured by one process and by N ranks (results[].data_parallel, 1.6.0), on the same model, batch
// per rank and corner, the scaling factor
//
//     throughput(N) / (N x throughput(1)) = median(1) / median(N),
//
// since both steps train batch_size samples per rank. 1 is perfect scaling. Its range is what the two
// medians' intervals allow (dataset::median_interval: the bootstrap 95% interval where a cell was
// measured in rounds, else its quartiles): median(1)'s low over median(N)'s high to the reverse.
// Computed from the data, in the dataset layer, so that a command and a page give the same figures.

#include "dataset/dataset.hpp"

#include <string>
#include <vector>

namespace layerbench::dataset {

struct ScalingRow
{
  std::string layer;
  int batch_per_rank = 0;
  Axes axes;
  int world_size = 0;
  double single_ms = 0; // median step of one process
  double ranks_ms = 0;  // median step of world_size ranks
  double single_throughput = 0; // samples/s: batch / single_ms
  double ranks_throughput = 0;  // samples/s of all ranks: world_size x batch / ranks_ms
  double factor = 0;
  double factor_low = 0;
  double factor_high = 0;
  bool rounds = false; // both cells measured in rounds: the range is from bootstrap 95% intervals
  double all_reduce_median_ms = 0;
};

// A named dataset: where its cells come from, for the errors.
struct NamedDataset
{
  std::string name;
  const Dataset* dataset = nullptr;
};

// One row per data-parallel cell of `datasets` that has a one-process twin among them, in the order
// found. Throws Error naming the files where they describe different devices or torch releases, where
// a cell's world size disagrees with its own throughput (world size x batch per median step), where one
// cell is measured twice at one world size, and where nothing pairs at all.
std::vector<ScalingRow> scaling(const std::vector<NamedDataset>& datasets);

// The rows as a Markdown table, with what the factor means.
std::string format_scaling(const std::vector<ScalingRow>& rows);

} // namespace layerbench::dataset
