// SPDX-License-Identifier: MIT
#pragma once

#include "bench/axes_plan.hpp"
#include "bench/checkpoint.hpp"
#include "bench/ddp/rendezvous.hpp"
#include "bench/cpu_memory.hpp"
#include "bench/device.hpp"
#include "bench/measure.hpp"
#include "dataset/batch_sizes.hpp"
#include "dataset/dataset.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
#include <filesystem>
#include <string>
#include <vector>

namespace layerbench::bench {

enum class Resume { no, yes };
enum class PeakMeasurement { measure, skip };
enum class Profiles { take, skip };

struct RunOptions
{
  std::vector<std::string> layers; // catalog order when empty
  std::vector<int> batch_sizes = dataset::default_batch_sizes();
  dataset::AxisGrid axes; // the corners of the performance-setting cube measured; the reference by default
  MeasureSettings settings;
  std::filesystem::path out;
  Resume resume = Resume::no;
  PeakMeasurement peaks = PeakMeasurement::measure; // after the last cell (bench/peaks.hpp)
  Profiles profiles = Profiles::take; // each cell's operators, after every timing (bench/measure.hpp)
  // The cells in an order shuffled by this seed (dataset/rounds.hpp); matrix order when absent.
  std::optional<uint32_t> order_seed;
  int threads = 0; // 0: torch's default
  CpuMemoryPolicy cpu_memory = CpuMemoryPolicy::steady_state;
  // Which cells of the matrix this process measures: "i/n", empty for all; the plan that split the
  // matrix (dataset/shard.hpp) and this shard's cells.
  std::string shard;
  std::string shard_plan;
  std::vector<dataset::CellKey> shard_cells;
  std::string command_line; // for provenance
  // Where compiled=aot_inductor packages are kept (bench/aoti_cache.hpp); empty: default_aoti_cache().
  std::filesystem::path aoti_cache;
  // A data-parallel run (`run --world-size N`, docs/scale.md): this process is one rank of the
  // rendezvous, every rank measures the same cells in lockstep, and only rank 0 keeps a checkpoint and
  // returns the dataset to save. Absent: one process.
  std::optional<ddp::Rendezvous> rendezvous;
};

// Default measurement settings for a device: the CPU ones keep the whole matrix on a 2-core machine
// within a few minutes; the GPU ones aim at a tighter noise target.
MeasureSettings default_settings(DeviceKind device);

// The run's size and time before it starts (bench/axes_plan.hpp), for the layers and batch sizes of `options`.
Estimate estimate_run(const RunOptions& options, const DeviceBackend& backend);

// Measures the matrix (bench/run_plan.hpp), writing a checkpoint after every cell (bench/checkpoint.hpp),
// and returns the finished dataset (the caller saves it; in a data-parallel run, rank 0 only). On `interrupted` it saves the checkpoint and throws Error saying how to resume.
dataset::Dataset run_matrix(const RunOptions& options, DeviceBackend& backend, const std::atomic<bool>& interrupted);

} // namespace layerbench::bench
