// SPDX-License-Identifier: MIT
#include "bench/runner.hpp"

#include "bench/aoti_cache.hpp"
#include "catalog/catalog.hpp"
#include "bench/checkpoint.hpp"
#include "bench/detail/ddp/data_parallel.hpp"
#include "bench/detail/canary.hpp"
#include "bench/detail/corner.hpp"
#include "bench/detail/placement.hpp"
#include "bench/peaks.hpp"
#include "bench/run_plan.hpp"
#include "dataset/rounds.hpp"
#include "dataset/speed_class.hpp"
#include "dataset/io.hpp"
#include "dataset/validate.hpp"
#include "util/build_info.hpp"
#include "util/error.hpp"
#include "util/format.hpp"
#include "util/progress.hpp"
#include "util/time.hpp"

#include <ATen/Parallel.h>
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sys/resource.h>
#include <torch/version.h>
#include <unistd.h>

namespace layerbench::bench {

namespace {

const char* const k_flop_convention =
  "2 FLOPs per multiply-accumulate in matrix products, convolutions and attention (matmul_flops_per_sample, "
  "what torch.utils.flop_counter counts), plus 1 FLOP per elementwise add, multiply, compare or divide: bias and "
  "residual adds, recurrent gate arithmetic, softmax at 4 per score, ReLU, LayerNorm at 7 and eval BatchNorm at 2 per "
  "element, pooling at K*K-1 compares (max) or K*K (average) per output, Dropout's scaling multiply. Not counted: "
  "exp, tanh, sigmoid and other transcendentals, random number generation, memory movement (Embedding: 0), the "
  "head-averaged attention weights. Per sample; a cell's work is that times the batch size.";

const char* const k_dispatch =
  "each layer runs the ATen operators that Python's torch.nn module runs when built with the reference page's "
  "arguments and defaults for the rest, called as its documentation shows (MultiheadAttention as mha(x, x, x)), in "
  "eval() under inference mode (Dropout in train mode); where LibTorch's C++ module dispatches other operators, the "
  "catalog calls Python's operators directly (layers[].dispatch says which). The operators of one profiled forward "
  "are recorded per cell, and a test checks that their set equals the Python module's. Every profile is taken after "
  "all of the run's timings, on the cell rebuilt and called once first: on CUDA a profiler session leaves CUPTI "
  "attached to the process, which slows the kernels launched after it.";

const char* const k_cuda_method =
  "beside the eager time in stats (back to back, the L2 cache hot), every CUDA cell takes two variants with the same "
  "block-size and stopping rules. graph: after three warm-up forwards on a side stream, the forward is captured "
  "8 times into one CUDA graph (at::cuda::CUDAGraph) on that non-default stream and the graph is replayed in blocks "
  "timed by CUDA events; times are per forward, and graph_over_eager below 1 is the host's launch cost. A forward "
  "that cannot be captured is recorded with the reason. cold: before every timed forward a buffer of twice the L2 "
  "cache (cudaDevAttrL2CacheSize, rounded up to a MiB) is written with cudaMemsetAsync, outside the timed interval "
  "as nvbench's l2flush does, and each forward is timed by its own pair of events. clocks: after every sample block "
  "the SM clock and the clock-event (throttle) reasons are read through NVML (libnvidia-ml loaded at run time); a "
  "block read below 75% of the default applications clock is dropped and taken again after 50 ms, as nvbench's "
  "--throttle-threshold and --throttle-recovery-delay defaults do, until the cell's budget is spent (then kept and "
  "counted). gpu_idle is not recorded: the GPU is idle by design when read.";

std::string slug(const std::string& text)
{
  std::string result;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      result += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!result.empty() && result.back() != '-') {
      result += '-';
    }
  }
  while (!result.empty() && result.back() == '-') {
    result.pop_back();
  }
  return result.empty() ? "device" : result;
}

