// SPDX-License-Identifier: MIT
#include "bench/runner.hpp"

#include "bench/aoti_cache.hpp"
#include "bench/canary.hpp"
#include "bench/corner.hpp"
#include "bench/catalog.hpp"
#include "bench/peaks.hpp"
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
  m.inference_mode = options.axes.mode == std::vector<dataset::GradMode>{dataset::GradMode::inference_mode};
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
  m.precision = precision_in_force();
  m.dispatch = k_dispatch;
  m.canary = Canary::describe();
  if (backend.kind() == DeviceKind::cuda) {
    m.cuda_method = k_cuda_method;
  }
  m.axes = options.axes;
  if (!options.axes.is_reference()) {
    m.axes_text = describe_axes();
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
  double own_seconds = 0;          // this process's user and system time
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
  getrusage(RUSAGE_SELF, &own);
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return CpuClock{(user + nice + system + irq + softirq + steal) / tick, seconds(own.ru_utime) + seconds(own.ru_stime),
                  std::chrono::steady_clock::now()};
}

// Cores other processes kept busy on average since `start`: the machine's busy CPU time less this
// process's own, over the wall time. The load average cannot tell them apart: it decays over a minute.
std::optional<double> other_cores_busy(const std::optional<CpuClock>& start)
{
  const auto end = read_cpu_clock();
  if (!start || !end) {
    return std::nullopt;
  }
  const double wall = std::chrono::duration<double>(end->at - start->at).count();
  const double others = ((end->machine_busy_seconds - start->machine_busy_seconds)
                         - (end->own_seconds - start->own_seconds)) / std::max(wall, 1e-3);
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
  // The title names what was measured: "2 PyTorch layers" for a run of two.
  result.title = std::string(options.axes.is_reference() ? "Forward pass" : "Performance settings") + " of "
                 + std::to_string(layers.size()) + " PyTorch layer" + (layers.size() == 1 ? "" : "s")
                 + " on " + environment.device.name + " (local run)";
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

// The cells go into the final file as they are: the loader holds them to the rules `validate` applies,
// all but completeness, so that a duplicate or out-of-matrix cell is refused now rather than in the file.
dataset::Dataset load_checkpoint(const std::filesystem::path& checkpoint)
{
  try {
    return dataset::load(checkpoint, dataset::Completeness::partial);
  } catch (const Error& error) {
    throw Error(std::string(error.what()) + " (cannot resume from this checkpoint; delete it to start afresh)");
  }
}

// A checkpoint may only be continued by the same matrix on the same device with the same knobs.
void check_resumable(const dataset::Dataset& saved, const dataset::Dataset& fresh, const std::string& origin)
{
  auto same = [&](const std::string& what, const std::string& a, const std::string& b) {
    if (a != b) {
      throw Error(origin + ": cannot resume: " + what + " differs (checkpoint: " + a + ", now: " + b + ")");
    }
  };
  same("device", saved.environment->device.name, fresh.environment->device.name);
  same("torch version", saved.environment->torch_version, fresh.environment->torch_version);
  const auto methodology_text = [](const dataset::Dataset& d) {
    auto json = dataset::to_json(d)["methodology"];
    return json.dump();
  };
  same("methodology (layers, batch sizes or measurement options)", methodology_text(saved), methodology_text(fresh));
}

// `safe`: how many cells the checkpoint held after its last successful save. When the disk fills or
// the folder turns read-only, the message says what is kept and how to go on.
void save_checkpoint(const std::filesystem::path& path, const dataset::Dataset& partial, size_t safe)
{
  try {
    dataset::save(path, partial, util::Overwrite::yes);
  } catch (const Error& error) {
    const auto lost = partial.results.size() - safe;
    throw Error(std::string(error.what()) + "; the checkpoint keeps " + std::to_string(safe) + " finished cells"
                + (lost > 0 ? " (the " + std::to_string(lost) + " measured since are lost)" : "")
                + "; free space or make the folder writable, then continue with the same command and --resume");
  }
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

// A compiled=aot_inductor cell: the layer's package from the cache, exported on first use (not
// counted in the cell's time but recorded with it), then the cell measured on it. A package that
// cannot be had is the skip reason of every cell of its layer; `failed` keeps it, so the export is
// tried once per run.
std::optional<dataset::Cell> measure_compiled(const LayerSpec& spec,
                                              int batch,
                                              const dataset::Axes& axes,
                                              const RunOptions& options,
                                              const AotiCache& cache,
                                              DeviceBackend& backend,
                                              Canary& canary,
                                              std::map<std::string, std::string>& failed,
                                              const std::atomic<bool>& interrupted)
{
  if (const auto known = failed.find(spec.name); known != failed.end()) {
    return skipped_cell(spec.name, batch, axes, known->second);
  }
  const auto package = cache.get(aoti_key(cache, spec.name, backend), interrupted);
  if (!package && interrupted.load()) {
    return std::nullopt; // Ctrl-C reached the exporter too: not the layer's fault, try again on --resume
  }
  if (!package) {
    failed[spec.name] = package.error();
    return skipped_cell(spec.name, batch, axes, package.error());
  }
  const auto machine = canary.measure();
  auto cell = measure_cell(spec, batch, axes, options.settings, backend, interrupted, package->path);
  if (cell) {
    cell->canary = machine;
    cell->aoti = dataset::AotiRecord{package->compile_seconds, package->source == PackageSource::cached};
  }
  return cell;
}

// Every measured cell's operators and kernels, each cell in a profile of its own after all the run's
// timings (bench/measure.hpp says why); a resumed run profiles the cells its checkpoint has without them.
void profile_cells(dataset::Dataset& result,
                   const RunOptions& options,
                   DeviceBackend& backend,
                   const std::filesystem::path& checkpoint,
                   const std::atomic<bool>& interrupted)
{
  const auto packages = aoti_cache(options);
  for (auto& cell : result.results) {
    if (cell.status != dataset::CellStatus::ok || !cell.operators.empty() || !cell.kernels.empty()) {
      continue;
    }
    if (interrupted.load()) {
      save_checkpoint(checkpoint, result, result.results.size());
      throw Error("interrupted while profiling the cells: all " + std::to_string(result.results.size())
                  + " measured cells are saved in " + checkpoint.string() + "; continue with the same command and --resume");
    }
    std::filesystem::path package;
    if (cell.axes.compiled == dataset::Compiled::aot_inductor) {
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
    save_checkpoint(checkpoint, result, result.results.size());
  }
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

std::filesystem::path checkpoint_path(const std::filesystem::path& out)
{
  return out.string() + ".partial";
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

dataset::Dataset run_matrix(const RunOptions& options, DeviceBackend& backend, const std::atomic<bool>& interrupted)
{
  const auto layers = layers_of(options);
  const auto corners = dataset::corners(options.axes);
  if (options.threads > 0) {
    at::set_num_threads(options.threads);
  }
  // Before the first cell, so that no cell sees another regime or the previous cells' history.
  apply(options.cpu_memory);
  use_ieee_float32();
  const auto checkpoint = checkpoint_path(options.out);
  auto result = new_dataset(options, layers, backend);
  if (options.resume == Resume::yes) {
    if (!std::filesystem::exists(checkpoint)) {
      throw Error(checkpoint.string() + ": no checkpoint to resume from");
    }
    auto saved = load_checkpoint(checkpoint);
    check_resumable(saved, result, checkpoint.string());
    result.results = saved.results;
    result.created = saved.created;
  }

  // A shard measures the cells its plan gave it (cmd_run computes the plan, the same in every task).
  const auto mine = [&](const std::string& layer, int batch, const dataset::Axes& axes) {
    return options.shard.empty()
           || std::any_of(options.shard_cells.begin(), options.shard_cells.end(), [&](const dataset::CellKey& key) {
                return key.layer == layer && key.batch_size == batch && key.axes == axes;
              });
  };
  struct Todo
  {
    const LayerSpec* spec;
    int batch;
    dataset::Axes axes;
  };
  std::vector<Todo> matrix;
  for (const auto& name : layers) {
    const auto& spec = find_layer(name);
    for (int batch : options.batch_sizes) {
      for (const auto& corner : corners) {
        matrix.push_back({&spec, batch, corner});
      }
    }
  }
  // A shuffled order is a function of the whole matrix and the seed, so a resumed round keeps it.
  std::vector<Todo> todo;
  const auto order = options.order_seed ? dataset::shuffled_order(matrix.size(), *options.order_seed)
                                        : dataset::shuffled_order(0, 0);
  for (size_t i = 0; i < matrix.size(); ++i) {
    const auto& cell = matrix[order.empty() ? i : order[i]];
    if (mine(cell.spec->name, cell.batch, cell.axes) && !dataset::find_cell(result, cell.spec->name, cell.batch, cell.axes)) {
      todo.push_back(cell);
    }
  }

  const auto cpu_at_start = read_cpu_clock();
  util::Progress progress(todo.size(), util::progress_style_for(stderr));
  size_t saved = result.results.size(); // cells the checkpoint holds: those resumed, if any
  Canary canary(backend);
  const auto device = backend.kind();
  std::map<std::string, std::string> failed_packages;
  const auto packages = aoti_cache(options);
  for (const auto& [spec, batch, axes] : todo) {
    const auto reason = unsupported(axes, device, traits(*spec));
    // An export takes a minute or more: say so, or the bar looks stuck.
    const bool exports = !reason && axes.compiled == dataset::Compiled::aot_inductor
                         && failed_packages.count(spec->name) == 0 && !packages.contains(aoti_key(packages, spec->name, backend));
    progress.start(spec->name + " batch " + std::to_string(batch) + (axes.is_reference() ? "" : " " + dataset::label(axes))
                   + (exports ? " (exporting its AOTInductor package first)" : ""));
    std::optional<dataset::Cell> cell;
    if (reason) {
      cell = skipped_cell(spec->name, batch, axes, *reason);
    } else if (axes.compiled == dataset::Compiled::aot_inductor) {
      cell = measure_compiled(*spec, batch, axes, options, packages, backend, canary, failed_packages, interrupted);
    } else {
      const auto machine = canary.measure();
      cell = measure_cell(*spec, batch, axes, options.settings, backend, interrupted);
      if (cell) {
        cell->canary = machine;
      }
    }
    if (!cell) {
      save_checkpoint(checkpoint, result, saved);
      throw Error("interrupted: " + std::to_string(result.results.size()) + " finished cells are saved in "
                  + checkpoint.string() + "; continue with the same command and --resume");
    }
    progress.finish(describe_cell(*cell));
    result.results.push_back(std::move(*cell));
    save_checkpoint(checkpoint, result, saved);
    saved = result.results.size();
  }

  // Matrix order, whatever order resuming and sharding left the cells in.
  auto position = [&](const dataset::Cell& cell) {
    const auto layer = std::find(layers.begin(), layers.end(), cell.layer) - layers.begin();
    const auto batch = std::find(options.batch_sizes.begin(), options.batch_sizes.end(), cell.batch_size)
                       - options.batch_sizes.begin();
    const auto corner = std::find(corners.begin(), corners.end(), cell.axes) - corners.begin();
    return std::make_tuple(layer, batch, corner);
  };
  std::stable_sort(result.results.begin(), result.results.end(),
                   [&](const auto& a, const auto& b) { return position(a) < position(b); });

  // After the cells, so that no cell sees the peaks' large allocations in its allocator's history.
  if (options.peaks == PeakMeasurement::measure) {
    auto peaks = measure_peaks(backend, options.settings, interrupted);
    if (!peaks) {
      save_checkpoint(checkpoint, result, saved);
      throw Error("interrupted while measuring the device's peaks: " + std::to_string(result.results.size())
                  + " finished cells are saved in " + checkpoint.string() + "; continue with the same command and "
                  "--resume (or --no-peaks)");
    }
    std::cerr << "layerbench: device peaks: " << describe(*peaks) << "\n";
    result.environment->peaks = std::move(*peaks);
  }
  if (options.profiles == Profiles::take) {
    profile_cells(result, options, backend, checkpoint, interrupted);
  }
  for (auto& layer : result.layers) {
    layer.params_counted = count_parameters(find_layer(layer.name));
  }
  result.environment->load_average_end = load_average();
  result.environment->other_cores_busy = other_cores_busy(cpu_at_start);
  warn_if_busy(*result.environment);
  dataset::assign_speed_classes(result);
  return result;
}

} // namespace layerbench::bench
