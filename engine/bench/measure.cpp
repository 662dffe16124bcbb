// SPDX-License-Identifier: MIT
#include "bench/measure.hpp"

#include "bench/cpu_memory.hpp"
#include "bench/profile.hpp"

#include <chrono>
#include <cmath>

namespace layerbench::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start)
{
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Grows the block until one block lasts block_target_seconds. Returns the iterations per block.
int64_t calibrate_block(DeviceBackend& backend, const std::function<void()>& forward, double target)
{
  int64_t iterations = 1;
  for (;;) {
    const double elapsed = backend.time_block(forward, iterations).device_seconds;
    if (elapsed >= target || iterations >= (int64_t{1} << 20)) {
      return iterations;
    }
    // Aim a little past the target from the rate just seen, but never more than 10x in one step:
    // the first blocks are the noisiest.
    const double wanted = elapsed > 0 ? std::ceil(iterations * target * 1.2 / elapsed) : iterations * 10.0;
    iterations = std::max<int64_t>(iterations * 2, std::min<int64_t>(iterations * 10, static_cast<int64_t>(wanted)));
  }
}

struct Sampling
{
  std::vector<double> device_ms; // per iteration
  std::vector<double> host_ms;
  Verdict verdict = Verdict::continue_sampling;
  double page_faults_per_iteration = 0;
};

std::optional<Sampling> sample(DeviceBackend& backend,
                               const std::function<void()>& forward,
                               int64_t iterations,
                               const StoppingRule& rule,
                               Clock::time_point cell_start,
                               const std::atomic<bool>& interrupted)
{
  Sampling result;
  const int64_t faults_before = minor_page_faults();
  while (result.verdict == Verdict::continue_sampling) {
    if (interrupted.load()) {
      return std::nullopt;
    }
    const auto block = backend.time_block(forward, iterations);
    result.device_ms.push_back(block.device_seconds * 1000.0 / static_cast<double>(iterations));
    result.host_ms.push_back(block.host_seconds * 1000.0 / static_cast<double>(iterations));
    result.verdict = decide(rule, result.device_ms, seconds_since(cell_start));
  }
  const auto timed_iterations = static_cast<double>(iterations) * static_cast<double>(result.device_ms.size());
  result.page_faults_per_iteration = static_cast<double>(minor_page_faults() - faults_before) / timed_iterations;
  return result;
}

// False when interrupted.
bool warm_up(DeviceBackend& backend, const std::function<void()>& body, const MeasureSettings& settings,
             const std::atomic<bool>& interrupted)
{
  const auto warmup_start = Clock::now();
  for (int i = 0; i < settings.warmup_min_iterations || seconds_since(warmup_start) < settings.warmup_seconds; ++i) {
    if (interrupted.load()) {
      return false;
    }
    body();
    backend.synchronize();
  }
  return true;
}

dataset::Cell skipped(const LayerSpec& spec, int batch_size, const std::string& reason)
{
  dataset::Cell cell;
  cell.layer = spec.name;
  cell.batch_size = batch_size;
  cell.status = dataset::CellStatus::skipped;
  cell.skip_reason = reason;
  return cell;
}

std::string first_line(const std::string& text)
{
  return text.substr(0, text.find('\n'));
}

dataset::Cell summarise(const LayerSpec& spec,
                        int batch_size,
                        const Sampling& sampling,
                        int64_t iterations,
                        double first_call_ms,
                        std::optional<int64_t> peak_memory)
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

  dataset::Cell cell;
  cell.layer = spec.name;
  cell.batch_size = batch_size;
  cell.stats = stats;
  cell.first_call_ms = first_call_ms;
  cell.host_wall_median_ms = summarize(sampling.host_ms).median;
  cell.peak_memory_bytes = peak_memory;
  cell.page_faults_per_iteration = sampling.page_faults_per_iteration;
  const double seconds = device.median / 1000.0;
  if (seconds > 0) {
    cell.throughput_samples_per_s = batch_size / seconds;
    cell.achieved_flop_per_s = spec.flops() * batch_size / seconds;
  }
  return cell;
}

} // namespace

std::optional<SteadyTiming> time_steady_state(DeviceBackend& backend,
                                              const std::function<void()>& body,
                                              const MeasureSettings& settings,
                                              const std::atomic<bool>& interrupted)
{
  const auto start = Clock::now();
  if (!warm_up(backend, body, settings, interrupted)) {
    return std::nullopt;
  }
  const int64_t iterations = calibrate_block(backend, body, settings.block_target_seconds);
  const auto sampling = sample(backend, body, iterations, settings.stopping, start, interrupted);
  if (!sampling) {
    return std::nullopt;
  }
  return SteadyTiming{summarize(sampling->device_ms), iterations, sampling->verdict};
}

std::optional<dataset::Cell> measure_cell(const LayerSpec& spec,
                                          int batch_size,
                                          const MeasureSettings& settings,
                                          DeviceBackend& backend,
                                          const std::atomic<bool>& interrupted)
{
  const auto cell_start = Clock::now();
  try {
    // Built inside inference mode: no autograd state is kept for parameters or activations.
    c10::InferenceMode inference;
    // The previous cell's tensors are gone, so the peak counts this layer's parameters and input.
    backend.reset_peak_memory();
    Instance instance = spec.instantiate(batch_size, backend.device());
    if (spec.mode == dataset::LayerMode::train) {
      instance.module->train();
    } else {
      instance.module->eval();
    }
    const std::function<void()> forward = [&instance] { instance.forward(); };

    // The first call pays for allocation, lazy initialisation and cuDNN's algorithm choice.
    const double first_call_ms = backend.time_block(forward, 1).host_seconds * 1000.0;

    if (!warm_up(backend, forward, settings, interrupted)) {
      return std::nullopt;
    }

    // One steady-state forward for the memory peak, parameters and input still live.
    backend.reset_peak_memory();
    forward();
    const auto peak_memory = backend.peak_memory_bytes();

    const int64_t iterations = calibrate_block(backend, forward, settings.block_target_seconds);
    auto sampling = sample(backend, forward, iterations, settings.stopping, cell_start, interrupted);
    if (!sampling) {
      return std::nullopt;
    }
    auto cell = summarise(spec, batch_size, *sampling, iterations, first_call_ms, peak_memory);
    // After the timing, so the profiler's own cost never reaches a sample.
    auto profile = profile_forward(forward, [&backend] { backend.synchronize(); },
                                   backend.device().is_cuda() ? ProfileDevice::cuda : ProfileDevice::cpu);
    cell.operators = std::move(profile.operators);
    cell.kernels = std::move(profile.kernels);
    cell.cell_seconds = seconds_since(cell_start);
    return cell;
  } catch (const std::exception& error) {
    const std::string reason = backend.is_out_of_memory(error) ? "out of memory: " : "failed: ";
    const auto* torch_error = dynamic_cast<const c10::Error*>(&error);
    auto cell = skipped(spec, batch_size, reason + first_line(torch_error ? torch_error->what_without_backtrace() : error.what()));
    cell.cell_seconds = seconds_since(cell_start);
    return cell;
  }
}

} // namespace layerbench::bench