dataset::Methodology methodology(const RunOptions& options, const std::vector<std::string>& layers, const DeviceBackend& backend)
{
  const auto& s = options.settings;
  dataset::Methodology m;
  m.timer = backend.timer_name();
  m.dtype = "float32";
  // Whether every cell ran in inference mode; a cube's cells say their own mode in results[].axes.
  m.inference_mode = options.axes[dataset::k_mode] == std::vector<dataset::GradMode>{dataset::GradMode::inference_mode};
  m.layers = layers;
  m.batch_sizes = options.batch_sizes;
  m.warmup_seconds = s.warmup_seconds;
  m.warmup_min_iterations = s.warmup_min_iterations;
  m.block_target_seconds = s.block_target_seconds;
  m.noise_metric = "iqr_over_median";
  m.noise_target = s.stopping.noise_target;
  m.min_samples = s.stopping.min_samples;
  m.max_samples = s.stopping.max_samples;
  m.cell_budget_seconds = s.stopping.budget_seconds;
  m.flop_convention = k_flop_convention;
  m.memory_method = backend.memory_method();
  m.speed_class_rule = dataset::speed_class_rule();
  m.shard = options.shard;
  m.shard_plan = options.shard_plan;
  m.shard_cells = options.shard_cells;
  m.cpu_memory_policy = to_string(options.cpu_memory);
  m.cpu_memory_policy_text = describe(options.cpu_memory);
  if (backend.kind() == DeviceKind::cpu) {
    m.cpu_memory_policy_text += "; " + detail::k_input_placement_text;
  }
  m.precision = precision_in_force();
  m.dispatch = k_dispatch;
  m.canary = detail::Canary::describe();
  if (backend.kind() == DeviceKind::cuda) {
    m.cuda_method = k_cuda_method;
  }
  m.axes = options.axes;
  if (!options.axes.is_reference()) {
    m.axes_text = detail::describe_axes();
  }
  return m;
}

// The 1-minute load average; nullopt where the system does not give it.
std::optional<double> load_average()
{
  double load[1] = {0};
  if (getloadavg(load, 1) != 1) {
    return std::nullopt;
  }
  return load[0];
}

// CPU time the whole machine and this process have used so far, to tell other work from the run's own.
// The load average cannot: it decays over a minute, so a run started right after another finds it high.
struct CpuClock
{
  double machine_busy_seconds = 0; // every core's non-idle time, from /proc/stat
  double own_seconds = 0;          // this process's user and system time, and its children's that ended
                                   // (the AOTInductor exporter, the torch.compile worker: the run's own work)
  std::chrono::steady_clock::time_point at;
};

std::optional<CpuClock> read_cpu_clock()
{
  std::ifstream stat("/proc/stat");
  std::string label;
  double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  if (!(stat >> label >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) || label != "cpu") {
    return std::nullopt;
  }
  rusage own{};
  rusage children{};
  getrusage(RUSAGE_SELF, &own);
  getrusage(RUSAGE_CHILDREN, &children);
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  const auto seconds = [](const rusage& r) {
    const auto of = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
    return of(r.ru_utime) + of(r.ru_stime);
  };
  return CpuClock{(user + nice + system + irq + softirq + steal) / tick, seconds(own) + seconds(children),
                  std::chrono::steady_clock::now()};
}

// Cores other processes kept busy on average since `start`: the machine's busy CPU time less this
// process's own and `ranks_seconds` (the other ranks of a data-parallel run on this machine), over
// the wall time. The load average cannot tell them apart: it decays over a minute.
std::optional<double> other_cores_busy(const std::optional<CpuClock>& start, double ranks_seconds)
{
  const auto end = read_cpu_clock();
  if (!start || !end) {
    return std::nullopt;
  }
  const double wall = std::chrono::duration<double>(end->at - start->at).count();
  const double others = ((end->machine_busy_seconds - start->machine_busy_seconds)
                         - (end->own_seconds - start->own_seconds) - ranks_seconds) / std::max(wall, 1e-3);
  return std::max(others, 0.0);
}

