// SPDX-License-Identifier: MIT
#include "bench/measure.hpp"

#include "bench/corner.hpp"
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

std::string first_line(const std::string& text)
{
  return text.substr(0, text.find('\n'));
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
  return stats;
}

// One timed body: warm-up, `after_warmup` (the memory peak, where wanted), block calibration and
// samples until the stopping rule says so; the budget counts from `start`.
struct Timed
{
  Sampling sampling;
  int64_t iterations = 1;
};

std::optional<Timed> time_body(DeviceBackend& backend,
                               const std::function<void()>& body,
                               const MeasureSettings& settings,
                               Clock::time_point start,
                               const std::atomic<bool>& interrupted,
                               const std::function<void()>& after_warmup = {})
{
  const auto warmup_start = Clock::now();
  for (int i = 0; i < settings.warmup_min_iterations || seconds_since(warmup_start) < settings.warmup_seconds; ++i) {
    if (interrupted.load()) {
      return std::nullopt;
    }
    body();
    backend.synchronize();
  }
  if (after_warmup) {
    after_warmup();
  }
  Timed timed;
  timed.iterations = calibrate_block(backend, body, settings.block_target_seconds);
  auto sampling = sample(backend, body, timed.iterations, settings.stopping, start, interrupted);
  if (!sampling) {
    return std::nullopt;
  }
  timed.sampling = std::move(*sampling);
  return timed;
}

std::optional<dataset::Stats> time_part(DeviceBackend& backend,
                                        const std::function<void()>& body,
                                        const MeasureSettings& settings,
                                        const std::atomic<bool>& interrupted)
{
  const auto timed = time_body(backend, body, settings, Clock::now(), interrupted);
  if (!timed) {
    return std::nullopt;
  }
  return to_stats(timed->sampling, timed->iterations);
}

// The grad mode a corner runs in, for the whole cell: building the layer included, so that an
// inference-mode layer holds inference tensors and a training layer ordinary ones.
struct GradScope
{
  explicit GradScope(dataset::GradMode mode)
  {
    if (mode == dataset::GradMode::inference_mode) {
      inference.emplace();
    } else if (mode == dataset::GradMode::no_grad) {
      no_grad.emplace();
    }
  }
  std::optional<c10::InferenceMode> inference;
  std::optional<torch::NoGradGuard> no_grad;
};

// What autograd::grad differentiates for: the input where it is floating point (not Embedding's
// indices), the parameters where the layer has any.
struct GradTargets
{
  std::vector<torch::Tensor> input;
  std::vector<torch::Tensor> weights;
  std::vector<torch::Tensor> both;
};

GradTargets grad_targets(Instance& instance)
{
  GradTargets targets;
  if (instance.input.is_floating_point()) {
    instance.input.requires_grad_(true);
    targets.input.push_back(instance.input);
  }
  for (const auto& parameter : instance.module->parameters()) {
    if (parameter.requires_grad()) {
      targets.weights.push_back(parameter);
    }
  }
  targets.both = targets.input;
  targets.both.insert(targets.both.end(), targets.weights.begin(), targets.weights.end());
  return targets;
}

torch::autograd::variable_list gradients(const torch::Tensor& output,
                                         const std::vector<torch::Tensor>& of,
                                         const torch::Tensor& seed,
                                         bool retain)
{
  return torch::autograd::grad({output}, of, {seed}, retain, /*create_graph=*/false, /*allow_unused=*/true);
}

// The parts of a training step, each timed on its own (DeepBench's fwd, bwd_inputs, bwd_params).
std::optional<dataset::TrainTimes> time_train_parts(DeviceBackend& backend,
                                                    const std::function<torch::Tensor()>& forward,
                                                    const GradTargets& targets,
                                                    const MeasureSettings& settings,
                                                    const std::atomic<bool>& interrupted)
{
  dataset::TrainTimes times;
  auto forward_stats = time_part(backend, [&] { forward(); }, settings, interrupted);
  if (!forward_stats) {
    return std::nullopt;
  }
  times.forward = *forward_stats;
  times.sum_ms = times.forward.median_ms;
  // One recorded forward whose graph every backward below reuses (retain_graph).
  const auto output = forward();
  const auto seed = torch::ones_like(output);
  for (auto [of, into] : {std::make_pair(&targets.input, &times.backward_input),
                          std::make_pair(&targets.weights, &times.backward_weight)}) {
    if (of->empty()) {
      continue;
    }
    const auto& tensors = *of;
    auto stats = time_part(backend, [&] { gradients(output, tensors, seed, true); }, settings, interrupted);
    if (!stats) {
      return std::nullopt;
    }
    *into = *stats;
    times.sum_ms += stats->median_ms;
  }
  return times;
}

