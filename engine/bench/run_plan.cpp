// SPDX-License-Identifier: MIT
#include "bench/run_plan.hpp"

#include "dataset/rounds.hpp"

#include <algorithm>
#include <tuple>

namespace layerbench::bench {

namespace {

std::vector<dataset::CellKey> matrix_cells(const Matrix& matrix)
{
  std::vector<dataset::CellKey> cells;
  for (const auto& layer : matrix.layers) {
    for (int batch : matrix.batch_sizes) {
      for (const auto& corner : matrix.corners) {
        cells.push_back({layer, batch, corner});
      }
    }
  }
  return cells;
}

bool in_shard(const dataset::CellKey& cell, const std::optional<std::vector<dataset::CellKey>>& shard_cells)
{
  return !shard_cells || std::any_of(shard_cells->begin(), shard_cells->end(), [&](const dataset::CellKey& key) {
           return key.layer == cell.layer && key.batch_size == cell.batch_size && key.axes == cell.axes;
         });
}

} // namespace

std::vector<dataset::CellKey> plan_cells(const Matrix& matrix,
                                         std::optional<uint32_t> order_seed,
                                         const std::optional<std::vector<dataset::CellKey>>& shard_cells,
                                         const dataset::Dataset& done)
{
  const auto cells = matrix_cells(matrix);
  const auto order = order_seed ? dataset::shuffled_order(cells.size(), *order_seed) : dataset::shuffled_order(0, 0);
  std::vector<dataset::CellKey> todo;
  for (size_t i = 0; i < cells.size(); ++i) {
    const auto& cell = cells[order.empty() ? i : order[i]];
    if (in_shard(cell, shard_cells) && !dataset::find_cell(done, cell.layer, cell.batch_size, cell.axes)) {
      todo.push_back(cell);
    }
  }
  return todo;
}

void sort_in_matrix_order(const Matrix& matrix, std::vector<dataset::Cell>& cells)
{
  const auto index = [](const auto& values, const auto& value) {
    return std::find(values.begin(), values.end(), value) - values.begin();
  };
  const auto position = [&](const dataset::Cell& cell) {
    return std::make_tuple(index(matrix.layers, cell.layer), index(matrix.batch_sizes, cell.batch_size),
                           index(matrix.corners, cell.axes));
  };
  std::stable_sort(cells.begin(), cells.end(), [&](const auto& a, const auto& b) { return position(a) < position(b); });
}

} // namespace layerbench::bench
