// SPDX-License-Identifier: MIT
#include "dataset/dataset.hpp"

#include <algorithm>

namespace layerbench::dataset {

const Layer* find_layer(const Dataset& dataset, const std::string& name)
{
  for (const auto& layer : dataset.layers) {
    if (layer.name == name) {
      return &layer;
    }
  }
  return nullptr;
}

const PeakRate* find_compute_peak(const Peaks& peaks, const std::string& precision)
{
  for (const auto& peak : peaks.compute) {
    if (peak.name == precision) {
      return &peak;
    }
  }
  return nullptr;
}

const Cell* find_cell(const Dataset& dataset, const std::string& layer, int batch_size)
{
  return find_cell(dataset, layer, batch_size, Axes{});
}

const Cell* find_cell(const Dataset& dataset, const std::string& layer, int batch_size, const Axes& axes)
{
  for (const auto& cell : dataset.results) {
    if (cell.layer == layer && cell.batch_size == batch_size && cell.axes == axes) {
      return &cell;
    }
  }
  return nullptr;
}

bool has_axes(const Dataset& dataset)
{
  return std::any_of(dataset.results.begin(), dataset.results.end(),
                     [](const Cell& cell) { return !cell.axes.is_reference(); });
}

std::string describe_cell(const CellKey& key)
{
  return key.layer + " at batch size " + std::to_string(key.batch_size)
         + (key.axes.is_reference() ? "" : " (" + label(key.axes) + ")");
}

std::string to_string(Kind kind)
{
  return kind == Kind::measured ? "measured" : "published-reference";
}

std::string to_string(CellStatus status) { return status == CellStatus::ok ? "ok" : "skipped"; }

std::string to_string(LayerMode mode) { return mode == LayerMode::eval ? "eval" : "train"; }

std::string to_string(LayerKind kind)
{
  switch (kind) {
  case LayerKind::layer:
    return "layer";
  case LayerKind::model:
    return "model";
  case LayerKind::model_layer:
    return "model_layer";
  }
  return "layer";
}

std::string to_string(const SchemaVersion& version)
{
  return std::to_string(version.major) + "." + std::to_string(version.minor) + "."
         + std::to_string(version.patch);
}

std::string to_string(const CpuIdentity& cpu)
{
  std::string text = cpu.vendor;
  const std::pair<const char*, const std::optional<int>&> numbers[] = {
    {" family ", cpu.family}, {" model ", cpu.model}, {" stepping ", cpu.stepping}};
  for (const auto& [name, value] : numbers) {
    if (value) {
      text += name + std::to_string(*value);
    }
  }
  if (!cpu.aten_capability.empty()) {
    text += "; ATen kernels " + cpu.aten_capability;
  }
  text += "; flags";
  if (cpu.isa.empty()) {
    text += " none of the vector extensions recorded";
  }
  for (const auto& flag : cpu.isa) {
    text += " " + flag;
  }
  return text;
}

std::string source_address(const Source& source)
{
  return source.url.empty() ? "address not known: the copy LayerBench transcribed does not give it" : source.url;
}

} // namespace layerbench::dataset
