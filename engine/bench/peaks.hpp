// SPDX-License-Identifier: MIT
#pragma once

// The device's measured peaks, the roofs that a cell's achieved FLOP/s is held against
// (dataset/roofline.hpp): a dense matrix product per precision the device supports, a streaming
// triad over arrays well past the last-level cache, and the same triad sized to fit each cache level
// (L2 and L3 on the CPU, bench/cache_levels.hpp; L2 on a GPU). Timed with the cells' rules (measure.hpp)
// on the run's device and threads, in a few seconds in all.

#include "bench/device.hpp"
#include "bench/measure.hpp"
#include "dataset/dataset.hpp"

#include <atomic>
#include <optional>
#include <string>

namespace layerbench::bench {

// nullopt when interrupted. A precision that fails (out of memory, not supported) is left out and
// named in the method text.
std::optional<dataset::Peaks> measure_peaks(DeviceBackend& backend,
                                            const MeasureSettings& cell_settings,
                                            const std::atomic<bool>& interrupted);

// "fp32 1.23 TFLOP/s, bf16 ..., triad 21.3 GB/s, L2 ..., L3 ...": one line for the progress output.
std::string describe(const dataset::Peaks& peaks);

} // namespace layerbench::bench
