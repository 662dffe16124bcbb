// SPDX-License-Identifier: MIT
#pragma once

#include "bench/device.hpp"
#include "bench/profile.hpp"
#include "bench/statistics.hpp"
#include "dataset/dataset.hpp"

#include <atomic>
#include <filesystem>

namespace layerbench::bench {

struct LayerSpec; // catalog/catalog.hpp

// Builds the entry's module on the CPU and counts its parameters (bench/detail/builders.cpp): the count
// does not depend on the device, and the CPU always has room for the module.
int64_t count_parameters(const LayerSpec& spec);

struct MeasureSettings
{
  double warmup_seconds = 0.1;
  int warmup_min_iterations = 2;
  // A sample times a block of back-to-back iterations that lasts at least this long, so the clock's
  // and the events' own cost (microseconds) stays under a percent of what is measured.
  double block_target_seconds = 0.002;
  StoppingRule stopping;
};

struct SteadyTiming
{
  Summary summary; // milliseconds per iteration
  int64_t iterations = 0; // per sample
  Verdict verdict = Verdict::continue_sampling;
};

// Times `body` as a cell's forward is timed: warm-up, a block grown to block_target_seconds, samples
// until the stopping rule says stop (its budget counted from the start of the warm-up). nullopt when
// interrupted. The device peaks use it, so they follow the cells' timing and noise rules.
std::optional<SteadyTiming> time_steady_state(DeviceBackend& backend,
                                              const std::function<void()>& body,
                                              const MeasureSettings& settings,
                                              const std::atomic<bool>& interrupted);

// A cell that was not measured, with the reason.
dataset::Cell skipped_cell(const std::string& layer, int batch_size, const dataset::Axes& axes, const std::string& reason);

// Measures one (layer, batch size) cell. A cell that cannot run (out of memory, an op the device
// does not support) comes back skipped with the reason; `interrupted` abandons the cell (nullopt).
std::optional<dataset::Cell> measure_cell(const LayerSpec& spec,
                                          int batch_size,
                                          const MeasureSettings& settings,
                                          DeviceBackend& backend,
                                          const std::atomic<bool>& interrupted);

// The same at one corner of the performance-setting cube (bench/detail/corner.hpp says how each axis is
// applied). The caller has checked that the corner is supported (bench/axes_plan.hpp); one that
// fails anyway comes back skipped with torch's reason. A compiled=aot_inductor corner runs the
// AOTInductor package `aoti_package` (bench/aoti_cache.hpp) on the instance's input; its loading is
// not timed, its first call is first_call_ms.
std::optional<dataset::Cell> measure_cell(const LayerSpec& spec,
                                          int batch_size,
                                          const dataset::Axes& axes,
                                          const MeasureSettings& settings,
                                          DeviceBackend& backend,
                                          const std::atomic<bool>& interrupted,
                                          const std::filesystem::path& aoti_package = {});

// The operators and kernels of one steady-state iteration of a cell, in a profile of its own: the run
// takes every profile after all its timings (bench/runner.cpp), since on CUDA a profiler session
// leaves CUPTI attached to the process and slows the kernels launched after it.
util::Expected<Profile> profile_cell(const LayerSpec& spec,
                                     int batch_size,
                                     const dataset::Axes& axes,
                                     DeviceBackend& backend,
                                     const std::filesystem::path& aoti_package = {});

// A variant's figures from its per-forward samples (exposed for tests).
dataset::VariantStats variant_stats(const Summary& summary, int64_t iterations);

// Records a variant's outcome in a cell's CUDA record: its figures and their ratio to the eager median,
// or the reason it has none (exposed for tests).
void record_variant(dataset::CudaCell& record,
                    Variant variant,
                    const util::Expected<dataset::VariantStats>& outcome,
                    double eager_median_ms);

} // namespace layerbench::bench