// Other work on the cores slows and spreads the timings; say so rather than publish it silently.
void warn_if_busy(const dataset::Environment& environment)
{
  if (!environment.other_cores_busy || *environment.other_cores_busy < dataset::k_busy_cores_threshold) {
    return;
  }
  std::cerr << "layerbench: warning: the machine was busy: other processes kept "
            << util::format_fixed(*environment.other_cores_busy, 2) << " of its " << environment.logical_cores
            << " cores busy on average during the run (1-minute load average "
            << util::format_fixed(environment.load_average_start.value_or(0), 2) << " at start and "
            << util::format_fixed(environment.load_average_end.value_or(0), 2)
            << " at the end, recorded in the dataset); the timings may be slower and noisier than on a quiet machine, "
               "and publish refuses the run without --force\n";
}

// The title names what was measured: "2 PyTorch layers" for a run of two; a layer sum names its models.
std::string run_title(const RunOptions& options, const std::vector<std::string>& layers, const std::string& device)
{
  std::string models;
  int parts = 0;
  for (const auto& name : layers) {
    const auto& spec = find_layer(name);
    if (spec.kind == dataset::LayerKind::model_layer) {
      ++parts;
    } else if (spec.kind == dataset::LayerKind::model) {
      models += (models.empty() ? "" : ", ") + name;
    }
  }
  if (parts > 0) {
    return "The layer sum of " + models + ": the model beside its " + std::to_string(parts) + " layers at its own shapes, on "
           + device + " (local run)";
  }
  return std::string(options.axes.is_reference() ? "Forward pass" : "Performance settings") + " of "
         + std::to_string(layers.size()) + " PyTorch layer" + (layers.size() == 1 ? "" : "s") + " on " + device
         + " (local run)";
}

dataset::Dataset new_dataset(const RunOptions& options, const std::vector<std::string>& layers, DeviceBackend& backend)
{
  dataset::Dataset result;
  result.kind = dataset::Kind::measured;
  result.created = util::utc_now();
  dataset::Environment environment;
  describe_host(environment);
  backend.describe(environment);
  environment.load_average_start = load_average();
  result.id = "local-" + slug(environment.device.name);
  result.version = 0;
  result.title = run_title(options, layers, environment.device.name);
  result.license.attribution = "LayerBench contributors, PyTorch layer forward-pass benchmark, measured with layerbench "
                               + std::string(build_info::k_version) + ", licensed CC BY 4.0";
  result.creators.push_back({"LayerBench contributors", ""});
  result.provenance.tool_version = build_info::k_version;
  result.provenance.git_commit = build_info::k_git_commit;
  result.provenance.command_line = options.command_line;
  result.environment = environment;
  result.methodology = methodology(options, layers, backend);
  for (const auto& name : layers) {
    result.layers.push_back(describe(find_layer(name)));
  }
  return result;
}

std::vector<std::string> layers_of(const RunOptions& options)
{
  std::vector<std::string> layers = options.layers;
  if (layers.empty()) {
    for (const auto& spec : catalog()) {
      layers.push_back(spec.name);
    }
  }
  return layers;
}

std::string describe_cell(const dataset::Cell& cell)
{
  if (cell.status == dataset::CellStatus::skipped) {
    return "skipped (" + cell.skip_reason + ")";
  }
  const auto& s = *cell.stats;
  return util::format_significant(s.median_ms, 3) + " ms median, noise " + util::format_fixed(*s.noise * 100, 1)
         + "% over " + std::to_string(*s.samples) + " samples" + (*s.noise_target_met ? "" : " (target not met)");
}

AotiCache aoti_cache(const RunOptions& options)
{
  return AotiCache(options.aoti_cache.empty() ? default_aoti_cache() : options.aoti_cache, default_exporter());
}

AotiKey aoti_key(const AotiCache& cache, const std::string& layer, const DeviceBackend& backend)
{
  return cache.key(layer, backend.kind() == DeviceKind::cuda ? "cuda" : "cpu", TORCH_VERSION);
}

