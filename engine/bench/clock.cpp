// SPDX-License-Identifier: MIT
#include "bench/clock.hpp"

#include <cstdio>

namespace layerbench::bench {

std::vector<std::string> clock_event_reason_names(uint64_t mask)
{
  // nvml.h's nvmlClocksEventReason* / nvmlClocksThrottleReason* bits (NVML 12 and 13 agree on them).
  static const char* const k_names[] = {"gpu_idle",
                                        "applications_clocks_setting",
                                        "sw_power_cap",
                                        "hw_slowdown",
                                        "sync_boost",
                                        "sw_thermal_slowdown",
                                        "hw_thermal_slowdown",
                                        "hw_power_brake_slowdown",
                                        "display_clock_setting"};
  constexpr int k_known = sizeof(k_names) / sizeof(k_names[0]);
  std::vector<std::string> names;
  for (int bit = 0; bit < 64; ++bit) {
    const uint64_t value = uint64_t{1} << bit;
    if ((mask & value) == 0) {
      continue;
    }
    if (bit < k_known) {
      names.emplace_back(k_names[bit]);
      continue;
    }
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    names.emplace_back(text);
  }
  return names;
}

ClockLog::ClockLog(std::optional<unsigned> default_mhz, double threshold)
  : m_default_mhz(default_mhz), m_threshold(threshold)
{
}

SampleFate ClockLog::record(const std::optional<ClockReading>& reading, DropPolicy policy)
{
  if (!reading) {
    return SampleFate::keep;
  }
  m_reasons |= reading->event_reasons;
  if (!reading->sm_mhz) {
    return SampleFate::keep;
  }
  const double mhz = *reading->sm_mhz;
  const bool slow = m_default_mhz && *m_default_mhz > 0 && mhz < m_threshold * *m_default_mhz;
  if (slow && policy == DropPolicy::drop_slow) {
    ++m_dropped;
    return SampleFate::drop;
  }
  if (slow) {
    ++m_kept_slow;
  }
  m_kept_mhz_sum += mhz;
  ++m_kept_readings;
  return SampleFate::keep;
}

dataset::CudaClocks ClockLog::summary(const std::string& unavailable_reason) const
{
  dataset::CudaClocks clocks;
  clocks.unavailable_reason = unavailable_reason;
  if (m_kept_readings > 0) {
    clocks.sm_mean_mhz = m_kept_mhz_sum / m_kept_readings;
  }
  if (m_default_mhz) {
    clocks.sm_default_mhz = static_cast<int>(*m_default_mhz);
  }
  clocks.threshold = m_threshold;
  clocks.event_reasons = clock_event_reason_names(m_reasons & ~k_clock_event_gpu_idle);
  clocks.dropped_samples = m_dropped;
  clocks.kept_below_threshold = m_kept_slow;
  return clocks;
}

} // namespace layerbench::bench
