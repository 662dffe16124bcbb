// SPDX-License-Identifier: MIT
#include "bench/cpu_memory.hpp"

#include "util/error.hpp"

#include <malloc.h>
#include <sys/resource.h>

namespace layerbench::bench {

namespace {

// A block of at least this size is mapped afresh under fresh-pages: glibc's default starting
// threshold, held fixed so that it no longer moves with what was freed before.
constexpr int k_fresh_pages_threshold = 128 * 1024;
constexpr int k_glibc_default_mmap_max = 65536;

void set(int parameter, int value, const char* name)
{
  if (mallopt(parameter, value) != 1) {
    throw Error(std::string("cannot set the CPU memory policy: mallopt(") + name + ") was refused");
  }
}

} // namespace

CpuMemoryPolicy parse_cpu_memory_policy(const std::string& text)
{
  if (text == "steady-state") {
    return CpuMemoryPolicy::steady_state;
  }
  if (text == "fresh-pages") {
    return CpuMemoryPolicy::fresh_pages;
  }
  if (text == "system") {
    return CpuMemoryPolicy::system;
  }
  throw UsageError("--cpu-memory: '" + text + "' is not one of steady-state, fresh-pages, system");
}

std::string to_string(CpuMemoryPolicy policy)
{
  switch (policy) {
    case CpuMemoryPolicy::steady_state: return "steady-state";
    case CpuMemoryPolicy::fresh_pages: return "fresh-pages";
    case CpuMemoryPolicy::system: return "system";
  }
  return "system";
}

std::string describe(CpuMemoryPolicy policy)
{
  switch (policy) {
    case CpuMemoryPolicy::steady_state:
      return "steady-state: host memory freed by one forward is reused by the next, as in a long-running PyTorch "
             "process (glibc malloc told not to map large blocks afresh nor to return freed memory to the system: "
             "mallopt M_MMAP_MAX=0, M_TRIM_THRESHOLD=-1); each cell records the page faults its timed loop took";
    case CpuMemoryPolicy::fresh_pages:
      return "fresh-pages: every host block of 128 KiB or more that the heap's free space cannot hold is mapped "
             "afresh and unmapped when freed (mallopt M_MMAP_THRESHOLD=131072, fixed, set before the first cell), so "
             "each forward pays page faults and the kernel's zeroing of its output and scratch memory";
    case CpuMemoryPolicy::system:
      return "system: glibc malloc as the environment configured it (GLIBC_TUNABLES, else its dynamic mmap "
             "threshold), so whether a block is reused or mapped afresh depends on what ran before";
  }
  return {};
}

void apply(CpuMemoryPolicy policy)
{
  switch (policy) {
    case CpuMemoryPolicy::steady_state:
      // Every block comes from the heap (a request the thread's arena cannot hold falls back to the
      // main arena), and the heap's top is never trimmed: freed pages stay mapped and are reused.
      set(M_MMAP_MAX, 0, "M_MMAP_MAX");
      set(M_TRIM_THRESHOLD, -1, "M_TRIM_THRESHOLD");
      return;
    case CpuMemoryPolicy::fresh_pages:
      // Setting the threshold also switches glibc's dynamic adjustment off.
      set(M_MMAP_MAX, k_glibc_default_mmap_max, "M_MMAP_MAX");
      set(M_MMAP_THRESHOLD, k_fresh_pages_threshold, "M_MMAP_THRESHOLD");
      return;
    case CpuMemoryPolicy::system:
      return;
  }
}

int64_t minor_page_faults()
{
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

} // namespace layerbench::bench