// Measures the planned cells one at a time: a corner the device does not support is skipped with the
// reason, a compiled=aot_inductor one is measured on its layer's package, any other as it is; the
// canary is measured right before each.
class CellRunner
{
public:
  CellRunner(const RunOptions& options, DeviceBackend& backend)
    : m_options(options), m_backend(backend), m_canary(backend), m_packages(aoti_cache(options))
  {
  }

  // What the progress bar says while `key` is measured.
  std::string title(const dataset::CellKey& key) const
  {
    const auto& [layer, batch, axes] = key;
    // An export takes a minute or more: say so, or the bar looks stuck.
    const bool exports = !unsupported(axes, m_backend.kind(), traits(find_layer(layer)))
                         && axes[dataset::k_compiled] == dataset::Compiled::aot_inductor && m_failed_packages.count(layer) == 0
                         && !m_packages.contains(aoti_key(m_packages, layer, m_backend));
    return layer + " batch " + std::to_string(batch) + (axes.is_reference() ? "" : " " + dataset::label(axes))
           + (exports ? " (exporting its AOTInductor package first)" : "");
  }

  // Nullopt when interrupted.
  std::optional<dataset::Cell> run(const dataset::CellKey& key, const std::atomic<bool>& interrupted)
  {
    const auto& spec = find_layer(key.layer);
    if (const auto reason = unsupported(key.axes, m_backend.kind(), traits(spec))) {
      return skipped_cell(key.layer, key.batch_size, key.axes, *reason);
    }
    if (key.axes[dataset::k_compiled] == dataset::Compiled::aot_inductor) {
      return measure_compiled(spec, key.batch_size, key.axes, interrupted);
    }
    const auto machine = m_canary.measure();
    auto cell = measure_cell(spec, key.batch_size, key.axes, m_options.settings, m_backend, interrupted);
    if (cell) {
      cell->canary = machine;
    }
    return cell;
  }

private:
  // The layer's package from the cache, exported on first use (not counted in the cell's time but
  // recorded with it), then the cell measured on it. A package that cannot be had is the skip reason
  // of every cell of its layer; m_failed_packages keeps it, so the export is tried once per run.
  std::optional<dataset::Cell> measure_compiled(const LayerSpec& spec,
                                                int batch,
                                                const dataset::Axes& axes,
                                                const std::atomic<bool>& interrupted)
  {
    if (const auto known = m_failed_packages.find(spec.name); known != m_failed_packages.end()) {
      return skipped_cell(spec.name, batch, axes, known->second);
    }
    const auto package = m_packages.get(aoti_key(m_packages, spec.name, m_backend), interrupted);
    if (!package && interrupted.load()) {
      return std::nullopt; // Ctrl-C reached the exporter too: not the layer's fault, try again on --resume
    }
    if (!package) {
      m_failed_packages[spec.name] = package.error();
      return skipped_cell(spec.name, batch, axes, package.error());
    }
    const auto machine = m_canary.measure();
    auto cell = measure_cell(spec, batch, axes, m_options.settings, m_backend, interrupted, package->path);
    if (cell) {
      cell->canary = machine;
      cell->aoti = dataset::AotiRecord{package->compile_seconds, package->source == PackageSource::cached};
    }
    return cell;
  }

  const RunOptions& m_options;
  DeviceBackend& m_backend;
  detail::Canary m_canary;
  AotiCache m_packages;
  std::map<std::string, std::string> m_failed_packages; // layer: why its package cannot be had
};

