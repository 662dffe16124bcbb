// SPDX-License-Identifier: MIT
#pragma once

// The GPU's SM clock while a cell is sampled, and nvbench's rule for samples taken while it ran slow:
// a sample block whose clock reading is below 75 % of the device's default clock is dropped, as
// nvbench's --throttle-threshold (default 75) drops it. Knows nothing of torch or NVML, so the rule is
// tested on made-up readings.

#include "dataset/dataset.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::bench {

// nvbench's default --throttle-threshold, as a fraction of the default clock.
inline constexpr double k_throttle_threshold = 0.75;

// One reading, taken right after a sample block (outside the timed interval).
struct ClockReading
{
  std::optional<unsigned> sm_mhz;     // nullopt when the clock could not be read
  uint64_t event_reasons = 0;         // NVML's clock-event ("throttle") reason bits
};

// NVML's clock-event reason bits as words ("sw_power_cap", "hw_thermal_slowdown", ...), lowest bit
// first; a bit NVML may add later is named by its value ("0x200").
std::vector<std::string> clock_event_reason_names(uint64_t mask);

// The bit that says the GPU was idle. It is always set between sample blocks, where the clock is read
// (the block has just been waited for), so it is not recorded as a reason.
inline constexpr uint64_t k_clock_event_gpu_idle = 0x1;

enum class SampleFate { keep, drop };

// Whether a sample may be dropped: until the cell's time budget is spent it may; after, it is kept
// (and counted), so that a GPU held below the threshold still ends its cell.
enum class DropPolicy { drop_slow, keep_all };

// The clock readings of one cell, every mode (eager, graph, cold) together.
class ClockLog
{
public:
  // `default_mhz`: the clock whose `threshold` a sample's reading must reach; nullopt keeps every
  // sample (no NVML, or no default clock to compare with).
  explicit ClockLog(std::optional<unsigned> default_mhz, double threshold = k_throttle_threshold);

  // Records a reading (nullopt: none was taken) and says whether its sample is kept.
  SampleFate record(const std::optional<ClockReading>& reading, DropPolicy policy);

  int dropped() const { return m_dropped; }
  int kept_below_threshold() const { return m_kept_slow; }

  // The record: mean SM clock of the kept samples, the reasons seen at any sample, the drops.
  // `unavailable_reason`: why no clock was read (empty when NVML was read).
  dataset::CudaClocks summary(const std::string& unavailable_reason) const;

private:
  std::optional<unsigned> m_default_mhz;
  double m_threshold;
  double m_kept_mhz_sum = 0;
  int m_kept_readings = 0;
  uint64_t m_reasons = 0;
  int m_dropped = 0;
  int m_kept_slow = 0;
};

} // namespace layerbench::bench
