// SPDX-License-Identifier: MIT
#include "bench/measure.hpp"

#include "bench/corner.hpp"
#include "bench/cpu_memory.hpp"
#include "bench/detail/torch_device.hpp"
#include "bench/profile.hpp"
#include "util/error.hpp"

#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

#include <chrono>
#include <cmath>
#include <thread>

namespace layerbench::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start)
{
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Times a block of `iterations` iterations; the block's total, as DeviceBackend::time_block gives it.
using TimeBlock = std::function<BlockTime(int64_t iterations)>;

// nvbench's --throttle-recovery-delay default: the pause after a dropped sample, for the clock to recover.
constexpr std::chrono::milliseconds k_throttle_recovery{50};

// Grows the block until one block lasts block_target_seconds. Returns the iterations per block.
int64_t calibrate_block(const TimeBlock& time_block, double target)
{
  int64_t iterations = 1;
  for (;;) {
    const double elapsed = time_block(iterations).device_seconds;
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
    if (interrupted.load()) {
      return std::nullopt;
    }
    const auto block = time_block(iterations);
    const auto policy = seconds_since(start) < rule.budget_seconds ? DropPolicy::drop_slow : DropPolicy::keep_all;
    if (clocks.record(backend.read_clock(), policy) == SampleFate::drop) {
      std::this_thread::sleep_for(k_throttle_recovery);
      continue;
    }
    const auto forwards = static_cast<double>(iterations) * forwards_per_iteration;
    result.device_ms.push_back(block.device_seconds * 1000.0 / forwards);
    result.host_ms.push_back(block.host_seconds * 1000.0 / forwards);
    result.verdict = decide(rule, result.device_ms, seconds_since(start));
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
                               ClockLog& clocks,
                               const std::atomic<bool>& interrupted,
                               const std::function<void()>& after_warmup = {})
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

std::optional<dataset::Stats> time_part(DeviceBackend& backend,
                                        const std::function<void()>& body,
                                        const MeasureSettings& settings,
                                        const std::atomic<bool>& interrupted)
{
  const auto timed = time_alone(backend, body, settings, interrupted);
  return timed ? std::optional<dataset::Stats>(to_stats(timed->sampling, timed->iterations)) : std::nullopt;
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

// One variant timed with the eager path's block size rule and stopping rule, its budget counted from its
// own start. Nullopt when interrupted.
std::optional<util::Expected<dataset::VariantStats>> measure_variant(Variant variant,
                                                                    const std::function<void()>& forward,
                                                                    const MeasureSettings& settings,
                                                                    DeviceBackend& backend,
                                                                    ClockLog& clocks,
                                                                    dataset::CudaCell& record,
                                                                    const std::atomic<bool>& interrupted)
{
  using Result = util::Expected<dataset::VariantStats>;
  auto timer = backend.variant_timer(variant, forward);
  if (!timer) {
    return Result::failure(timer.error());
  }
  auto& block_timer = **timer;
  block_timer.describe(record);
  const TimeBlock time_block = [&block_timer](int64_t iterations) { return block_timer.time_block(iterations); };
  // A variant that fails while timed (out of memory for the cold buffer's neighbours, a replay error)
  // costs its own figures only, never the eager ones already taken.
  try {
    const auto start = Clock::now();
    const int64_t iterations = calibrate_block(time_block, settings.block_target_seconds);
    const auto sampling = sample(time_block, block_timer.forwards_per_iteration(), backend, clocks, iterations,
                                 settings.stopping, start, interrupted);
    if (!sampling) {
      return std::nullopt;
    }
    return variant_stats(summarize(sampling->device_ms), iterations);
  } catch (const std::exception& error) {
    return Result::failure("failed while timed: " + error_line(error));
  }
}

// The CUDA record of a cell: the graph and cold variants and the clocks. Nullopt when interrupted.
std::optional<dataset::CudaCell> measure_cuda(const std::function<void()>& forward,
                                              double eager_median_ms,
                                              const MeasureSettings& settings,
                                              DeviceBackend& backend,
                                              ClockLog& clocks,
                                              const std::atomic<bool>& interrupted)
{
  dataset::CudaCell record;
  for (const auto variant : {Variant::graph, Variant::cold}) {
    const auto outcome = measure_variant(variant, forward, settings, backend, clocks, record, interrupted);
    if (!outcome) {
      return std::nullopt;
    }
    record_variant(record, variant, *outcome, eager_median_ms);
  }
  record.clocks = clocks.summary(backend.clock_unavailable_reason());
  return record;
}

} // namespace

std::optional<SteadyTiming> time_steady_state(DeviceBackend& backend,
                                              const std::function<void()>& body,
                                              const MeasureSettings& settings,
                                              const std::atomic<bool>& interrupted)
{
  const auto timed = time_alone(backend, body, settings, interrupted);
  if (!timed) {
    return std::nullopt;
  }
  return SteadyTiming{summarize(timed->sampling.device_ms), timed->iterations, timed->sampling.verdict};
}

dataset::VariantStats variant_stats(const Summary& summary, int64_t iterations)
{
  dataset::VariantStats stats;
  stats.median_ms = summary.median;
  stats.p25_ms = summary.p25;
  stats.p75_ms = summary.p75;
  stats.samples = summary.count;
  stats.iterations_per_sample = iterations;
  stats.noise = summary.noise;
  return stats;
}

void record_variant(dataset::CudaCell& record,
                    Variant variant,
                    const util::Expected<dataset::VariantStats>& outcome,
                    double eager_median_ms)
{
  const bool graph = variant == Variant::graph;
  auto& stats = graph ? record.graph : record.cold;
  auto& reason = graph ? record.graph_skip_reason : record.cold_skip_reason;
  auto& ratio = graph ? record.graph_over_eager : record.cold_over_hot;
  if (!outcome) {
    stats.reset();
    ratio.reset();
    reason = outcome.error().empty() ? "no reason given" : outcome.error();
    return;
  }
  stats = *outcome;
  reason.clear();
  if (eager_median_ms > 0) {
    ratio = outcome->median_ms / eager_median_ms;
  }
}

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

namespace {

// A cell's module and input at one corner, and what one timed iteration runs: the forward, or for a
// train corner the forward and its gradients. It stays where it was built: the callables refer to it.
class CellBody
{
public:
  CellBody(const LayerSpec& spec,
           int batch_size,
           const dataset::Axes& axes,
           DeviceBackend& backend,
           const std::filesystem::path& aoti_package)
    : m_instance(spec.instantiate(batch_size, detail::torch_device(backend)))
  {
    const bool train = axes.mode == dataset::GradMode::train;
    if (train || spec.mode == dataset::LayerMode::train) {
      m_instance.module->train();
    } else {
      m_instance.module->eval();
    }
    if (axes.memory_format == dataset::MemoryFormat::channels_last) {
      to_channels_last(m_instance);
    }
    // The package holds its own weights, exported from the Python twin of the layer; only the input is shared.
    if (axes.compiled == dataset::Compiled::aot_inductor) {
      try {
        m_package = std::make_unique<torch::inductor::AOTIModelPackageLoader>(aoti_package.string());
      } catch (const std::exception& error) {
        throw Error("AOTInductor package " + aoti_package.string() + " cannot be loaded (" + error_line(error)
                    + "); delete it, and the next run exports it again");
      }
    }
    forward = [this, autocast = autocast_dtype(axes.precision), device_type = detail::torch_device(backend).type()] {
      if (m_package) {
        return m_package->run({m_instance.input}).at(0);
      }
      std::optional<AutocastScope> scope;
      if (autocast) {
        scope.emplace(device_type, *autocast);
      }
      return m_instance.forward();
    };
    body = [this] { forward(); };
    if (train) {
      targets = grad_targets(m_instance);
      m_seed = torch::ones_like(forward());
      body = [this] { gradients(forward(), targets.both, m_seed, false); };
    }
  }
  CellBody(const CellBody&) = delete;
  CellBody& operator=(const CellBody&) = delete;

  std::function<torch::Tensor()> forward;
  std::function<void()> body;
  GradTargets targets; // train corners only

private:
  Instance m_instance;
  std::unique_ptr<torch::inductor::AOTIModelPackageLoader> m_package;
  torch::Tensor m_seed;
};

} // namespace

std::optional<dataset::Cell> measure_cell(const LayerSpec& spec,
                                          int batch_size,
                                          const dataset::Axes& axes,
                                          const MeasureSettings& settings,
                                          DeviceBackend& backend,
                                          const std::atomic<bool>& interrupted,
                                          const std::filesystem::path& aoti_package)
{
  const auto cell_start = Clock::now();
  const bool train = axes.mode == dataset::GradMode::train;
  try {
    const GlobalKnobs knobs(axes);
    const GradScope grad(axes.mode);
    // The previous cell's tensors are gone, so the peak counts this layer's parameters and input.
    backend.reset_peak_memory();
    const CellBody cell_body(spec, batch_size, axes, backend, aoti_package);
    const auto& body = cell_body.body;

    // The first call pays for allocation, lazy initialisation and, with cudnn.benchmark, the autotuning.
    const double first_call_ms = backend.time_block(body, 1).host_seconds * 1000.0;
    // One steady-state call for the memory peak, parameters and input still live.
    std::optional<int64_t> peak_memory;
    const auto peak = [&] {
      backend.reset_peak_memory();
      body();
      peak_memory = backend.peak_memory_bytes();
    };
    ClockLog clocks(backend.default_clock_mhz());
    auto timed = time_body(backend, body, settings, cell_start, clocks, interrupted, peak);
    if (!timed) {
      return std::nullopt;
    }
    auto cell = summarise(spec, batch_size, axes, *timed, first_call_ms, peak_memory);
    // The launch-free and cold-L2 variants time the forward; a training step's are not taken.
    if (backend.kind() == DeviceKind::cuda && !train) {
      cell.cuda = measure_cuda(body, cell.stats->median_ms, settings, backend, clocks, interrupted);
      if (!cell.cuda) {
        return std::nullopt;
      }
    }
    if (train) {
      auto parts = time_train_parts(backend, cell_body.forward, cell_body.targets, settings, interrupted);
      if (!parts) {
        return std::nullopt;
      }
      cell.train = std::move(*parts);
    }
    cell.cell_seconds = seconds_since(cell_start);
    return cell;
  } catch (const std::exception& error) {
    const std::string reason = backend.is_out_of_memory(error) ? "out of memory: " : "failed: ";
    auto cell = skipped_cell(spec.name, batch_size, axes, reason + error_line(error));
    cell.cell_seconds = seconds_since(cell_start);
    return cell;
  }
}

util::Expected<Profile> profile_cell(const LayerSpec& spec,
                                     int batch_size,
                                     const dataset::Axes& axes,
                                     DeviceBackend& backend,
                                     const std::filesystem::path& aoti_package)
{
  try {
    const GlobalKnobs knobs(axes);
    const GradScope grad(axes.mode);
    const CellBody cell_body(spec, batch_size, axes, backend, aoti_package);
    // One call first, so the profile sees a steady-state iteration, as the timed ones were.
    cell_body.body();
    backend.synchronize();
    return profile_forward(cell_body.body, [&backend] { backend.synchronize(); },
                           backend.kind() == DeviceKind::cuda ? ProfileDevice::cuda : ProfileDevice::cpu);
  } catch (const std::exception& error) {
    return util::Expected<Profile>::failure(error_line(error));
  }
}

} // namespace layerbench::bench
