// SPDX-License-Identifier: MIT
#include "catalog/models/layer_sum.hpp"

#include "catalog/models/entries.hpp"
#include "util/error.hpp"
#include "util/format.hpp"
#include "util/suggest.hpp"

#include <algorithm>

namespace layerbench::bench::models {

std::string use_name(const std::string& model, int use) { return model + "/" + std::to_string(use); }

LayerSpec layer_sum_entry(const std::string& model, int index, const ModelUse& use)
{
  const auto& shape = use.shape;
  LayerSpec spec;
  spec.name = use_name(model, index);
  spec.module = use_module(shape.op);
  spec.config = use.use.config;
  spec.input_shape = use_input_shape(shape);
  const auto params_text = use_params_text(shape);
  spec.params_formula = params_text.formula;
  spec.params_values = params_text.values;
  const auto params = use_params(shape);
  spec.params = [params] { return params; };
  const double matmul = use.use.matmul_flops_per_sample, elementwise = use.use.elementwise_flops_per_sample;
  spec.matmul_flops = [matmul] { return matmul; };
  spec.elementwise_flops = [elementwise] { return elementwise; };
  spec.flops_formula = "the model's inventory (" + model + "'s layers[].contains[" + std::to_string(index) + "])";
  spec.flops_values = util::format_fixed(matmul + elementwise, 0);
  spec.dispatch = "the ATen operators that " + model + "'s forward runs for this layer (bench/models/layer_sum.hpp)";
  spec.rank = shape.input.size() == 3 ? InputRank::four_d : InputRank::other;
  spec.kind = dataset::LayerKind::model_layer;
  spec.part_of = dataset::ModelPart{model, index, use.use.count};
  return spec;
}

const std::vector<LayerSpec>& layer_sum_catalog()
{
  static const std::vector<LayerSpec> entries = [] {
    std::vector<LayerSpec> all;
    for (const auto& model : model_catalog()) {
      const auto uses = model_uses(model.name);
      for (size_t i = 0; i < uses.size(); ++i) {
        all.push_back(layer_sum_entry(model.name, static_cast<int>(i), uses[i]));
      }
    }
    return all;
  }();
  return entries;
}

std::vector<std::string> layer_sum_layers(const std::string& model)
{
  std::vector<std::string> names;
  for (const auto& spec : model_catalog()) {
    names.push_back(spec.name);
  }
  if (std::find(names.begin(), names.end(), model) == names.end()) {
    std::string message = "--layer-sum: '" + model + "' is not a model";
    if (const auto hint = util::closest(model, names, 4)) {
      message += ", did you mean '" + *hint + "'?";
    }
    throw UsageError(message + " (see 'layerbench layers --models')");
  }
  std::vector<std::string> layers{model};
  for (const auto& spec : layer_sum_catalog()) {
    if (spec.part_of && spec.part_of->model == model) {
      layers.push_back(spec.name);
    }
  }
  return layers;
}

} // namespace layerbench::bench::models