dataset::Cell summarise(const LayerSpec& spec,
                        int batch_size,
                        const dataset::Axes& axes,
                        const Timed& timed,
                        double first_call_ms,
                        std::optional<int64_t> peak_memory)
{
  dataset::Cell cell;
  cell.layer = spec.name;
  cell.batch_size = batch_size;
  cell.axes = axes;
  cell.stats = to_stats(timed.sampling, timed.iterations);
  cell.first_call_ms = first_call_ms;
  cell.host_wall_median_ms = summarize(timed.sampling.host_ms).median;
  cell.peak_memory_bytes = peak_memory;
  cell.page_faults_per_iteration = timed.sampling.page_faults_per_iteration;
  const double seconds = cell.stats->median_ms / 1000.0;
  if (seconds > 0) {
    cell.throughput_samples_per_s = batch_size / seconds;
    // The FLOP formulas count the forward only; a training step's rate would be misread.
    if (axes.mode != dataset::GradMode::train) {
      cell.achieved_flop_per_s = spec.flops() * batch_size / seconds;
    }
  }
  return cell;
}

} // namespace

dataset::Cell skipped_cell(const std::string& layer, int batch_size, const dataset::Axes& axes, const std::string& reason)
{
  dataset::Cell cell;
  cell.layer = layer;
  cell.batch_size = batch_size;
  cell.axes = axes;
  cell.status = dataset::CellStatus::skipped;
  cell.skip_reason = reason;
  return cell;
}

std::optional<dataset::Cell> measure_cell(const LayerSpec& spec,
                                          int batch_size,
                                          const MeasureSettings& settings,
                                          DeviceBackend& backend,
                                          const std::atomic<bool>& interrupted)
{
  return measure_cell(spec, batch_size, dataset::Axes{}, settings, backend, interrupted);
}

std::optional<dataset::Cell> measure_cell(const LayerSpec& spec,
                                          int batch_size,
                                          const dataset::Axes& axes,
                                          const MeasureSettings& settings,
                                          DeviceBackend& backend,
                                          const std::atomic<bool>& interrupted)
{
  const auto cell_start = Clock::now();
  const bool train = axes.mode == dataset::GradMode::train;
  try {
    const GlobalKnobs knobs(axes);
    const GradScope grad(axes.mode);
    // The previous cell's tensors are gone, so the peak counts this layer's parameters and input.
    backend.reset_peak_memory();
    Instance instance = spec.instantiate(batch_size, backend.device());
    if (train || spec.mode == dataset::LayerMode::train) {
      instance.module->train();
    } else {
      instance.module->eval();
    }
    if (axes.memory_format == dataset::MemoryFormat::channels_last) {
      to_channels_last(instance);
    }
    const auto autocast = autocast_dtype(axes.precision);
    const auto device_type = backend.device().type();
    const std::function<torch::Tensor()> forward = [&instance, autocast, device_type] {
      std::optional<AutocastScope> scope;
      if (autocast) {
        scope.emplace(device_type, *autocast);
      }
      return instance.forward();
    };
    GradTargets targets;
    torch::Tensor seed;
    std::function<void()> body = [&forward] { forward(); };
    if (train) {
      targets = grad_targets(instance);
      seed = torch::ones_like(forward());
      body = [&] { gradients(forward(), targets.both, seed, false); };
    }

    // The first call pays for allocation, lazy initialisation and, with cudnn.benchmark, the autotuning.
    const double first_call_ms = backend.time_block(body, 1).host_seconds * 1000.0;
    // One steady-state call for the memory peak, parameters and input still live.
    std::optional<int64_t> peak_memory;
    const auto peak = [&] {
      backend.reset_peak_memory();
      body();
      peak_memory = backend.peak_memory_bytes();
    };
    auto timed = time_body(backend, body, settings, cell_start, interrupted, peak);
    if (!timed) {
      return std::nullopt;
    }
    auto cell = summarise(spec, batch_size, axes, *timed, first_call_ms, peak_memory);
    if (train) {
      auto parts = time_train_parts(backend, forward, targets, settings, interrupted);
      if (!parts) {
        return std::nullopt;
      }
      cell.train = std::move(*parts);
    }
    // After the timing, so the profiler's own cost never reaches a sample.
    auto profile = profile_forward(body, [&backend] { backend.synchronize(); },
                                   backend.device().is_cuda() ? ProfileDevice::cuda : ProfileDevice::cpu);
    cell.operators = std::move(profile.operators);
    cell.kernels = std::move(profile.kernels);
    cell.cell_seconds = seconds_since(cell_start);
    return cell;
  } catch (const std::exception& error) {
    const std::string reason = backend.is_out_of_memory(error) ? "out of memory: " : "failed: ";
    const auto* torch_error = dynamic_cast<const c10::Error*>(&error);
    auto cell = skipped_cell(spec.name, batch_size, axes, reason + first_line(torch_error ? torch_error->what_without_backtrace() : error.what()));
    cell.cell_seconds = seconds_since(cell_start);
    return cell;
  }
}

} // namespace layerbench::bench
