// SPDX-License-Identifier: MIT
#pragma once

// The CPU's data caches as Linux's sysfs describes CPU 0's (/sys/devices/system/cpu/cpu0/cache/index*):
// each level's size and how many CPUs share one of it. The peaks size a triad to fit each level from
// these (bench/peaks.hpp), and a cell's working set is held to the bandwidth of the level it fits in.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace layerbench::bench {

inline constexpr const char* k_cpu_cache_root = "/sys/devices/system/cpu/cpu0/cache";

struct CacheLevel
{
  int level = 0;          // 1, 2, 3
  int64_t size_bytes = 0; // one instance of it
  int shared_by = 1;      // CPUs that share one instance (its shared_cpu_list)
  std::string source;     // "cpu0/cache/index2: 512K, 1 CPU per instance"
};

// Data and unified caches, lowest level first; empty where the kernel does not say (not Linux, a
// container without sysfs): then no cache level is measured, and the method text says why.
std::vector<CacheLevel> cpu_cache_levels(const std::filesystem::path& root = k_cpu_cache_root);

// What `threads` threads reach at a level: one instance per `shared_by` CPUs they run on.
int64_t reachable_bytes(const CacheLevel& level, int threads);

// "0-1,4" -> 3: the CPUs a sysfs CPU list names; 0 for what is not one.
int count_cpus(const std::string& list);

} // namespace layerbench::bench
