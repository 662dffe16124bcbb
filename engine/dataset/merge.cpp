// SPDX-License-Identifier: MIT
#include "dataset/merge.hpp"

#include "dataset/io.hpp"
#include "dataset/shard.hpp"
#include "dataset/speed_class.hpp"
#include "dataset/validate.hpp"
#include "util/error.hpp"

#include <map>
#include <set>
#include <tuple>

namespace layerbench::dataset {

namespace {

using OrderedJson = nlohmann::ordered_json;

// The parts of a dataset that must be equal in every shard, as JSON so that a new field is
// compared without touching this file.
OrderedJson common_part(const Dataset& dataset, const char* part)
{
  auto json = to_json(dataset);
  if (json.contains("methodology")) {
    json["methodology"].erase("shard");
  }
  json["provenance"].erase("command_line");
  for (auto& layer : json["layers"]) {
    layer.erase("speed_class"); // relative to the shard's own fastest layer; recomputed after the merge
  }
  return json.contains(part) ? json[part] : OrderedJson(nullptr);
}

void require_same(const ShardFile& first, const ShardFile& other)
{
  for (const char* part : {"schema_version", "kind", "environment", "methodology", "layers", "provenance", "units"}) {
    if (common_part(first.dataset, part) != common_part(other.dataset, part)) {
      throw Error("merge: " + other.origin + ": /" + part + " differs from " + first.origin
                  + "; only shards of one run (same machine setup, options and build) can be merged");
    }
  }
}

Shard shard_of(const ShardFile& file)
{
  if (file.dataset.kind != Kind::measured || !file.dataset.methodology) {
    throw Error("merge: " + file.origin + ": not a measured run");
  }
  const auto& text = file.dataset.methodology->shard;
  try {
    return text.empty() ? Shard{} : parse_shard(text);
  } catch (const Error&) {
    throw Error("merge: " + file.origin + ": /methodology/shard: \"" + text + "\" is not I/N");
  }
}

void require_all_shards(const std::vector<ShardFile>& shards)
{
  std::map<int, std::string> seen;
  const int count = shard_of(shards.front()).count;
  for (const auto& file : shards) {
    const auto shard = shard_of(file);
    if (shard.count != count) {
      throw Error("merge: " + file.origin + " is shard " + to_string(shard) + " but " + shards.front().origin
                  + " splits the matrix in " + std::to_string(count));
    }
    const auto [where, fresh] = seen.emplace(shard.index, file.origin);
    if (!fresh) {
      throw Error("merge: " + file.origin + " and " + where->second + " are both shard " + to_string(shard));
    }
  }
  for (int index = 1; index <= count; ++index) {
    if (seen.count(index) == 0) {
      throw Error("merge: shard " + std::to_string(index) + "/" + std::to_string(count) + " is missing");
    }
  }
}

} // namespace

Dataset merge(const std::vector<ShardFile>& shards, const std::string& command_line)
{
  if (shards.empty()) {
    throw UsageError("merge: give the shard files to merge");
  }
  require_all_shards(shards);
  std::map<std::tuple<std::string, int, Axes>, std::pair<const Cell*, std::string>> cells;
  for (const auto& file : shards) {
    require_same(shards.front(), file);
    for (const auto& cell : file.dataset.results) {
      const auto [where, fresh]
        = cells.emplace(std::make_tuple(cell.layer, cell.batch_size, cell.axes), std::make_pair(&cell, file.origin));
      if (!fresh) {
        throw Error("merge: cell " + cell.layer + " at batch size " + std::to_string(cell.batch_size)
                    + (cell.axes.is_reference() ? "" : " (" + label(cell.axes) + ")") + " is in both "
                    + where->second.second + " and " + file.origin);
      }
    }
  }
  Dataset merged = shards.front().dataset;
  merged.methodology->shard.clear();
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
