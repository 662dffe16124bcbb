// SPDX-License-Identifier: MIT
#pragma once

#include "bench/device.hpp"

namespace layerbench::bench {

// CUDA events on the current stream around blocks of iterations; memory from the caching
// allocator's peak allocated bytes. Throws Error when this build of torch has no CUDA.
std::unique_ptr<DeviceBackend> make_cuda_backend();

} // namespace layerbench::bench
