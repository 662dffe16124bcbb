// SPDX-License-Identifier: MIT
#pragma once

// How the host's allocator treats freed memory while a run measures. glibc's malloc hands out large
// blocks with mmap and returns them with munmap, and moves that threshold with the allocation history,
// so without a policy a CPU median includes page faults and page zeroing that depend on which cells
// ran before. The policy is applied once per process, before any cell, and recorded in the dataset.

#include <cstdint>
#include <string>

namespace layerbench::bench {

enum class CpuMemoryPolicy {
  steady_state, // freed memory is kept and reused, so that the timed loop need take no page faults (the default)
  fresh_pages,  // every large block is a fresh mapping: each forward pays page faults and zeroing
  system        // malloc as the environment configured it (what runs before schema 1.2.0 measured)
};

CpuMemoryPolicy parse_cpu_memory_policy(const std::string& text); // throws UsageError naming --cpu-memory
std::string to_string(CpuMemoryPolicy policy);
std::string describe(CpuMemoryPolicy policy); // one sentence for the methodology

// Sets glibc's malloc parameters for `policy`. Overrides GLIBC_TUNABLES' settings of the same
// parameters. Throws Error when glibc refuses a setting.
void apply(CpuMemoryPolicy policy);

// Minor page faults of the whole process so far (getrusage): every thread's, torch's included.
int64_t minor_page_faults();

} // namespace layerbench::bench
