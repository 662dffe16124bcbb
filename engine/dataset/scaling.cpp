// SPDX-License-Identifier: MIT
#include "dataset/scaling.hpp"

#include "dataset/axes.hpp"
#include "dataset/diff.hpp"
#include "dataset/precision.hpp"
#include "util/error.hpp"
#include "util/format.hpp"
#include "util/text.hpp"

#include <cmath>
#include <map>
#include <tuple>

namespace layerbench::dataset {

namespace {

// A training step of a whole model, timed: what a factor can be computed from.
bool is_model_step(const Dataset& dataset, const Cell& cell)
{
  const auto* layer = find_layer(dataset, cell.layer);
  return cell.status == CellStatus::ok && cell.stats && cell.stats->median_ms > 0 && layer != nullptr
         && layer->kind == LayerKind::model && cell.axes[k_mode] == GradMode::train;
}

using ScalingKey = std::tuple<std::string, int, std::string, int>; // layer, batch per rank, corner, world size

struct Found
{
  const Cell* cell = nullptr;
  std::string file;
};

// What must be the same in every file for a factor to measure the ranks alone: the device and the torch
// release (a newer release's kernels or all-reduce would be read as scaling).
void check_one_setup(const std::vector<NamedDataset>& datasets)
{
  const auto& first = datasets.front();
  for (const auto& named : datasets) {
    const auto setting = [&](const char* what, const std::string& mine, const std::string& theirs, const char* rule) {
      if (mine != theirs) {
        throw Error(named.name + ": " + what + " \"" + theirs + "\", " + first.name + " " + what + " \"" + mine + "\"; " + rule);
      }
    };
    const auto* a = first.dataset->environment ? &*first.dataset->environment : nullptr;
    const auto* b = named.dataset->environment ? &*named.dataset->environment : nullptr;
    setting("measured on", a ? a->device.name : "", b ? b->device.name : "", "a scaling factor compares one device's runs");
    setting("with torch", a ? a->torch_version : "", b ? b->torch_version : "",
            "a scaling factor compares runs of one torch release");
  }
}

// A cell's world size as its own throughput counts it: every rank's batch per median step
// (results[].data_parallel). A world_size edited, or a data_parallel record dropped, disagrees with it.
void check_world_size(const NamedDataset& named, const Cell& cell)
{
  if (!cell.throughput_samples_per_s) {
    return;
  }
  const int world = cell.data_parallel ? cell.data_parallel->world_size : 1;
  const double ranks = *cell.throughput_samples_per_s * cell.stats->median_ms / 1000.0 / cell.batch_size;
  if (std::abs(ranks - world) <= 1e-6 * world) {
    return;
  }
  throw Error(named.name + ": " + describe_cell({cell.layer, cell.batch_size, cell.axes}) + " records world size "
              + std::to_string(world) + (cell.data_parallel ? "" : " (no data_parallel)")
              + ", but its throughput_samples_per_s is that of " + util::format_significant(ranks, 3) + " ranks of "
              + std::to_string(cell.batch_size) + " samples per " + util::format_significant(cell.stats->median_ms, 3)
              + " ms step; the file contradicts itself");
}

ScalingRow row_of(const Cell& single, const Cell& ranks)
{
  ScalingRow row;
  row.layer = ranks.layer;
  row.batch_per_rank = ranks.batch_size;
  row.axes = ranks.axes;
  row.world_size = ranks.data_parallel->world_size;
  row.single_ms = single.stats->median_ms;
  row.ranks_ms = ranks.stats->median_ms;
  row.single_throughput = row.batch_per_rank / (row.single_ms / 1000.0);
  row.ranks_throughput = row.world_size * row.batch_per_rank / (row.ranks_ms / 1000.0);
  row.factor = row.single_ms / row.ranks_ms;
  const auto one = median_interval(single, *single.stats);
  const auto many = median_interval(ranks, *ranks.stats);
  row.factor_low = one.low / many.high;
  row.factor_high = one.high / many.low;
  row.rounds = single.round_spread && ranks.round_spread;
  row.all_reduce_median_ms = ranks.data_parallel->all_reduce_median_ms;
  return row;
}

} // namespace

std::vector<ScalingRow> scaling(const std::vector<NamedDataset>& datasets)
{
  if (datasets.empty()) {
    throw Error("no files to pair");
  }
  check_one_setup(datasets);
  std::map<ScalingKey, Found> cells;
  std::vector<ScalingKey> order;
  for (const auto& named : datasets) {
    for (const auto& cell : named.dataset->results) {
      if (!is_model_step(*named.dataset, cell)) {
        continue;
      }
      check_world_size(named, cell);
      const ScalingKey key{cell.layer, cell.batch_size, label(cell.axes), cell.data_parallel ? cell.data_parallel->world_size : 1};
      const auto [at, fresh] = cells.emplace(key, Found{&cell, named.name});
      if (!fresh) {
        throw Error(named.name + ": " + describe_cell({cell.layer, cell.batch_size, cell.axes}) + " at world size "
                    + std::to_string(std::get<3>(key)) + " is measured in " + at->second.file + " too; give one of them");
      }
      order.push_back(key);
    }
  }
  std::vector<ScalingRow> rows;
  for (const auto& key : order) {
    const auto& [layer, batch, corner, world] = key;
    const auto single = cells.find(ScalingKey{layer, batch, corner, 1});
    if (world == 1 || single == cells.end()) {
      continue;
    }
    rows.push_back(row_of(*single->second.cell, *cells.at(key).cell));
  }
  if (rows.empty()) {
    throw Error("nothing to pair: no data-parallel training step in these files has a one-process twin (the same "
                "model, batch per rank and corner); give a run made with --world-size N and one of the same matrix "
                "from one process");
  }
  return rows;
}

std::string format_scaling(const std::vector<ScalingRow>& rows)
{
  std::string text = "| model | batch per rank | corner | ranks | one process (samples/s) | all ranks (samples/s) | "
                     "scaling factor (range) | all-reduce per step (ms) |\n|---|---|---|---|---|---|---|---|\n";
  for (const auto& row : rows) {
    const int figures = supported_figures(row.rounds ? std::optional<double>((row.factor_high - row.factor_low) / row.factor)
                                                     : std::nullopt);
    text += "| " + util::printable(row.layer) + " | " + std::to_string(row.batch_per_rank) + " | "
            + (row.axes.is_reference() ? std::string("reference") : label(row.axes)) + " | " + std::to_string(row.world_size)
            + " | " + format_figures(row.single_throughput, figures) + " | "
            + format_figures(row.ranks_throughput, figures) + " | " + format_figures(row.factor, figures)
            + " (" + format_figures(row.factor_low, figures) + "-" + format_figures(row.factor_high, figures)
            + ") | " + format_figures(row.all_reduce_median_ms, figures) + " |\n";
  }
  return text + "\nscaling factor = throughput(N) / (N x throughput(1)) = median step of one process / median step of N "
                "ranks, each on its own batch of the same size; 1 is perfect scaling. The range is what the two medians' "
                "intervals allow: bootstrap 95% intervals where both were measured in rounds, else the samples' quartiles.\n";
}

} // namespace layerbench::dataset
