// SPDX-License-Identifier: MIT
#pragma once

// The compiled=torch_compile corners of the whole models: torch.compile exists only in Python, so a
// Python worker (bench/models/compiled_train.py) builds the model's Python twin, compiles it, times it
// under the run's sampling settings and writes one dataset cell, with its runtime (Python, torch, the
// compile seconds). LayerBench starts it, reads the cell back and checks it is the cell it asked for.
// Torch-free: the worker is a child process (bench/child_process.hpp).

#include "bench/device_kind.hpp"
#include "bench/measure.hpp"
#include "dataset/dataset.hpp"

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::bench {

struct WorkerRequest
{
  std::string model;
  int batch_size = 0;
  dataset::Axes axes;
  DeviceKind device = DeviceKind::cpu;
  int threads = 1;
  MeasureSettings settings;
};

// The worker's command line for `request`, writing to `out`.
std::vector<std::string> worker_command(const std::string& python, const std::filesystem::path& script,
                                        const WorkerRequest& request, const std::filesystem::path& out);

// Runs the worker and returns its cell: skipped with the reason where the worker cannot start, fails,
// or writes something other than the cell asked for; nullopt when interrupted.
std::optional<dataset::Cell> measure_in_worker(const WorkerRequest& request, const std::atomic<bool>& interrupted);

} // namespace layerbench::bench
