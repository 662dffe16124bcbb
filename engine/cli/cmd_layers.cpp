// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "util/error.hpp"

#if LAYERBENCH_WITH_TORCH

#include "catalog/catalog.hpp"
#include "catalog/user_shapes.hpp"
#include "bench/measure.hpp"
#include "dataset/axes.hpp"
#include "dataset/io.hpp"
#include "util/format.hpp"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <iostream>

namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

// The axes' values as the files spell them, for the copies kept outside C++ (the Python twins, the JSON
// Schema): tests/catalog_copies_check.py reads them here rather than from the source text.
void print_axes(const std::string& format)
{
  if (format == "json") {
    auto axes = nlohmann::ordered_json::array();
    for (const auto& info : dataset::axis_table()) {
      axes.push_back({{"name", info.name}, {"values", info.values}});
    }
    std::cout << axes.dump(2) << "\n";
    return;
  }
  for (const auto& info : dataset::axis_table()) {
    std::string values;
    for (const auto& value : info.values) {
      values += (values.empty() ? "" : ",") + value;
    }
    std::cout << info.name << "=" << values << "\n";
  }
}

// Each layer's parameters that shapes from the user may set (catalog/user_shapes.hpp), with their defaults.
void print_parameters(const std::string& format)
{
  auto layers = nlohmann::ordered_json::array();
  std::vector<const bench::LayerSpec*> all;
  for (const auto* entries : {&bench::catalog(), &bench::todays_layers()}) {
    for (const auto& spec : *entries) {
      all.push_back(&spec);
    }
  }
  for (const auto* layer : all) {
    const auto& spec = *layer;
    auto parameters = nlohmann::ordered_json::array();
    std::string line;
    for (const auto& info : bench::parameters_of(spec.name)) {
      parameters.push_back({{"name", info.name},
                            {"default", info.integer ? nlohmann::ordered_json(static_cast<int64_t>(info.default_value))
                                                     : nlohmann::ordered_json(info.default_value)},
                            {"integer", info.integer},
                            {"minimum", info.minimum},
                            {"meaning", info.meaning}});
      line += "    " + info.name + " = " + (info.integer ? std::to_string(static_cast<int64_t>(info.default_value)) : util::format_significant(info.default_value, 3)) + "  (" + info.meaning + ")\n";
    }
    layers.push_back({{"layer", spec.name}, {"parameters", std::move(parameters)}});
    if (format == "text") {
      std::cout << spec.name << "\n" << line;
    }
  }
  if (format == "json") {
    std::cout << layers.dump(2) << "\n";
  } else {
    std::cout << "\nExample: layerbench run --layers 'Linear(in=4096,out=11008)@seq=2048,8192'\n";
  }
}

} // namespace

int cmd_layers(const Arguments& arguments)
{
  po::options_description options("layers options");
  options.add_options()("format", po::value<std::string>()->default_value("text"), "text or json")(
    "models", "also the whole models (ResNet50, BertBase, BertLarge and the tests' tiny ones)")(
    "axes", "the performance-setting axes and their values instead of the layers (the first is the reference)")(
    "parameters", "each layer's parameters that --layers 'NAME(key=value,...)' may set, with their defaults")(
    "today", "the layers of today's models beyond the reference page (RMSNorm, GELU, SiLU, attention kernels, "
             "depthwise and 3-D convolutions, SwiGLU) instead of the fourteen")(
    "layers", po::value<std::string>(),
    "these layers instead of the catalog's, with parameters and axes as run --layers takes them, "
    "\"Linear(in=4096,out=11008)@seq=2048,8192\"");
  const auto values = parse("layers", "[--format text|json] [--models | --axes | --parameters | --today | --layers LIST]", options, arguments);
  if (!values) {
    return 0;
  }
  const auto format = (*values)["format"].as<std::string>();
  if (format != "text" && format != "json") {
    throw UsageError("layers: --format: '" + format + "' is not one of text, json");
  }
  if (values->count("axes")) {
    if (values->count("models")) {
      throw UsageError("layers: --axes and --models: give one of them");
    }
    print_axes(format);
    return 0;
  }
  if (values->count("parameters")) {
    if (values->count("models") || values->count("layers")) {
      throw UsageError("layers: --parameters lists every layer's; give it alone");
    }
    print_parameters(format);
    return 0;
  }
  dataset::Dataset described;
  if (values->count("layers")) {
    for (const auto& name : bench::expand_layer_list((*values)["layers"].as<std::string>(), "layers: --layers")) {
      const auto& spec = bench::find_layer(name);
      auto layer = bench::describe(spec);
      if (spec.kind == dataset::LayerKind::layer) {
        layer.params_counted = bench::count_parameters(spec);
      }
      described.layers.push_back(layer);
    }
  } else {
    for (const auto& spec : values->count("today") ? bench::todays_layers() : bench::catalog()) {
      auto layer = bench::describe(spec);
      layer.params_counted = bench::count_parameters(spec);
      described.layers.push_back(layer);
    }
  }
  if (values->count("models")) {
    for (const auto& spec : bench::model_catalog()) {
      described.layers.push_back(bench::describe(spec)); // a model's count is its formula's value
    }
  }
  if (format == "json") {
    std::cout << dataset::to_json(described)["layers"].dump(2) << "\n";
    return 0;
  }
  std::cout << std::left << std::setw(20) << "layer" << std::setw(38) << "config" << std::right << std::setw(12)
            << "params" << std::setw(10) << "FLOPs" << "  mode\n";
  for (const auto& layer : described.layers) {
    std::cout << std::left << std::setw(20) << layer.name << std::setw(38) << layer.config << std::right
              << std::setw(12) << util::format_thousands(*layer.params) << std::setw(10)
              << util::format_si(*layer.flops_per_sample) << "  " << dataset::to_string(layer.mode) << "\n"
              << "    params = " << layer.params_formula << "\n"
              << "    FLOPs per sample = " << layer.flops_formula << "\n"
              << (layer.bytes_formula.empty() ? "" : "    bytes moved (minimum) = " + layer.bytes_formula + "\n");
  }
  return 0;
}

} // namespace layerbench::cli

#else

namespace layerbench::cli {

int cmd_layers(const Arguments&)
{
  throw Error("layers: this layerbench was built without LibTorch (LAYERBENCH_WITH_TORCH=OFF)");
}

} // namespace layerbench::cli

#endif
