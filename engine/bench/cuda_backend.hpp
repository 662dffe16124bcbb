// SPDX-License-Identifier: MIT
#pragma once

#include "bench/device.hpp"

namespace layerbench::bench {

// CUDA events on the current stream around blocks of iterations; memory from the caching
// allocator's peak allocated bytes, on GPU `index`, which becomes the current device. Throws Error
// when this build of torch has no CUDA, or there is no such GPU.
std::unique_ptr<DeviceBackend> make_cuda_backend(int index);

} // namespace layerbench::bench
