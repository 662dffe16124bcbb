// SPDX-License-Identifier: MIT
#pragma once

// Shapes from the user (issue 37 item 3, docs/catalog.md "Shapes from the user"): a layer of the catalog
// at other parameters, named and parsed as "Linear(in=4096,out=11008,seq=2048)". Each layer type has one
// table of named parameters (user_shapes.cpp), which the parser, the canonical name, the dataset's record
// of the parameters and the checks of a shape that cannot be built all read. Torch-free.

#include "catalog/catalog.hpp"

#include <optional>
#include <string>
#include <vector>

namespace layerbench::bench {

// A layer's named parameter and its value, as the user writes it and the dataset records it.
struct NamedValue
{
  std::string name;
  double value = 0;
};

// One parameter of a layer type: its name, its default and what it means, for `layerbench layers --parameters`.
struct ParameterInfo
{
  std::string name;
  double default_value = 0;
  bool integer = true;
  std::string meaning;
  int64_t minimum = 1; // the smallest value that builds
};

// The parameters of the catalog layer `layer` ("Linear"), in order; throws UsageError for a name that is
// not a layer of the catalog (a model has no parameters a user may set).
std::vector<ParameterInfo> parameters_of(const std::string& layer);

// Every parameter of an entry's shape with its value and the catalog layer's name, as the dataset records
// them (layers[].shape), by parameter name (the order a file reads back in); nullopt for a model or a
// model's layer.
std::optional<dataset::LayerParameters> parameters_record(const shapes::LayerShape& shape);

// The canonical name of `layer` at `values`: the layer's own name where every value is its default,
// else "Linear(in=4096,out=11008,seq=2048)" with the values that differ from the defaults, in the table's
// order. Throws UsageError naming the layer and the parameter for an unknown parameter, a value that is
// not a whole number where one is needed, or a shape that cannot be built (a kernel larger than its
// input, heads that do not divide the width, ...), before anything is built or measured.
std::string shaped_name(const std::string& layer, const std::vector<NamedValue>& values);

// The entry of a name with parameters ("Linear(in=4096,seq=2048)", any order): the layer's entry at
// those parameters, named by its canonical name. nullopt for a name without '('. Throws UsageError as
// shaped_name does, and for text that is not NAME(key=value,...).
std::optional<LayerSpec> shaped_entry(const std::string& name);

// `--layers` text: a comma-separated list of items, each a layer or model of the catalog, optionally
// with parameters in parentheses and axes after '@' whose values are crossed:
//   "Conv2d,Linear(in=4096,out=11008)@seq=2048,8192"  ->  Conv2d, Linear(in=4096,out=11008,seq=2048),
//                                                         Linear(in=4096,out=11008,seq=8192)
//   "MultiheadAttention@seq=128,256@heads=4,8"        ->  four entries, seq outermost
// After an axis, a comma followed by a number continues its values; one followed by a name starts the
// next item. Returns canonical names in the order given; throws UsageError naming `option` and the item.
std::vector<std::string> expand_layer_list(const std::string& text, const std::string& option);

// One item of a suite file or of the list above, already split: a layer, its fixed parameters and its
// axes (each a parameter and its values), crossed in order with the first axis outermost.
struct ShapeSweep
{
  std::string layer;
  std::vector<NamedValue> fixed;
  std::vector<std::pair<std::string, std::vector<double>>> axes;
};

std::vector<std::string> expand(const ShapeSweep& sweep);

} // namespace layerbench::bench
