// SPDX-License-Identifier: MIT
#pragma once

// What a run measures, apart from how: the matrix (layers x batch sizes x corners), the cells of it that
// this process takes and their order, and the order the dataset keeps them in. As ninja keeps its plan
// apart from its build log, the plan knows nothing of the checkpoint or the device.

#include "dataset/dataset.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::bench {

struct Matrix
{
  std::vector<std::string> layers;
  std::vector<int> batch_sizes;
  std::vector<dataset::Axes> corners;
};

// The cells of `matrix` still to measure: in the order `order_seed` shuffles the whole matrix to
// (dataset/rounds.hpp; matrix order when absent), only those in `shard_cells` where it is given (a
// shard's, as its plan gave them), and not those `done` already holds (a resumed checkpoint's). A
// shuffled order is a function of the whole matrix and the seed, so a resumed round keeps it.
std::vector<dataset::CellKey> plan_cells(const Matrix& matrix,
                                         std::optional<uint32_t> order_seed,
                                         const std::optional<std::vector<dataset::CellKey>>& shard_cells,
                                         const dataset::Dataset& done);

// Puts `cells` in matrix order, whatever order resuming, sharding and shuffling left them in.
void sort_in_matrix_order(const Matrix& matrix, std::vector<dataset::Cell>& cells);

} // namespace layerbench::bench
