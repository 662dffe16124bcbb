// SPDX-License-Identifier: MIT
#pragma once

#include "bench/device.hpp"

namespace layerbench::bench {

// Steady clock around blocks of iterations; memory counted by an allocator wrapped around c10's CPU
// allocator, which sees every tensor's storage but not the scratch memory oneDNN or MKL keep for
// themselves.
std::unique_ptr<DeviceBackend> make_cpu_backend();

// The counting allocator, exposed for tests.
int64_t cpu_live_bytes();
int64_t cpu_peak_bytes();
void cpu_reset_peak();

} // namespace layerbench::bench
