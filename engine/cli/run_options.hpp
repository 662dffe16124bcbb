// SPDX-License-Identifier: MIT
#pragma once

// The options of `layerbench run`, parsed the same way by `run` and by `slurm`, which plans the same
// shards and passes them on to every task.

#if LAYERBENCH_WITH_TORCH

#include "bench/axes_plan.hpp"
#include "bench/measure.hpp"
#include "dataset/axes.hpp"

#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::cli {

boost::program_options::options_description run_options();

// The layers of --layers (each checked against the catalog), or the whole catalog in its order.
std::vector<std::string> matrix_layers(const boost::program_options::variables_map& values);
std::vector<int> parse_batch_sizes(const std::string& text);

// Throws UsageError naming the option when `condition` is false.
void require(bool condition, const std::string& message);

// --warmup, --noise-target and the other measurement options over a device's defaults.
void apply_overrides(const boost::program_options::variables_map& values, bench::MeasureSettings& settings);

// --rounds within its range (1 to dataset::k_max_rounds).
int parse_rounds(const boost::program_options::variables_map& values);
// --stop-after-round K of a run in `rounds` rounds: 1 to `rounds`, and `rounds` when not given (the run
// combines its rounds). Refused unless `rounds` is 2 or more: a single run has no round to stop after.
int parse_stop_after_round(const boost::program_options::variables_map& values, int rounds);
// --seed or --order-seed (`name`) within 0 .. 2^32-1; nullopt when not given.
std::optional<uint32_t> parse_seed(const boost::program_options::variables_map& values, const std::string& name);

// --world-size within its range (1 to 2^20).
int parse_world_size(const boost::program_options::variables_map& values);

// --threads within its documented range: 0 (torch's default) to this machine's logical cores.
int parse_threads(const boost::program_options::variables_map& values);

// What a run measures and how: the preset's axes, batch sizes and budgets, then --axes, --batch-sizes
// and the measurement options over them. `run` and `slurm` both resolve it here, so a cluster's plan
// and every task's agree.
struct RunMatrix
{
  std::vector<std::string> layers;
  std::vector<int> batch_sizes;
  dataset::AxisGrid axes;
  bench::MeasureSettings settings;
};

// Checks --layers, --preset and every --axes argument without a device, so that a misspelt one costs nothing.
void check_matrix_arguments(const boost::program_options::variables_map& values);

RunMatrix resolve_matrix(const boost::program_options::variables_map& values, bench::DeviceKind device);

} // namespace layerbench::cli

#endif
