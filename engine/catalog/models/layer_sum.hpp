// SPDX-License-Identifier: MIT
#pragma once

// A model's layer sum (issue 25, docs/models.md "The layer sum"): each distinct layer configuration of
// the model's inventory as a catalog entry of its own, named "<model>/<use>" after its index in the
// model's layers[].contains, built at the model's own shapes, so that a run measures the model and its
// layers side by side and the site sets the model's time beside the sum of count x layer time.

#include "catalog/catalog.hpp"
#include "catalog/models/model_use.hpp"

#include <string>
#include <vector>

namespace layerbench::bench::models {

// "ResNet50/3": use 3 of ResNet50.
std::string use_name(const std::string& model, int use);

// The entry of use `index` of `model`: its config is the inventory's text, its FLOPs the inventory's,
// its kind model_layer and its part_of the model, the use's index and its count.
LayerSpec layer_sum_entry(const std::string& model, int index, const ModelUse& use);

// Every model's uses as entries (find_layer finds them by name).
const std::vector<LayerSpec>& layer_sum_catalog();

// What `run --layer-sum MODEL` measures: the model, then each of its uses in inventory order. An unknown
// name is a UsageError with the closest model's name.
std::vector<std::string> layer_sum_layers(const std::string& model);

} // namespace layerbench::bench::models
