// SPDX-License-Identifier: MIT
#include "bench/axes_plan.hpp"

#include "bench/torch_release.hpp"
#include "dataset/batch_sizes.hpp"
#include "util/error.hpp"

#include <algorithm>

namespace layerbench::bench {

using dataset::Axes;

namespace {

// Why an AOTInductor package cannot run `axes`, or nullopt. The exporter makes forward-only fp32
// contiguous graphs: autocast, the backward and channels_last inputs would need an export of their own.
std::optional<std::string> aoti_unsupported(const Axes& axes)
{
  const std::string what = "compiled=aot_inductor: the AOTInductor packages here are forward-only fp32 contiguous exports";
  if (axes[dataset::k_precision] != dataset::Precision::fp32) {
    return what + "; precision=" + dataset::to_string(axes[dataset::k_precision]) + " is not one";
  }
  if (axes[dataset::k_memory_format] != dataset::MemoryFormat::contiguous) {
    return what + "; memory_format=channels_last is not one";
  }
  if (axes[dataset::k_mode] == dataset::GradMode::train) {
    return what + "; mode=train needs a backward";
  }
  if (axes[dataset::k_cudnn_benchmark] != dataset::CudnnBenchmark::off) {
    return what + "; cudnn_benchmark=on does not reach the compiled kernels";
  }
  return std::nullopt;
}

// Why the torch.compile worker cannot run `axes` for this layer, or nullopt. It compiles the whole models'
// Python twins (bench/models/compiled_train.py) in their own layout, in inference mode or a training step.
std::optional<std::string> torch_compile_unsupported(const Axes& axes, const LayerTraits& layer)
{
  const std::string what = "compiled=torch_compile: ";
  if (!layer.model) {
    return what + "the Python worker compiles whole models; " + layer.name
           + " is a layer (its compiled corner is aot_inductor)";
  }
  if (axes[dataset::k_mode] == dataset::GradMode::no_grad) {
    return what + "the worker runs mode=inference_mode or train, not no_grad";
  }
  if (axes[dataset::k_memory_format] != dataset::MemoryFormat::contiguous) {
    return what + "the worker's inputs are contiguous";
  }
  if (axes[dataset::k_cudnn_benchmark] != dataset::CudnnBenchmark::off) {
    return what + "cudnn_benchmark=on is not set in the worker";
  }
  return std::nullopt;
}

} // namespace

bool device_supports(const Axes& axes, DeviceKind device)
{
  // A layer-independent rule: no layer of the cube runs in the worker; the models ask for it by name.
  if (axes[dataset::k_compiled] == dataset::Compiled::torch_compile) {
    return false;
  }
  if (axes[dataset::k_compiled] == dataset::Compiled::aot_inductor && aoti_unsupported(axes)) {
    return false;
  }
  if (device == DeviceKind::cuda) {
    return true;
  }
  return axes[dataset::k_precision] != dataset::Precision::fp16 && axes[dataset::k_precision] != dataset::Precision::tf32
         && axes[dataset::k_cudnn_benchmark] == dataset::CudnnBenchmark::off;
}

std::optional<std::string> unsupported(const Axes& axes, DeviceKind device, const LayerTraits& layer)
{
  if (device == DeviceKind::cpu) {
    if (axes[dataset::k_precision] == dataset::Precision::fp16) {
      return std::string("precision=fp16: fp16 autocast is measured on CUDA only");
    }
    if (axes[dataset::k_precision] == dataset::Precision::tf32) {
      return std::string("precision=tf32: TF32 is a CUDA tensor-core mode; the CPU has none");
    }
    if (axes[dataset::k_cudnn_benchmark] == dataset::CudnnBenchmark::on) {
      return std::string("cudnn_benchmark=on: cuDNN runs on CUDA only");
    }
  }
  if (axes[dataset::k_memory_format] == dataset::MemoryFormat::channels_last && layer.rank != InputRank::four_d) {
    return "memory_format=channels_last: a layout of 4-D tensors; " + layer.name + " takes no 4-D input";
  }
  if (axes[dataset::k_compiled] == dataset::Compiled::torch_compile) {
    return torch_compile_unsupported(axes, layer);
  }
  if (axes[dataset::k_compiled] == dataset::Compiled::aot_inductor) {
    if (auto gap = missing_here(TorchFeature::aoti_package_loader)) {
      return "compiled=aot_inductor: the AOTInductor package loader " + *gap;
    }
    return aoti_unsupported(axes);
  }
  return std::nullopt;
}

namespace {

// Every value of every axis that some corner the device supports takes; corners a layer cannot run
// are skipped cells.
dataset::AxisGrid supported_grid(DeviceKind device)
{
  dataset::AxisGrid all;
  for (const auto& info : dataset::axis_table()) {
    dataset::set_grid_values(all, info.name, info.values);
  }
  std::vector<std::vector<int>> supported(dataset::axis_table().size());
  for (const auto& corner : dataset::corners(all)) {
    if (!device_supports(corner, device)) {
      continue;
    }
    for (size_t axis = 0; axis < supported.size(); ++axis) {
      auto& values = supported[axis];
      if (std::find(values.begin(), values.end(), corner.value_index(axis)) == values.end()) {
        values.push_back(corner.value_index(axis));
      }
    }
  }
  dataset::AxisGrid result;
  for (size_t axis = 0; axis < supported.size(); ++axis) {
    result.set_value_indices(axis, supported[axis]);
  }
  return result;
}

} // namespace

PresetName parse_preset(const std::string& text)
{
  if (text == "reference") {
    return PresetName::reference;
  }
  if (text == "cube") {
    return PresetName::cube;
  }
  if (text == "models") {
    return PresetName::models;
  }
  throw UsageError("--preset: \"" + text + "\" is not one of reference, cube, models");
}

namespace {

Preset models_preset(DeviceKind device)
{
  Preset result;
  result.layers = {"ResNet50", "BertBase", "BertLarge"};
  result.grid.set(dataset::k_mode, {dataset::GradMode::inference_mode, dataset::GradMode::train});
  // AOTInductor packages are fp32 forward exports: they add the fp32 inference corner only. A package
  // takes about half a minute to export on 2 cores, once per model (then cached). torch.compile's
  // training steps compile for minutes each and are asked for by name (--axes compiled=torch_compile).
  result.grid.set(dataset::k_compiled, {dataset::Compiled::eager, dataset::Compiled::aot_inductor});
  if (device == DeviceKind::cuda) {
    result.grid.set(dataset::k_precision, {dataset::Precision::fp32, dataset::Precision::tf32,
                                           dataset::Precision::bf16, dataset::Precision::fp16});
    result.batch_sizes = {1, 8, 32, 64, 128, 256, 512};
    return result;
  }
  result.grid.set(dataset::k_precision, {dataset::Precision::fp32, dataset::Precision::bf16});
  result.batch_sizes = {1, 8};
  // A BERT-large training step at batch 8 takes seconds on 2 cores: the fewest samples, and a budget
  // that the slowest cells overrun by their own few samples only.
  result.warmup_seconds = 0.0;
  result.min_samples = k_fewest_samples;
  result.cell_budget_seconds = 2.0;
  return result;
}

} // namespace

Preset preset(PresetName name, DeviceKind device)
{
  Preset result;
  if (name == PresetName::reference) {
    result.batch_sizes = dataset::default_batch_sizes();
    return result;
  }
  if (name == PresetName::models) {
    return models_preset(device);
  }
  result.grid = supported_grid(device);
  if (device == DeviceKind::cuda) {
    result.batch_sizes = dataset::default_batch_sizes();
    return result;
  }
  // Exporting the fourteen AOTInductor packages takes well over 10 minutes on a 2-core machine, LSTM
  // and GRU minutes each (docs/settings.md): with the ~3 minutes of eager cells, a run with an empty
  // cache would outlast the budget. `--axes compiled=eager,aot_inductor` asks for them.
  result.grid.set(dataset::k_compiled, {dataset::Compiled::eager});
  // About 230 measured cells, a third of them train cells of four parts each, in about 15 minutes on a
  // shared 2-core machine. Batch 8 rather than 32: TransformerEncoder takes ~0.9 s per forward at 32
  // on such a CPU, and its twelve corners alone (train steps of ~3 s, bf16 slower still) would take
  // several minutes.
  result.batch_sizes = {1, 8};
  result.warmup_seconds = 0.02;
  result.min_samples = k_fewest_samples;
  result.cell_budget_seconds = 0.6;
  return result;
}

int timed_budgets(const Axes& corner, DeviceKind device)
{
  if (corner[dataset::k_mode] == dataset::GradMode::train) {
    return k_train_parts;
  }
  return device == DeviceKind::cuda ? k_cuda_forward_budgets : 1;
}

Estimate estimate(const std::vector<LayerTraits>& layers,
                  size_t batch_sizes,
                  const std::vector<Axes>& corners,
                  DeviceKind device,
                  double warmup_seconds,
                  const StoppingRule& rule,
                  const std::set<std::string>& cached_packages)
{
  Estimate result;
  for (const auto& layer : layers) {
    bool compiles = false;
    for (const auto& corner : corners) {
      const int count = static_cast<int>(batch_sizes);
      result.cells += count;
      if (unsupported(corner, device, layer)) {
        result.skipped += count;
        continue;
      }
      compiles = compiles || corner[dataset::k_compiled] == dataset::Compiled::aot_inductor;
      // A whole model's train step, and a model's layer in its layer sum, are timed whole, not in parts.
      const bool train = corner[dataset::k_mode] == dataset::GradMode::train;
      const bool whole = layer.train == TrainTiming::step;
      result.train += train && !whole ? count : 0;
      const double part = warmup_seconds + rule.budget_seconds + k_cell_overhead_seconds;
      result.seconds += count * part * (train && whole ? 1 : timed_budgets(corner, device));
      if (corner[dataset::k_compiled] == dataset::Compiled::torch_compile) {
        result.seconds += count * k_torch_compile_seconds;
      }
    }
    if (compiles && cached_packages.count(layer.name) == 0) {
      result.compiles += 1;
      result.seconds += k_aoti_compile_seconds;
    }
  }
  return result;
}

} // namespace layerbench::bench
