#include "bench/clock.hpp"

#include <doctest/doctest.h>

using namespace layerbench::bench;

namespace {

std::optional<ClockReading> reading(unsigned mhz, uint64_t reasons = 0)
{
  return ClockReading{mhz, reasons};
}

} // namespace

TEST_CASE("bench::clock_event_reason_names")
{
  SUBCASE("each of NVML's bits by name, lowest first")
  {
    CHECK(clock_event_reason_names(0).empty());
    CHECK(clock_event_reason_names(0x4) == std::vector<std::string>{"sw_power_cap"});
    CHECK(clock_event_reason_names(0x1 | 0x20 | 0x40)
          == std::vector<std::string>{"gpu_idle", "sw_thermal_slowdown", "hw_thermal_slowdown"});
    CHECK(clock_event_reason_names(0x100) == std::vector<std::string>{"display_clock_setting"});
  }
  SUBCASE("a bit NVML may add later is named by its value")
  {
    CHECK(clock_event_reason_names(0x200) == std::vector<std::string>{"0x200"});
  }
}

TEST_CASE("bench::ClockLog")
{
  SUBCASE("a reading below 75% of the default clock is dropped, one at or above it kept")
  {
    ClockLog log(1980);
    CHECK(log.record(reading(1980), DropPolicy::drop_slow) == SampleFate::keep);
    CHECK(log.record(reading(1485), DropPolicy::drop_slow) == SampleFate::keep); // exactly 75 %
    CHECK(log.record(reading(1484), DropPolicy::drop_slow) == SampleFate::drop);
    CHECK(log.record(reading(345), DropPolicy::drop_slow) == SampleFate::drop);
    CHECK(log.dropped() == 2);
    const auto clocks = log.summary("");
    CHECK(clocks.dropped_samples == 2);
    CHECK(clocks.kept_below_threshold == 0);
    REQUIRE(clocks.sm_mean_mhz);
    CHECK(*clocks.sm_mean_mhz == doctest::Approx((1980.0 + 1485.0) / 2)); // the kept ones only
    CHECK(clocks.sm_default_mhz == 1980);
    CHECK(clocks.threshold == doctest::Approx(0.75));
  }
  SUBCASE("once the budget is spent a slow reading is kept and counted")
  {
    ClockLog log(2000);
    CHECK(log.record(reading(1000), DropPolicy::keep_all) == SampleFate::keep);
    CHECK(log.kept_below_threshold() == 1);
    CHECK(log.summary("").dropped_samples == 0);
    CHECK(*log.summary("").sm_mean_mhz == doctest::Approx(1000));
  }
  SUBCASE("without a default clock nothing is dropped, the clock is still recorded")
  {
    ClockLog log(std::nullopt);
    CHECK(log.record(reading(100), DropPolicy::drop_slow) == SampleFate::keep);
    const auto clocks = log.summary("");
    CHECK(!clocks.sm_default_mhz);
    CHECK(*clocks.sm_mean_mhz == doctest::Approx(100));
  }
  SUBCASE("no reading (no NVML) keeps every sample and records why")
  {
    ClockLog log(1980);
    CHECK(log.record(std::nullopt, DropPolicy::drop_slow) == SampleFate::keep);
    const auto clocks = log.summary("cannot load libnvidia-ml.so.1");
    CHECK(!clocks.sm_mean_mhz);
    CHECK(clocks.unavailable_reason == "cannot load libnvidia-ml.so.1");
  }
  SUBCASE("the reasons seen at any reading, dropped ones included, gpu_idle left out")
  {
    ClockLog log(1980);
    log.record(reading(1980, 0x1), DropPolicy::drop_slow);
    log.record(reading(900, 0x4 | 0x1), DropPolicy::drop_slow);
    log.record(reading(1900, 0x20), DropPolicy::drop_slow);
    CHECK(log.summary("").event_reasons == std::vector<std::string>{"sw_power_cap", "sw_thermal_slowdown"});
  }
  SUBCASE("a reading without a clock value keeps its sample and still gives its reasons")
  {
    ClockLog log(1980);
    CHECK(log.record(ClockReading{std::nullopt, 0x8}, DropPolicy::drop_slow) == SampleFate::keep);
    CHECK(log.summary("").event_reasons == std::vector<std::string>{"hw_slowdown"});
    CHECK(!log.summary("").sm_mean_mhz);
  }
}
