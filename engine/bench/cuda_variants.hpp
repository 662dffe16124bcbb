// SPDX-License-Identifier: MIT
#pragma once

// The two CUDA variants of a cell beside the eager, hot-L2 time (bench/device.hpp's Variant):
//  - graph: the forward captured in a CUDA graph (at::cuda::CUDAGraph) after a warm-up on a side
//    stream, captured on that non-default stream, and replayed in blocks timed by CUDA events. The
//    gap to the eager time is the host's launch cost.
//  - cold: before every timed forward, a buffer of at least twice the L2 cache is written (a
//    cudaMemsetAsync, outside the timed interval, as nvbench's l2flush does), and each forward is timed
//    by its own pair of events.

#include "bench/device.hpp"
#include "util/expected.hpp"

#include <cstdint>
#include <functional>
#include <memory>

namespace layerbench::bench {

// Forwards captured in one graph, so that the graph launch's own host cost (a few microseconds) is
// shared by several forwards and the replay shows the device time alone even for the smallest cells.
inline constexpr int k_forwards_per_graph = 8;

// What a cold forward writes before it: twice `l2_cache_bytes`, rounded up to a whole MiB. Fails when
// the L2 size is unknown (0 or less), since then no buffer can be known to evict it.
util::Expected<int64_t> l2_flush_bytes(int64_t l2_cache_bytes);

// Both throw (c10::Error, Error) when the variant cannot be had on this forward; the caller records why.
// CUDA builds only.
std::unique_ptr<BlockTimer> make_graph_timer(const std::function<void()>& forward, int device_index);
std::unique_ptr<BlockTimer> make_cold_timer(const std::function<void()>& forward, int device_index);

} // namespace layerbench::bench
