// SPDX-License-Identifier: MIT
#include "bench/detail/sampling.hpp"

#include "bench/cpu_memory.hpp"
#include "bench/detail/lockstep.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

namespace layerbench::bench::detail {

double seconds_since(Clock::time_point start)
{
  return std::chrono::duration<double>(Clock::now() - start).count();
}

namespace {

// nvbench's --throttle-recovery-delay default: the pause after a dropped sample, for the clock to recover.
constexpr std::chrono::milliseconds k_throttle_recovery{50};

// False when interrupted. In a data-parallel cell rank 0 decides when the warm-up ends (lockstep.hpp).
bool warm_up(DeviceBackend& backend, const std::function<void()>& body, const MeasureSettings& settings,
             const std::atomic<bool>& interrupted)
{
  const auto warmup_start = Clock::now();
  for (int i = 0;; ++i) {
    const bool more = i < settings.warmup_min_iterations || seconds_since(warmup_start) < settings.warmup_seconds;
    const auto agreed = agree(more ? 1.0 : 0.0, interrupted.load());
    if (agreed.interrupted) {
      return false;
    }
    if (agreed.value == 0.0) {
      return true;
    }
    body();
    backend.synchronize();
  }
}

// What a data-parallel cell's ranks agree after each sample block: rank 0's verdict, or that it dropped the block.
constexpr double k_dropped_block = -1.0;

} // namespace

// Grows the block until one block lasts block_target_seconds. Returns the iterations per block.
int64_t calibrate_block(const TimeBlock& time_block, double target)
{
  int64_t iterations = 1;
  for (;;) {
    const double elapsed = agree(time_block(iterations).device_seconds, false).value;
    if (elapsed >= target || iterations >= (int64_t{1} << 20)) {
      return iterations;
    }
    // Aim a little past the target from the rate just seen, but never more than 10x in one step:
    // the first blocks are the noisiest.
    const double wanted = elapsed > 0 ? std::ceil(iterations * target * 1.2 / elapsed) : iterations * 10.0;
    iterations = std::max<int64_t>(iterations * 2, std::min<int64_t>(iterations * 10, static_cast<int64_t>(wanted)));
  }
}

// Samples until the stopping rule ends. The clock is read after every block: a block read below the
// threshold of the default clock is dropped and, after a pause, taken again (nvbench's rule), until
// the time budget is spent; after that it is kept and counted, so that a slow GPU still ends the cell.
std::optional<Sampling> sample(const TimeBlock& time_block,
                               int forwards_per_iteration,
                               DeviceBackend& backend,
                               ClockLog& clocks,
                               int64_t iterations,
                               const StoppingRule& rule,
                               Clock::time_point start,
                               const std::atomic<bool>& interrupted)
{
  Sampling result;
  const int64_t faults_before = minor_page_faults();
  while (result.verdict == Verdict::continue_sampling) {
    if (agree(0.0, interrupted.load()).interrupted) {
      return std::nullopt;
    }
    const auto block = time_block(iterations);
    const auto policy = seconds_since(start) < rule.budget_seconds ? DropPolicy::drop_slow : DropPolicy::keep_all;
    const bool drop = clocks.record(backend.read_clock(), policy) == SampleFate::drop;
    const auto forwards = static_cast<double>(iterations) * forwards_per_iteration;
    result.device_ms.push_back(block.device_seconds * 1000.0 / forwards);
    const auto verdict = drop ? k_dropped_block : static_cast<double>(static_cast<int>(decide(rule, result.device_ms, seconds_since(start))));
    const auto agreed = agree(verdict, false).value;
    if (agreed == k_dropped_block) {
      result.device_ms.pop_back();
      std::this_thread::sleep_for(k_throttle_recovery);
      continue;
    }
    result.host_ms.push_back(block.host_seconds * 1000.0 / forwards);
    result.verdict = static_cast<Verdict>(static_cast<int>(agreed));
  }
  const auto timed_iterations = static_cast<double>(iterations) * static_cast<double>(result.device_ms.size());
  result.page_faults_per_iteration = static_cast<double>(minor_page_faults() - faults_before) / timed_iterations;
  return result;
}

dataset::Stats to_stats(const Sampling& sampling, int64_t iterations)
{
  const auto device = summarize(sampling.device_ms);
  dataset::Stats stats;
  stats.median_ms = device.median;
  stats.p25_ms = device.p25;
  stats.p75_ms = device.p75;
  stats.min_ms = device.min;
  stats.mean_ms = device.mean;
  stats.stddev_ms = device.stddev;
  stats.samples = device.count;
  stats.iterations_per_sample = iterations;
  stats.noise = device.noise;
  stats.noise_target_met = sampling.verdict == Verdict::target_met;
  stats.samples_ms = sampling.device_ms;
  return stats;
}

std::optional<Timed> time_body(DeviceBackend& backend,
                               const std::function<void()>& body,
                               const MeasureSettings& settings,
                               Clock::time_point start,
                               ClockLog& clocks,
                               const std::atomic<bool>& interrupted,
                               const std::function<void()>& after_warmup)
{
  if (!warm_up(backend, body, settings, interrupted)) {
    return std::nullopt;
  }
  if (after_warmup) {
    after_warmup();
  }
  const TimeBlock time_block = [&](int64_t iterations) { return backend.time_block(body, iterations); };
  Timed timed;
  timed.iterations = calibrate_block(time_block, settings.block_target_seconds);
  auto sampling = sample(time_block, 1, backend, clocks, timed.iterations, settings.stopping, start, interrupted);
  if (!sampling) {
    return std::nullopt;
  }
  timed.sampling = std::move(*sampling);
  return timed;
}

// A body timed on its own: its budget counts from now, and it reads the clock for itself.
std::optional<Timed> time_alone(DeviceBackend& backend,
                                const std::function<void()>& body,
                                const MeasureSettings& settings,
                                const std::atomic<bool>& interrupted)
{
  ClockLog clocks(backend.default_clock_mhz());
  return time_body(backend, body, settings, Clock::now(), clocks, interrupted);
}

} // namespace layerbench::bench::detail