// Every measured cell's operators and kernels, each cell in a profile of its own after all the run's
// timings (bench/measure.hpp says why); a resumed run profiles the cells its checkpoint has without them.
void profile_cells(dataset::Dataset& result,
                   const RunOptions& options,
                   DeviceBackend& backend,
                   Checkpoint& checkpoint,
                   const std::atomic<bool>& interrupted)
{
  const auto packages = aoti_cache(options);
  for (auto& cell : result.results) {
    // A torch.compile cell ran in the Python worker, whose profile LayerBench cannot take.
    if (cell.status != dataset::CellStatus::ok || !cell.operators.empty() || !cell.kernels.empty()
        || cell.axes[dataset::k_compiled] == dataset::Compiled::torch_compile) {
      continue;
    }
    if (interrupted.load()) {
      checkpoint.save(result);
      throw Error("interrupted while profiling the cells: all " + std::to_string(result.results.size())
                  + " measured cells are saved in " + checkpoint.path().string() + "; continue with the same command and --resume");
    }
    std::filesystem::path package;
    if (cell.axes[dataset::k_compiled] == dataset::Compiled::aot_inductor) {
      const auto cached = packages.get(aoti_key(packages, cell.layer, backend), interrupted);
      if (!cached) {
        std::cerr << "layerbench: warning: " << dataset::describe_cell({cell.layer, cell.batch_size, cell.axes}) << " has no profile: " << cached.error() << "\n";
        continue;
      }
      package = cached->path;
    }
    auto profile = profile_cell(find_layer(cell.layer), cell.batch_size, cell.axes, backend, package);
    if (!profile) {
      std::cerr << "layerbench: warning: " << dataset::describe_cell({cell.layer, cell.batch_size, cell.axes}) << " has no profile: " << profile.error() << "\n";
      continue;
    }
    cell.operators = std::move(profile->operators);
    cell.kernels = std::move(profile->kernels);
    checkpoint.save(result);
  }
}

// Before the first cell, so that no cell sees another regime or the previous cells' history.
void prepare_process(const RunOptions& options)
{
  if (options.threads > 0) {
    at::set_num_threads(options.threads);
  }
  apply(options.cpu_memory);
  use_ieee_float32();
}

// A shard measures the cells its plan gave it (cmd_run computes the plan, the same in every task).
std::optional<std::vector<dataset::CellKey>> shard_cells(const RunOptions& options)
{
  if (options.shard.empty()) {
    return std::nullopt;
  }
  return options.shard_cells;
}

// What follows the cells: the device's peaks, the profiles, the counted parameters and the load at the end.
void finish_run(dataset::Dataset& result,
                const RunOptions& options,
                DeviceBackend& backend,
                Checkpoint& checkpoint,
                const std::atomic<bool>& interrupted)
{
  // After the cells, so that no cell sees the peaks' large allocations in its allocator's history.
  if (options.peaks == PeakMeasurement::measure) {
    auto peaks = measure_peaks(backend, options.settings, interrupted);
    if (!peaks) {
      checkpoint.save(result);
      throw Error("interrupted while measuring the device's peaks: " + std::to_string(result.results.size())
                  + " finished cells are saved in " + checkpoint.path().string() + "; continue with the same command and "
                  "--resume (or --no-peaks)");
    }
    std::cerr << "layerbench: device peaks: " << describe(*peaks) << "\n";
    result.environment->peaks = std::move(*peaks);
  }
  // A data-parallel step cannot be profiled by one rank alone: its all-reduce waits for the others.
  if (options.profiles == Profiles::take && !options.rendezvous) {
    profile_cells(result, options, backend, checkpoint, interrupted);
  }
  for (auto& layer : result.layers) {
    layer.params_counted = count_parameters(find_layer(layer.name));
  }
  result.environment->load_average_end = load_average();
}

} // namespace

MeasureSettings default_settings(DeviceKind device)
{
  MeasureSettings settings;
  if (device == DeviceKind::cuda) {
    settings.warmup_seconds = 0.2;
    settings.warmup_min_iterations = 3;
    settings.block_target_seconds = 0.001;
    settings.stopping = {0.02, 10, 1000, 2.0};
    return settings;
  }
  settings.warmup_seconds = 0.05;
  settings.warmup_min_iterations = 1;
  settings.block_target_seconds = 0.01;
  settings.stopping = {0.05, 5, 100, 1.5};
  return settings;
}

