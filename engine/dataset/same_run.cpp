// SPDX-License-Identifier: MIT
#include "dataset/same_run.hpp"

#include "dataset/io.hpp"

#include <nlohmann/json.hpp>

namespace layerbench::dataset {

namespace {

using OrderedJson = nlohmann::ordered_json;

// The parts of a dataset that must be equal in every part of one run, as JSON so that a new field is
// compared without touching this file.
OrderedJson common_part(const Dataset& dataset, const char* part, ShardFields shard_fields, MatrixFields matrix_fields)
{
  auto json = to_json(dataset);
  if (json.contains("methodology") && shard_fields == ShardFields::ignored) {
    json["methodology"].erase("shard");
    json["methodology"].erase("shard_cells");
  }
  if (json.contains("methodology") && matrix_fields == MatrixFields::ignored) {
    // inference_mode follows from the mode axis; the layers' descriptions are compared by name by the caller.
    for (const char* field : {"layers", "batch_sizes", "axes", "cells", "inference_mode"}) {
      json["methodology"].erase(field);
    }
    json["layers"] = OrderedJson::array();
  }
  json["provenance"].erase("command_line");
  if (json.contains("environment")) {
    // Each part times the device's peaks on its own, so they differ by noise; a merge keeps the fastest of each.
    json["environment"].erase("peaks");
    // Parts run one after another or side by side; the load around each differs, and a merge takes the highest.
    json["environment"].erase("load_average_start");
    json["environment"].erase("load_average_end");
    json["environment"].erase("other_cores_busy");
  }
  for (auto& layer : json["layers"]) {
    layer.erase("speed_class"); // relative to the part's own fastest layer; recomputed for the whole
    // Counted from the module once it is built: a run about to resume has not built it yet.
    layer.erase("params_counted");
  }
  return json.contains(part) ? json[part] : OrderedJson(nullptr);
}

// A value as a message quotes it: JSON, cut short.
std::string quoted_value(const OrderedJson& json, const std::string& pointer)
{
  const OrderedJson::json_pointer at(pointer);
  if (!json.contains(at)) {
    return "absent";
  }
  auto text = json.at(at).dump();
  constexpr size_t k_longest = 80;
  return text.size() <= k_longest ? text : text.substr(0, k_longest) + "...";
}

} // namespace

std::optional<RunDifference> run_difference(const Dataset& first, const Dataset& other, ShardFields shard_fields,
                                            MatrixFields matrix_fields)
{
  for (const char* part : {"schema_version", "kind", "environment", "methodology", "layers", "provenance", "units"}) {
    const auto mine = common_part(first, part, shard_fields, matrix_fields);
    const auto theirs = common_part(other, part, shard_fields, matrix_fields);
    if (mine == theirs) {
      continue;
    }
    // The first field that differs, so that the user knows which option or setting to line up.
    const auto patch = OrderedJson::diff(mine, theirs);
    const std::string inside = patch.empty() ? "" : patch.front().at("path").get<std::string>();
    return RunDifference{"/" + std::string(part) + inside, quoted_value(mine, inside), quoted_value(theirs, inside)};
  }
  return std::nullopt;
}

} // namespace layerbench::dataset
