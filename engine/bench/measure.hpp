// SPDX-License-Identifier: MIT
#pragma once

#include "bench/catalog.hpp"
#include "bench/device.hpp"
#include "bench/statistics.hpp"
#include "dataset/dataset.hpp"

#include <atomic>

namespace layerbench::bench {

struct MeasureSettings
{
  double warmup_seconds = 0.1;
  int warmup_min_iterations = 2;
  // A sample times a block of back-to-back iterations that lasts at least this long, so the clock's
  // and the events' own cost (microseconds) stays under a percent of what is measured.
  double block_target_seconds = 0.002;
  StoppingRule stopping;
};

// A cell that was not measured, with the reason.
dataset::Cell skipped_cell(const std::string& layer, int batch_size, const dataset::Axes& axes, const std::string& reason);

// Measures one (layer, batch size) cell. A cell that cannot run (out of memory, an op the device
// does not support) comes back skipped with the reason; `interrupted` abandons the cell (nullopt).
std::optional<dataset::Cell> measure_cell(const LayerSpec& spec,
                                          int batch_size,
                                          const MeasureSettings& settings,
                                          DeviceBackend& backend,
                                          const std::atomic<bool>& interrupted);

// The same at one corner of the performance-setting cube (bench/corner.hpp says how each axis is
// applied). The caller has checked that the corner is supported (bench/axes_plan.hpp); one that
// fails anyway comes back skipped with torch's reason.
std::optional<dataset::Cell> measure_cell(const LayerSpec& spec,
                                          int batch_size,
                                          const dataset::Axes& axes,
                                          const MeasureSettings& settings,
                                          DeviceBackend& backend,
                                          const std::atomic<bool>& interrupted);

} // namespace layerbench::bench
