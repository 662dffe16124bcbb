// SPDX-License-Identifier: MIT
#pragma once

// The measurers of one cell, each timing one thing of a built CellBody, as nvbench splits measure_hot,
// measure_cold and measure_cupti: the eager forward, a CUDA variant (graph, cold L2), the parts of a
// training step. bench::measure_cell runs them in turn; bench::profile_cell profiles the same body.
// Each returns nullopt when interrupted.

#include "bench/clock.hpp"
#include "bench/device.hpp"
#include "bench/detail/cell_body.hpp"
#include "bench/detail/sampling.hpp"
#include "bench/measure.hpp"
#include "dataset/dataset.hpp"
#include "util/expected.hpp"

#include <atomic>
#include <optional>

namespace layerbench::bench::detail {

struct EagerTiming
{
  Timed timed;
  double first_call_ms = 0; // allocation, lazy initialisation and cudnn.benchmark's autotuning
  // The peak of one steady-state call less `live_before_cell`: the cell's parameters, buffers, input,
  // output and scratch, nothing the process held before (the canary's buffers).
  std::optional<int64_t> peak_memory_bytes;
};

// The body back to back with the L2 cache hot, its budget counted from `start` (the cell's start).
// `live_before_cell`: backend.live_memory_bytes() read before `cell_body` was built.
std::optional<EagerTiming> measure_eager(const CellBody& cell_body,
                                         DeviceBackend& backend,
                                         const MeasureSettings& settings,
                                         Clock::time_point start,
                                         ClockLog& clocks,
                                         const std::atomic<bool>& interrupted,
                                         std::optional<int64_t> live_before_cell);

// One variant of the forward (a CUDA graph replay, or a cold L2 before each forward) with the eager
// block-size and stopping rules, its budget counted from its own start; its timer describes itself
// in `record`. A variant that has no timer, or fails while timed, is a failure with the reason.
std::optional<util::Expected<dataset::VariantStats>> measure_variant(Variant variant,
                                                                    const std::function<void()>& forward,
                                                                    const MeasureSettings& settings,
                                                                    DeviceBackend& backend,
                                                                    ClockLog& clocks,
                                                                    dataset::CudaCell& record,
                                                                    const std::atomic<bool>& interrupted);

// The CUDA record of a cell: every variant and the clocks read while the cell was timed.
std::optional<dataset::CudaCell> measure_cuda_variants(const std::function<void()>& forward,
                                                       double eager_median_ms,
                                                       const MeasureSettings& settings,
                                                       DeviceBackend& backend,
                                                       ClockLog& clocks,
                                                       const std::atomic<bool>& interrupted);

// The parts of a training step, each timed on its own (DeepBench's fwd, bwd_inputs, bwd_params).
std::optional<dataset::TrainTimes> measure_train_parts(const CellBody& cell_body,
                                                       DeviceBackend& backend,
                                                       const MeasureSettings& settings,
                                                       const std::atomic<bool>& interrupted);

} // namespace layerbench::bench::detail