Estimate estimate_run(const RunOptions& options, const DeviceBackend& backend)
{
  std::vector<LayerTraits> layers;
  std::set<std::string> cached;
  const auto cache = aoti_cache(options);
  for (const auto& name : layers_of(options)) {
    layers.push_back(traits(find_layer(name)));
    if (cache.contains(aoti_key(cache, name, backend))) {
      cached.insert(name);
    }
  }
  return estimate(layers, options.batch_sizes.size(), dataset::corners(options.axes), backend.kind(),
                  options.settings.warmup_seconds, options.settings.stopping, cached);
}

namespace {

// The ranks must measure the same cells: a rank that planned others (a checkpoint it read differently)
// would wait in collectives the others never join.
void check_same_cells(size_t cells, int rank)
{
  const auto rank_zero = detail::agree(static_cast<double>(cells), false).value;
  if (rank_zero != static_cast<double>(cells)) {
    throw Error("rank " + std::to_string(rank) + " planned " + std::to_string(cells) + " cells to measure and rank 0 "
                + util::format_fixed(rank_zero, 0) + "; the ranks must run the same command on the same checkpoint");
  }
}

// The CPU time the other ranks on this machine spent on the cells, which the busy-machine check must
// not count as other work. Collective.
double other_ranks_seconds(ddp::DataParallelRun& ranks, const std::optional<CpuClock>& start)
{
  const auto now = read_cpu_clock();
  const double own = start && now ? now->own_seconds - start->own_seconds : 0.0;
  return ranks.sum_on_first_host(own) - own;
}

} // namespace

dataset::Dataset run_matrix(const RunOptions& options, DeviceBackend& backend, const std::atomic<bool>& interrupted)
{
  const Matrix matrix{layers_of(options), options.batch_sizes, dataset::corners(options.axes)};
  prepare_process(options);
  std::unique_ptr<ddp::DataParallelRun> ranks;
  if (options.rendezvous) {
    ranks = std::make_unique<ddp::DataParallelRun>(*options.rendezvous, backend.kind());
  }
  // Rank 0 alone keeps the checkpoint; the other ranks read it to resume, and write nothing.
  const bool writes = !ranks || ranks->rank() == 0;
  Checkpoint checkpoint(writes ? checkpoint_path(options.out) : std::filesystem::path());
  auto result = new_dataset(options, matrix.layers, backend);
  if (options.resume == Resume::yes && writes) {
    checkpoint.resume_into(result);
  } else if (options.resume == Resume::yes) {
    Checkpoint(checkpoint_path(options.out)).resume_into(result);
  }
  const auto todo = plan_cells(matrix, options.order_seed, shard_cells(options), result);

  const auto cpu_at_start = read_cpu_clock();
  util::Progress progress(todo.size(), util::progress_style_for(stderr));
  CellRunner runner(options, backend);
  double ranks_seconds = 0;
  {
    std::optional<ddp::DataParallelScope> lockstep;
    if (ranks) {
      lockstep.emplace(*ranks);
      check_same_cells(todo.size(), ranks->rank());
    }
    for (const auto& key : todo) {
      progress.start(runner.title(key));
      auto cell = runner.run(key, interrupted);
      if (!cell) {
        checkpoint.save(result);
        throw Error("interrupted: " + std::to_string(result.results.size()) + " finished cells are saved in "
                    + checkpoint_path(options.out).string() + "; continue with the same command and --resume");
      }
      progress.finish(describe_cell(*cell));
      result.results.push_back(std::move(*cell));
      checkpoint.save(result);
    }
    if (ranks) {
      ranks_seconds = other_ranks_seconds(*ranks, cpu_at_start);
    }
  }
  sort_in_matrix_order(matrix, result.results);
  if (!writes) {
    return result;
  }
  finish_run(result, options, backend, checkpoint, interrupted);
  result.environment->other_cores_busy = other_cores_busy(cpu_at_start, ranks_seconds);
  warn_if_busy(*result.environment);
  dataset::assign_speed_classes(result);
  return result;
}

} // namespace layerbench::bench
