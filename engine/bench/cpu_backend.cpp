// SPDX-License-Identifier: MIT
#include "bench/cpu_backend.hpp"

#include "bench/cache_levels.hpp"

#include "bench/detail/torch_compat.hpp"
#include "util/file.hpp"

#include <cstdlib>

#include <c10/core/CPUAllocator.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>
#include <unordered_map>

namespace layerbench::bench {

namespace {

// Wraps the CPU allocator in force and keeps the live and peak byte counts. Installed once, for the
// life of the process: storage allocated through it must come back through its deleter.
class CountingAllocator final : public detail::Allocator
{
public:
  explicit CountingAllocator(c10::Allocator* base) : m_base(base) {}

  c10::DataPtr allocate_bytes(size_t bytes) override
  {
    c10::DataPtr inner = m_base->allocate(bytes);
    const auto deleter = inner.get_deleter();
    void* data = inner.release_context();
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_sizes[data] = {bytes, deleter};
      m_live += static_cast<int64_t>(bytes);
      if (m_live > m_peak) {
        m_peak = m_live;
      }
    }
    return {data, data, &CountingAllocator::release, c10::Device(c10::DeviceType::CPU)};
  }

  c10::DeleterFnPtr raw_deleter() const override { return &CountingAllocator::release; }

  static CountingAllocator& instance();

  int64_t live()
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_live;
  }
  int64_t peak()
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_peak;
  }
  void reset_peak()
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_peak = m_live;
  }

private:
  static void release(void* data)
  {
    auto& self = instance();
    c10::DeleterFnPtr deleter = nullptr;
    {
      std::lock_guard<std::mutex> lock(self.m_mutex);
      const auto found = self.m_sizes.find(data);
      if (found == self.m_sizes.end()) {
        return; // not ours; cannot happen while the allocator is installed for the whole process
      }
      self.m_live -= static_cast<int64_t>(found->second.bytes);
      deleter = found->second.deleter;
      self.m_sizes.erase(found);
    }
    if (deleter) {
      deleter(data);
    }
  }

  struct Allocation
  {
    size_t bytes;
    c10::DeleterFnPtr deleter;
  };

  c10::Allocator* m_base;
  std::mutex m_mutex;
  std::unordered_map<void*, Allocation> m_sizes;
  int64_t m_live = 0;
  int64_t m_peak = 0;
};

CountingAllocator& CountingAllocator::instance()
{
  // Installed on first use with a priority above the default, and never removed.
  static CountingAllocator* allocator = [] {
    auto* created = new CountingAllocator(c10::GetCPUAllocator());
    c10::SetCPUAllocator(created, /*priority=*/100);
    return created;
  }();
  return *allocator;
}

class CpuBackend final : public DeviceBackend
{
public:
  CpuBackend() : DeviceBackend(DeviceKind::cpu, 0) { CountingAllocator::instance(); }

  BlockTime time_block(const std::function<void()>& body, int64_t iterations) override
  {
    const auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < iterations; ++i) {
      body();
    }
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    return {elapsed.count(), elapsed.count()};
  }

  void synchronize() override {}

  std::optional<int64_t> live_memory_bytes() override { return CountingAllocator::instance().live(); }
  void reset_peak_memory() override { CountingAllocator::instance().reset_peak(); }
  std::optional<int64_t> peak_memory_bytes() override { return CountingAllocator::instance().peak(); }

  // /proc/meminfo's MemAvailable: what the kernel can give without swapping.
  std::optional<int64_t> memory_capacity_bytes() const override
  {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    int64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit) {
      if (key == "MemAvailable:") {
        return kib * 1024;
      }
    }
    return std::nullopt;
  }

  std::string timer_name() const override { return "steady-clock"; }
  std::string memory_method() const override
  {
    return "CPU: peak live bytes of tensor storage allocated through c10's CPU allocator (wrapped by a "
           "counting allocator) during one steady-state forward (a train corner: one training iteration), less "
           "the bytes live before the cell built its layer and input: so the layer's parameters and buffers, its "
           "input, its output and the forward's scratch tensors, and nothing else the process holds (not the "
           "machine-speed canary's buffers); scratch memory that oneDNN and MKL allocate for themselves is not seen.";
  }

  void describe(dataset::Environment& environment) const override
  {
    environment.device.type = "cpu";
    environment.device.name = environment.cpu_model;
    environment.last_level_cache_bytes = cpu_last_level_cache_bytes();
  }
};

} // namespace

std::unique_ptr<DeviceBackend> make_cpu_backend()
{
  // Kineto, the profiler, looks for GPUs when it starts and logs "ERROR: gpuGetDeviceCount failed" where
  // there is none, which reads as a failure of the run. A CPU run needs no word from it about GPUs (a
  // value the user set is kept).
  ::setenv("KINETO_LOG_LEVEL", "5", 0);
  return std::make_unique<CpuBackend>();
}

std::optional<int64_t> parse_cache_size(const std::string& text)
{
  size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const auto unit = text.substr(used, text.find_last_not_of(" \n") + 1 - used);
  const long long scale = unit == "K" ? 1024 : unit == "M" ? 1024 * 1024 : unit == "G" ? 1024LL * 1024 * 1024 : unit.empty() ? 1 : 0;
  if (value <= 0 || scale == 0) {
    return std::nullopt;
  }
  return value * scale;
}

std::optional<int64_t> cpu_last_level_cache_bytes(const std::filesystem::path& root)
{
  const auto levels = cpu_cache_levels(root); // lowest level first
  if (levels.empty()) {
    return std::nullopt;
  }
  return levels.back().size_bytes;
}

int64_t cpu_live_bytes() { return CountingAllocator::instance().live(); }
int64_t cpu_peak_bytes() { return CountingAllocator::instance().peak(); }
void cpu_reset_peak() { CountingAllocator::instance().reset_peak(); }

} // namespace layerbench::bench
