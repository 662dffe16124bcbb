// SPDX-License-Identifier: MIT
#pragma once

#include "bench/device.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace layerbench::bench {

// Steady clock around blocks of iterations; memory counted by an allocator wrapped around c10's CPU
// allocator, which sees every tensor's storage but not the scratch memory oneDNN or MKL keep for
// themselves.
std::unique_ptr<DeviceBackend> make_cpu_backend();

// The size of the highest-level data or unified cache of CPU 0, from Linux's sysfs (`root` in tests);
// nullopt where the kernel does not say.
std::optional<int64_t> cpu_last_level_cache_bytes(const std::filesystem::path& root = "/sys/devices/system/cpu/cpu0/cache");

// "32768K" -> 33554432; nullopt for what is not a size (exposed for tests).
std::optional<int64_t> parse_cache_size(const std::string& text);

// The counting allocator, exposed for tests.
int64_t cpu_live_bytes();
int64_t cpu_peak_bytes();
void cpu_reset_peak();

} // namespace layerbench::bench
