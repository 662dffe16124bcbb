// SPDX-License-Identifier: MIT
#pragma once

// What differs between measuring on a CUDA GPU and on the CPU: the clock, the memory probe and the
// facts recorded about the machine. Everything above this header is device-agnostic.

#include "bench/clock.hpp"
#include "bench/device_kind.hpp"
#include "bench/torch_error.hpp"
#include "dataset/dataset.hpp"
#include "util/expected.hpp"

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace layerbench::bench {

struct BlockTime
{
  double device_seconds = 0; // CUDA events on the GPU; the same as host_seconds on the CPU
  double host_seconds = 0;   // steady clock around the block, synchronised at its end
};

// Times blocks of one prepared forward in a way other than back to back (a CUDA graph replay, or with the
// L2 cache written over before each forward).
class BlockTimer
{
public:
  virtual ~BlockTimer() = default;
  // The block's total time, the timed intervals only.
  virtual BlockTime time_block(int64_t iterations) = 0;
  // Forwards one iteration runs (a graph replay runs several).
  virtual int forwards_per_iteration() const { return 1; }
  // Writes what the record needs to know of the timer (forwards per graph, flush bytes).
  virtual void describe(dataset::CudaCell& cell) const = 0;
};

// The variants a CUDA cell measures beside the eager, hot-L2 time.
enum class Variant {
  graph, // the forward captured in a CUDA graph and replayed: no host launch cost
  cold   // a buffer of at least twice the L2 cache written before each forward, outside the timed interval
};

class DeviceBackend
{
public:
  virtual ~DeviceBackend() = default;

  DeviceKind kind() const { return m_kind; }
  int index() const { return m_index; } // the GPU's index; 0 on the CPU

  // Runs `body` `iterations` times back to back and times the block.
  virtual BlockTime time_block(const std::function<void()>& body, int64_t iterations) = 0;
  virtual void synchronize() = 0;

  // The device's memory probe, in bytes of tensor storage its allocator has handed out: live now, and
  // the most live at once since the last reset (a reset starts the peak from what is live). Both count
  // everything the process holds (the canary's buffers too), so a cell's figure is the peak less the
  // bytes live before the cell built anything (bench::measure_cell).
  virtual std::optional<int64_t> live_memory_bytes() = 0;
  virtual void reset_peak_memory() = 0;
  virtual std::optional<int64_t> peak_memory_bytes() = 0;
  // The bytes a cell could still allocate before it starts (the GPU's free memory; the CPU's
  // MemAvailable), for refusing a shape that cannot fit before anything is measured; nullopt where unknown.
  virtual std::optional<int64_t> memory_capacity_bytes() const { return std::nullopt; }

  virtual std::string timer_name() const = 0;
  virtual std::string memory_method() const = 0;
  virtual void describe(dataset::Environment& environment) const = 0;

  // True when `error` says the device ran out of memory: such a cell is skipped, not fatal.
  virtual bool is_out_of_memory(const std::exception& error) const;

  // A timer for `variant` of `forward`, or why there is none (this device measures no variants, the
  // forward cannot be captured). Built when asked, so only one variant holds device memory at a time.
  virtual util::Expected<std::unique_ptr<BlockTimer>> variant_timer(Variant variant, const std::function<void()>& forward);

  // The SM clock and its clock-event reasons now, read between sample blocks; nullopt where this device
  // has none to read (the CPU, or no NVML).
  virtual std::optional<ClockReading> read_clock() { return std::nullopt; }
  // The clock a reading must reach `k_throttle_threshold` of to keep its sample; nullopt keeps all.
  virtual std::optional<unsigned> default_clock_mhz() const { return std::nullopt; }
  // Why no clock is read, for the record; empty when it is, or when the device has none (the CPU).
  virtual std::string clock_unavailable_reason() const { return {}; }

protected:
  DeviceBackend(DeviceKind kind, int index) : m_kind(kind), m_index(index) {}

private:
  DeviceKind m_kind;
  int m_index;
};

enum class DeviceChoice { automatic, cpu, cuda };

// What --device asks for: "auto", "cpu", "cuda" (GPU 0) or "cuda:N".
struct DeviceSelection
{
  DeviceChoice choice = DeviceChoice::automatic;
  int cuda_index = 0;
};

DeviceSelection parse_device_choice(const std::string& text); // throws UsageError naming --device
bool cuda_available();

// Throws Error when CUDA is asked for and there is none, or not that GPU.
std::unique_ptr<DeviceBackend> make_backend(DeviceSelection selection);

// Facts about the host and the torch build, filled in for every device.
void describe_host(dataset::Environment& environment);

// float32 means IEEE fp32 everywhere: PyTorch 2.11 runs cuDNN convolutions and RNNs in TF32 unless
// told otherwise, while cuBLAS matmuls stay IEEE. Set explicitly, before any cell, on every backend.
void use_ieee_float32();

// The float32 precision of each backend and operation in force, in words, for the methodology.
std::string precision_in_force();

} // namespace layerbench::bench
