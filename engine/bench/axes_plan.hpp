// SPDX-License-Identifier: MIT
#pragma once

// Which corners of the performance-setting cube a run measures, and which it cannot: the presets,
// the support rules and the time estimate. Knows nothing of torch, so its rules are unit tested
// without a device.

#include "bench/device_kind.hpp"
#include "bench/statistics.hpp"
#include "catalog/traits.hpp"
#include "dataset/axes.hpp"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace layerbench::bench {

// Why `axes` cannot be measured for this layer on this device, or nullopt when it can. An
// unsupported corner is recorded as a skipped cell with this reason, never an error.
std::optional<std::string> unsupported(const dataset::Axes& axes, DeviceKind device, const LayerTraits& layer);

// True where every layer could run `axes` on `device` (the layer-independent rules only).
bool device_supports(const dataset::Axes& axes, DeviceKind device);

enum class PresetName { reference, cube, models };
PresetName parse_preset(const std::string& text); // throws UsageError naming --preset

struct Preset
{
  std::vector<std::string> layers; // empty: the fourteen layers of the catalog
  dataset::AxisGrid grid;
  std::vector<int> batch_sizes;
  // Overrides of the device's default measurement settings, where the preset must fit a time budget.
  std::optional<double> warmup_seconds;
  std::optional<int> min_samples;
  std::optional<double> cell_budget_seconds;
};

// models: the whole models (ResNet50, BertBase, BertLarge), inference and a training step, fp32 and
// bf16 (on CUDA also tf32 and fp16), eager; batch sizes 1 and 8 on the CPU, within about 10 minutes on
// 2 cores, and on CUDA powers of two up to 512, where the batches that do not fit are skipped cells
// (out of memory), so the largest that fits is the largest measured.
// reference: today's matrix (one corner, dataset::k_default_batch_sizes). cube: every value of every axis
// that the device supports; on the CPU with batch sizes 1 and 8, short budgets and eager only (no
// AOTInductor exports), to finish within about 15 minutes on a 2-core machine.
Preset preset(PresetName name, DeviceKind device);

// An upper-bound style estimate of a run's wall time, before it starts: each measured cell costs its
// budget, warm-up and a fixed overhead (building the layer, the canary, the profiled forward); a
// train cell times four parts; a layer with measured aot_inductor corners and no package in the cache
// pays one export and compile; a CUDA forward cell times three variants. Layers whose single forward outlasts the budget take longer.
struct Estimate
{
  int cells = 0;    // every (layer, batch size, corner)
  int skipped = 0;  // unsupported corners, recorded at no cost
  int train = 0;    // measured cells of mode train timed in parts (layers; a model's step is timed whole)
  int compiles = 0; // AOTInductor packages to export and compile
  double seconds = 0;
};
inline constexpr double k_cell_overhead_seconds = 0.3;
inline constexpr int k_train_parts = 4; // the step, the forward, the input gradient, the weight gradient
inline constexpr int k_cuda_forward_budgets = 3; // eager, CUDA graph replay, cold L2 (bench/cuda_variants.hpp)

// How many timing budgets a measured corner spends: a train cell's parts, a CUDA forward's three variants.
int timed_budgets(const dataset::Axes& corner, DeviceKind device);
// One package's export and compile on a 2-core CPU with torch 2.11 (docs/settings.md): 35 s for
// LayerNorm, 46 s for Linear(4096, 4096); the larger layers take longer.
inline constexpr double k_aoti_compile_seconds = 60;
// One torch.compile cell's compilation in the Python worker, paid per cell: 24 to 47 CPU seconds for the
// tiny test models on 2 cores with a cold cache (bench/models/README.md); the full models take longer.
inline constexpr double k_torch_compile_seconds = 60;

Estimate estimate(const std::vector<LayerTraits>& layers,
                  size_t batch_sizes,
                  const std::vector<dataset::Axes>& corners,
                  DeviceKind device,
                  double warmup_seconds,
                  const StoppingRule& rule,
                  const std::set<std::string>& cached_packages = {}); // layers with a package in the cache

} // namespace layerbench::bench
