// SPDX-License-Identifier: MIT
#include "cli/run_options.hpp"

#if LAYERBENCH_WITH_TORCH

#include "bench/catalog.hpp"
#include "bench/runner.hpp"
#include "util/error.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

std::vector<std::string> split(const std::string& text)
{
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ',')) {
    if (!part.empty()) {
      parts.push_back(part);
    }
  }
  return parts;
}

std::vector<std::string> parse_layers(const std::string& text)
{
  std::vector<std::string> layers;
  std::set<std::string> seen;
  for (const auto& name : split(text)) {
    bench::find_layer(name); // throws UsageError with a hint
    if (!seen.insert(name).second) {
      throw UsageError("--layers: '" + name + "' is given twice");
    }
    layers.push_back(name);
  }
  if (layers.empty()) {
    throw UsageError("--layers: no layer named");
  }
  return layers;
}

} // namespace

std::vector<int> parse_batch_sizes(const std::string& text)
{
  std::vector<int> sizes;
  for (const auto& part : split(text)) {
    size_t used = 0;
    long value = 0;
    try {
      value = std::stol(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != part.size() || value < 1 || value > 1 << 20) {
      throw UsageError("--batch-sizes: '" + part + "' is not a batch size (a whole number from 1 to 1048576)");
    }
    if (std::find(sizes.begin(), sizes.end(), value) != sizes.end()) {
      throw UsageError("--batch-sizes: " + part + " is given twice");
    }
    sizes.push_back(static_cast<int>(value));
  }
  if (sizes.empty()) {
    throw UsageError("--batch-sizes: no batch size given");
  }
  return sizes;
}

void require(bool condition, const std::string& message)
{
  if (!condition) {
    throw UsageError(message);
  }
}

void apply_overrides(const po::variables_map& values, bench::MeasureSettings& settings)
{
  if (values.count("warmup")) {
    settings.warmup_seconds = values["warmup"].as<double>();
    require(settings.warmup_seconds >= 0, "--warmup: must be 0 or more seconds");
  }
  if (values.count("warmup-iterations")) {
    settings.warmup_min_iterations = values["warmup-iterations"].as<int>();
    require(settings.warmup_min_iterations >= 0, "--warmup-iterations: must be 0 or more");
  }
  if (values.count("block-target")) {
    settings.block_target_seconds = values["block-target"].as<double>();
    require(settings.block_target_seconds > 0, "--block-target: must be more than 0 seconds");
  }
  auto& rule = settings.stopping;
  if (values.count("noise-target")) {
    rule.noise_target = values["noise-target"].as<double>();
    require(rule.noise_target > 0 && rule.noise_target < 1, "--noise-target: must be between 0 and 1 (0.05 is 5%)");
  }
  if (values.count("min-samples")) {
    rule.min_samples = values["min-samples"].as<int>();
    require(rule.min_samples >= 1, "--min-samples: must be at least 1");
  }
  if (values.count("max-samples")) {
    rule.max_samples = values["max-samples"].as<int>();
  }
  require(rule.max_samples >= rule.min_samples, "--max-samples: must be at least --min-samples ("
                                                  + std::to_string(rule.min_samples) + ")");
  if (values.count("cell-budget")) {
    rule.budget_seconds = values["cell-budget"].as<double>();
    require(rule.budget_seconds > 0, "--cell-budget: must be more than 0 seconds");
  }
}

std::vector<std::string> matrix_layers(const po::variables_map& values)
{
  if (values.count("layers")) {
    return parse_layers(values["layers"].as<std::string>());
  }
  std::vector<std::string> layers;
  for (const auto& spec : bench::catalog()) {
    layers.push_back(spec.name);
  }
  return layers;
}

namespace {

std::vector<std::string> axes_arguments(const po::variables_map& values)
{
  return values.count("axes") ? values["axes"].as<std::vector<std::string>>() : std::vector<std::string>{};
}

void apply_preset(const bench::Preset& preset, bench::MeasureSettings& settings)
{
  if (preset.warmup_seconds) {
    settings.warmup_seconds = *preset.warmup_seconds;
  }
  if (preset.min_samples) {
    settings.stopping.min_samples = *preset.min_samples;
  }
  if (preset.cell_budget_seconds) {
    settings.stopping.budget_seconds = *preset.cell_budget_seconds;
  }
}

} // namespace

void check_matrix_arguments(const po::variables_map& values)
{
  matrix_layers(values);
  bench::parse_preset(values["preset"].as<std::string>());
  dataset::AxisGrid scratch;
  for (const auto& argument : axes_arguments(values)) {
    dataset::apply_axes_argument(scratch, argument);
  }
}

RunMatrix resolve_matrix(const po::variables_map& values, bench::PlanDevice device)
{
  const auto preset = bench::preset(bench::parse_preset(values["preset"].as<std::string>()), device);
  RunMatrix matrix;
  matrix.layers = matrix_layers(values);
  matrix.axes = preset.grid;
  for (const auto& argument : axes_arguments(values)) {
    dataset::apply_axes_argument(matrix.axes, argument);
  }
  matrix.batch_sizes = values["batch-sizes"].defaulted() ? preset.batch_sizes
                                                         : parse_batch_sizes(values["batch-sizes"].as<std::string>());
  matrix.settings = bench::default_settings(device == bench::PlanDevice::cuda ? torch::kCUDA : torch::kCPU);
  apply_preset(preset, matrix.settings);
  apply_overrides(values, matrix.settings);
  return matrix;
}

po::options_description run_options()
{
  po::options_description options("run options");
  options.add_options()
    ("out,o", po::value<std::string>(), "dataset file to write; never overwritten (default: layerbench-<UTC time>.json)")
    ("device", po::value<std::string>()->default_value("auto"), "auto (CUDA when available, else CPU), cpu, cuda (GPU 0) or cuda:N")
    ("layers", po::value<std::string>(), "comma-separated subset of the catalog (default: all 14; see 'layerbench layers')")
    ("batch-sizes", po::value<std::string>()->default_value("1,8,32,128"), "comma-separated batch sizes (default: the preset's)")
    ("preset", po::value<std::string>()->default_value("reference"),
     "reference (one corner: fp32, contiguous, cudnn.benchmark off, inference mode, eager) or cube (every "
     "combination of settings the device supports; on the CPU batch sizes 1,8, short budgets and eager only, about "
     "15 minutes on 2 cores)")
    ("axes", po::value<std::vector<std::string>>()->composing(),
     "AXIS=VALUE[,VALUE...], repeatable, replaces the preset's values of one axis: precision=fp32,tf32,bf16,fp16 "
     "memory_format=contiguous,channels_last cudnn_benchmark=off,on mode=inference_mode,no_grad,train "
     "compiled=eager,aot_inductor; corners a layer or device cannot run are recorded as skipped cells")
    ("aoti-cache", po::value<std::string>(),
     "folder of the AOTInductor packages of compiled=aot_inductor cells, one per layer, device and torch version, "
     "exported on first use by $LAYERBENCH_PYTHON (about a minute each on 2 CPU cores; default: "
     "$LAYERBENCH_AOTI_CACHE, else ~/.cache/layerbench/aoti)")
    ("resume", "continue an interrupted run from OUT.partial")
    ("no-peaks", "skip measuring the device's peak FLOP/s and memory bandwidth after the cells (a few seconds)")
    ("shard", po::value<std::string>(), "measure only shard i of n of the matrix (\"i/n\"), the shards balanced by "
                                        "expected time; see 'layerbench merge' and docs/scale.md")
    ("plan-from", po::value<std::string>(), "with --shard: plan the shards from this earlier run's cell_seconds instead "
                                            "of the FLOP formulas (give every shard the same file)")
    ("threads", po::value<int>()->default_value(0), "intra-op threads for the CPU (0: torch's default)")
    ("cpu-memory", po::value<std::string>()->default_value("steady-state"),
     "how host memory freed by a forward is treated: steady-state (reused, no page faults in the timed loop), "
     "fresh-pages (mapped afresh, page faults every forward) or system (malloc as the environment set it)")
    ("warmup", po::value<double>(), "warm-up seconds after the first call (default: CPU 0.05, CUDA 0.2)")
    ("warmup-iterations", po::value<int>(), "at least this many warm-up iterations (default: CPU 1, CUDA 3)")
    ("block-target", po::value<double>(), "seconds one timed block of iterations lasts at least (default: CPU 0.01, CUDA 0.001)")
    ("noise-target", po::value<double>(), "stop when (p75-p25)/median is at most this (default: CPU 0.05, CUDA 0.02)")
    ("min-samples", po::value<int>(), "samples always taken (default: CPU 5, CUDA 10)")
    ("max-samples", po::value<int>(), "samples at most (default: CPU 100, CUDA 1000)")
    ("cell-budget", po::value<double>(), "seconds per cell after which sampling stops, target met or not, once 3 "
                                         "samples are in (default: CPU 1.5, CUDA 2)");
  return options;
}

} // namespace layerbench::cli

#endif
