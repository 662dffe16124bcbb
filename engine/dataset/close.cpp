// SPDX-License-Identifier: MIT
#include "dataset/close.hpp"

#include "dataset/validate.hpp"
#include "util/error.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace layerbench::dataset {

namespace {

void require_reason(const std::string& reason)
{
  if (std::all_of(reason.begin(), reason.end(), [](unsigned char c) { return c == ' ' || c == '\t'; })) {
    throw UsageError("--reason: say why the run cannot be continued (it becomes every missing cell's skip reason)");
  }
  if (std::any_of(reason.begin(), reason.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; })) {
    throw UsageError("--reason: holds a control character; give plain text");
  }
}

} // namespace

Dataset close_unfinished(Dataset run, const std::string& reason)
{
  require_reason(reason);
  if (run.kind != Kind::measured) {
    throw Error("is not a measured run: only a run's checkpoint can be closed");
  }
  if (!run.methodology) {
    throw Error("has no methodology: its declared matrix is unknown");
  }
  if (run.rounds) {
    throw Error("is a run in rounds: continue it with run --rounds --resume, or join its finished rounds with merge --rounds");
  }
  if (!run.methodology->shard.empty()) {
    throw Error("is one shard (" + run.methodology->shard + "): continue it with run --resume on a machine of its kind; "
                "merge joins whole shards only");
  }
  std::map<std::tuple<std::string, int, Axes>, Cell> measured;
  for (auto& cell : run.results) {
    const auto key = std::make_tuple(cell.layer, cell.batch_size, cell.axes);
    if (!measured.emplace(key, std::move(cell)).second) {
      throw Error("holds " + describe_cell({std::get<0>(key), std::get<1>(key), std::get<2>(key)}) + " twice");
    }
  }
  if (measured.empty()) {
    throw Error("measured no cell: there is nothing to keep");
  }
  const auto matrix = declared_matrix(run);
  std::vector<Cell> results;
  results.reserve(matrix.size());
  size_t missing = 0;
  for (const auto& key : matrix) {
    const auto found = measured.find({key.layer, key.batch_size, key.axes});
    if (found != measured.end()) {
      results.push_back(std::move(found->second));
      measured.erase(found);
      continue;
    }
    Cell skipped;
    skipped.layer = key.layer;
    skipped.batch_size = key.batch_size;
    skipped.axes = key.axes;
    skipped.status = CellStatus::skipped;
    skipped.skip_reason = "not measured: " + reason;
    results.push_back(std::move(skipped));
    ++missing;
  }
  if (!measured.empty()) {
    const auto& [layer, batch, axes] = measured.begin()->first;
    throw Error("holds " + describe_cell({layer, batch, axes}) + ", which its declared matrix does not");
  }
  if (missing == 0) {
    throw Error("lacks no cell of its declared matrix: there is nothing to close (validate and publish it as it is)");
  }
  run.results = std::move(results);
  return run;
}

} // namespace layerbench::dataset
