// SPDX-License-Identifier: MIT
#include "dataset/merge.hpp"

#include "dataset/io.hpp"
#include "dataset/same_run.hpp"
#include "dataset/shard.hpp"
#include "dataset/speed_class.hpp"
#include "dataset/validate.hpp"
#include "util/error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>

namespace layerbench::dataset {

namespace {

void require_same(const ShardFile& first, const ShardFile& other)
{
  const auto difference = run_difference(first.dataset, other.dataset, ShardFields::ignored);
  if (!difference) {
    return;
  }
  throw Error(other.origin + ": " + difference->pointer + " differs from " + first.origin + " (" + difference->other_value
              + " here, " + difference->first_value + " there); only shards of one run (same machine setup, options "
              "and build) can be merged");
}

Shard shard_of(const ShardFile& file)
{
  if (file.dataset.kind != Kind::measured || !file.dataset.methodology) {
    throw Error(file.origin + ": not a measured run");
  }
  const auto& text = file.dataset.methodology->shard;
  try {
    return text.empty() ? Shard{} : parse_shard(text);
  } catch (const Error&) {
    throw Error(file.origin + ": /methodology/shard: \"" + text + "\" is not I/N");
  }
}

void require_all_shards(const std::vector<ShardFile>& shards)
{
  std::map<int, std::string> seen;
  const int count = shard_of(shards.front()).count;
  for (const auto& file : shards) {
    const auto shard = shard_of(file);
    if (shard.count != count) {
      throw Error(file.origin + " is shard " + to_string(shard) + " but " + shards.front().origin
                  + " splits the matrix in " + std::to_string(count));
    }
    const auto [where, fresh] = seen.emplace(shard.index, file.origin);
    if (!fresh) {
      throw Error(file.origin + " and " + where->second + " are both shard " + to_string(shard));
    }
  }
  for (int index = 1; index <= count; ++index) {
    if (seen.count(index) == 0) {
      throw Error("shard " + std::to_string(index) + "/" + std::to_string(count) + " is missing");
    }
  }
}

// Shards planned by cost (1.3.0) list their cells: together they must be the declared matrix, each
// cell once, or the files come from different plans.
void require_one_plan(const std::vector<ShardFile>& shards, const std::vector<CellKey>& matrix)
{
  if (shards.front().dataset.methodology->shard_plan.empty()) {
    return; // round-robin shards (before 1.3.0) follow from their I/N alone
  }
  std::map<std::tuple<std::string, int, Axes>, std::string> planned;
  for (const auto& file : shards) {
    for (const auto& key : file.dataset.methodology->shard_cells) {
      const auto [where, fresh] = planned.emplace(std::make_tuple(key.layer, key.batch_size, key.axes), file.origin);
      if (!fresh) {
        throw Error("the plans of " + where->second + " and " + file.origin + " both hold cell " + describe_cell(key)
                    + "; only shards of one plan can be merged");
      }
    }
  }
  for (const auto& key : matrix) {
    if (planned.count({key.layer, key.batch_size, key.axes}) == 0) {
      throw Error("no shard's plan holds cell " + describe_cell(key) + "; only shards of one plan can be merged");
    }
  }
}

// The busiest load seen by any shard, so that the merged run warns as its busiest part would.
std::optional<double> highest(const std::vector<ShardFile>& shards, std::optional<double> Environment::*field)
{
  std::optional<double> result;
  for (const auto& file : shards) {
    if (!file.dataset.environment) {
      continue;
    }
    const auto& value = (*file.dataset.environment).*field;
    if (value && (!result || *value > *result)) {
      result = value;
    }
  }
  return result;
}

void keep_faster(PeakRate& kept, const PeakRate& other)
{
  if (other.rate > kept.rate) {
    kept = other;
  }
}

// Each shard measured the device's peaks in its own process and moment; a roof is the most the device
// was seen to give, so the merge keeps, per peak, the measurement with the highest rate. A peak that
// only some shards measured is kept as found.
void keep_fastest_peaks(Peaks& kept, const Peaks& other)
{
  for (const auto& peak : other.compute) {
    const auto found = std::find_if(kept.compute.begin(), kept.compute.end(),
                                    [&](const PeakRate& candidate) { return candidate.name == peak.name; });
    if (found == kept.compute.end()) {
      kept.compute.push_back(peak);
    } else {
      keep_faster(*found, peak);
    }
  }
  if (other.memory) {
    if (!kept.memory) {
      kept.memory = other.memory;
    } else {
      keep_faster(*kept.memory, *other.memory);
    }
  }
  for (const auto& cache : other.caches) {
    const auto found = std::find_if(kept.caches.begin(), kept.caches.end(),
                                    [&](const CachePeak& candidate) { return candidate.level == cache.level; });
    if (found == kept.caches.end()) {
      kept.caches.push_back(cache);
    } else if (found->size_bytes == cache.size_bytes) {
      keep_faster(found->triad, cache.triad);
    }
  }
}

// The environment of parts measured one after another: the highest load any part saw, so that the
// whole warns as its busiest part would, and per peak the fastest measurement.
void join_environments(const std::vector<ShardFile>& parts, Dataset& joined)
{
  if (!joined.environment) {
    return;
  }
  joined.environment->load_average_start = highest(parts, &Environment::load_average_start);
  joined.environment->load_average_end = highest(parts, &Environment::load_average_end);
  joined.environment->other_cores_busy = highest(parts, &Environment::other_cores_busy);
  for (const auto& file : parts) {
    const auto& environment = file.dataset.environment;
    if (environment && environment->peaks) {
      if (!joined.environment->peaks) {
        joined.environment->peaks = environment->peaks;
      } else {
        keep_fastest_peaks(*joined.environment->peaks, *environment->peaks);
      }
    }
  }
}

// A run that `merge --union` can take: measured, whole and in one process.
void require_whole_run(const ShardFile& file)
{
  const auto& d = file.dataset;
  if (d.kind != Kind::measured || !d.methodology) {
    throw Error(file.origin + ": not a measured run");
  }
  if (!d.methodology->shard.empty()) {
    throw Error(file.origin + ": is one shard (" + d.methodology->shard + "); merge the shards first");
  }
  if (d.rounds) {
    throw Error(file.origin + ": is a run in rounds; --union joins single-process runs");
  }
  if (!d.provenance.parts.empty()) {
    throw Error(file.origin + ": is already a union of " + std::to_string(d.provenance.parts.size())
                + " runs; join the runs themselves");
  }
}

// The layers of all runs, in first-seen order; a layer described by two runs must be described alike.
std::vector<Layer> union_layers(const std::vector<ShardFile>& runs)
{
  std::vector<Layer> layers;
  std::map<std::string, std::string> origin;
  for (const auto& file : runs) {
    for (const auto& layer : file.dataset.layers) {
      const auto found = std::find_if(layers.begin(), layers.end(), [&](const Layer& kept) { return kept.name == layer.name; });
      if (found == layers.end()) {
        layers.push_back(layer);
        origin[layer.name] = file.origin;
        continue;
      }
      auto mine = layer_to_json(*found);
      auto theirs = layer_to_json(layer);
      for (auto* json : {&mine, &theirs}) {
        json->erase("speed_class"); // relative to each run's fastest layer; recomputed for the whole
      }
      if (mine != theirs) {
        const auto patch = nlohmann::ordered_json::diff(mine, theirs);
        throw Error(file.origin + ": layer " + layer.name + " is described otherwise than in " + origin[layer.name] + " (at "
                    + (patch.empty() ? std::string("/") : patch.front().at("path").get<std::string>()) + ")");
      }
    }
  }
  return layers;
}

} // namespace

Dataset union_runs(const std::vector<ShardFile>& runs, const std::string& command_line)
{
  if (runs.size() < 2) {
    throw Error("--union: give 2 or more runs, not " + std::to_string(runs.size()));
  }
  for (const auto& file : runs) {
    require_whole_run(file);
    const auto difference = run_difference(runs.front().dataset, file.dataset, ShardFields::compared, MatrixFields::ignored);
    if (difference) {
      throw Error(file.origin + ": " + difference->pointer + " differs from " + runs.front().origin + " (" + difference->other_value
                  + " here, " + difference->first_value + " there); only runs of one device, build and method can be joined");
    }
  }
  Dataset joined = runs.front().dataset;
  joined.schema_version = k_schema_version; // methodology.cells and provenance.parts are 1.9.0
  joined.layers = union_layers(runs);
  auto& m = *joined.methodology;
  m.layers.clear();
  for (const auto& layer : joined.layers) {
    m.layers.push_back(layer.name);
  }
  std::set<int> batch_sizes;
  std::array<std::set<int>, k_max_axes> axis_values;
  std::map<std::tuple<std::string, int, Axes>, std::pair<const Cell*, std::string>> cells;
  for (const auto& file : runs) {
    const auto& part = *file.dataset.methodology;
    batch_sizes.insert(part.batch_sizes.begin(), part.batch_sizes.end());
    for (size_t axis = 0; axis < axis_table().size(); ++axis) {
      const auto& values = part.axes.value_indices(axis);
      axis_values[axis].insert(values.begin(), values.end());
    }
    for (const auto& cell : file.dataset.results) {
      const auto [where, fresh]
        = cells.emplace(std::make_tuple(cell.layer, cell.batch_size, cell.axes), std::make_pair(&cell, file.origin));
      if (!fresh) {
        throw Error("cell " + describe_cell({cell.layer, cell.batch_size, cell.axes}) + " is in both " + where->second.second
                    + " and " + file.origin);
      }
    }
    joined.provenance.parts.push_back(file.dataset.provenance.command_line);
  }
  m.batch_sizes.assign(batch_sizes.begin(), batch_sizes.end());
  for (size_t axis = 0; axis < axis_table().size(); ++axis) {
    m.axes.set_value_indices(axis, {axis_values[axis].begin(), axis_values[axis].end()});
  }
  const auto modes = m.axes[k_mode];
  m.inference_mode = modes == std::vector<GradMode>{GradMode::inference_mode};
  // The product of the union in matrix order, kept where a run measured the cell.
  m.cells.clear();
  joined.results.clear();
  for (const auto& layer : m.layers) {
    for (int batch_size : m.batch_sizes) {
      for (const auto& corner : corners(m.axes)) {
        const auto found = cells.find({layer, batch_size, corner});
        if (found != cells.end()) {
          m.cells.push_back({layer, batch_size, corner});
          joined.results.push_back(*found->second.first);
        }
      }
    }
  }
  join_environments(runs, joined);
  joined.provenance.command_line = command_line;
  assign_speed_classes(joined);
  return joined;
}

Dataset merge(const std::vector<ShardFile>& shards, const std::string& command_line)
{
  if (shards.empty()) {
    throw Error("no shard files to merge");
  }
  require_all_shards(shards);
  std::map<std::tuple<std::string, int, Axes>, std::pair<const Cell*, std::string>> cells;
  for (const auto& file : shards) {
    require_same(shards.front(), file);
    for (const auto& cell : file.dataset.results) {
      const auto [where, fresh]
        = cells.emplace(std::make_tuple(cell.layer, cell.batch_size, cell.axes), std::make_pair(&cell, file.origin));
      if (!fresh) {
        throw Error("cell " + describe_cell({cell.layer, cell.batch_size, cell.axes}) + " is in both "
                    + where->second.second + " and " + file.origin);
      }
    }
  }
  Dataset merged = shards.front().dataset;
  merged.methodology->shard.clear();
  merged.methodology->shard_cells.clear();
  require_one_plan(shards, declared_matrix(merged));
  join_environments(shards, merged);
  merged.provenance.command_line = command_line;
  merged.results.clear();
  for (const auto& key : declared_matrix(merged)) {
    const auto found = cells.find({key.layer, key.batch_size, key.axes});
    if (found != cells.end()) {
      merged.results.push_back(*found->second.first);
      cells.erase(found);
    }
  }
  // Cells outside the declared matrix are kept, so that `validate` reports them rather than merge
  // dropping data silently.
  for (const auto& file : shards) {
    for (const auto& cell : file.dataset.results) {
      if (cells.count({cell.layer, cell.batch_size, cell.axes})) {
        merged.results.push_back(cell);
      }
    }
  }
  // A shard's classes are relative to its own fastest layer; only the whole matrix gives the real ones.
  assign_speed_classes(merged);
  return merged;
}

} // namespace layerbench::dataset
