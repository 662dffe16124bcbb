// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "util/error.hpp"

#if LAYERBENCH_WITH_TORCH

#include "bench/catalog.hpp"
#include "bench/cpu_memory.hpp"
#include "bench/runner.hpp"
#include "dataset/shard.hpp"
#include "dataset/io.hpp"
#include "util/format.hpp"
#include "util/time.hpp"

#include <atomic>
#include <chrono>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <set>
#include <sstream>
#include <sys/file.h>
#include <unistd.h>
#include <algorithm>

namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int)
{
  g_interrupted.store(true);
  // A second Ctrl-C ends the process at once.
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

std::vector<std::string> split(const std::string& text)
{
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ',')) {
    if (!part.empty()) {
      parts.push_back(part);
    }
  }
  return parts;
}

std::vector<std::string> parse_layers(const std::string& text)
{
  std::vector<std::string> layers;
  std::set<std::string> seen;
  for (const auto& name : split(text)) {
    bench::find_layer(name); // throws UsageError with a hint
    if (!seen.insert(name).second) {
      throw UsageError("--layers: '" + name + "' is given twice");
    }
    layers.push_back(name);
  }
  if (layers.empty()) {
    throw UsageError("--layers: no layer named");
  }
  return layers;
}

std::vector<int> parse_batch_sizes(const std::string& text)
{
  std::vector<int> sizes;
  for (const auto& part : split(text)) {
    size_t used = 0;
    long value = 0;
    try {
      value = std::stol(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != part.size() || value < 1 || value > 1 << 20) {
      throw UsageError("--batch-sizes: '" + part + "' is not a batch size (a whole number from 1 to 1048576)");
    }
    if (std::find(sizes.begin(), sizes.end(), value) != sizes.end()) {
      throw UsageError("--batch-sizes: " + part + " is given twice");
    }
    sizes.push_back(static_cast<int>(value));
  }
  if (sizes.empty()) {
    throw UsageError("--batch-sizes: no batch size given");
  }
  return sizes;
}

void require(bool condition, const std::string& message)
{
  if (!condition) {
    throw UsageError(message);
  }
}

void apply_preset(const bench::Preset& preset, bench::MeasureSettings& settings)
{
  if (preset.warmup_seconds) {
    settings.warmup_seconds = *preset.warmup_seconds;
  }
  if (preset.min_samples) {
    settings.stopping.min_samples = *preset.min_samples;
  }
  if (preset.cell_budget_seconds) {
    settings.stopping.budget_seconds = *preset.cell_budget_seconds;
  }
}

void print_estimate(const bench::RunOptions& options, const bench::DeviceBackend& backend)
{
  const auto e = bench::estimate_run(options, backend);
  std::cerr << "layerbench: " << e.cells << " cells (" << e.cells / static_cast<int>(options.batch_sizes.size())
            << " layer x corner pairs x " << options.batch_sizes.size() << " batch sizes), " << e.skipped
            << " of them unsupported and recorded as skipped, " << e.train << " train cells of "
            << bench::k_train_parts << " timed parts; estimate about " << util::format_fixed(e.seconds / 60, 1)
            << " min (budget, warm-up and " << util::format_fixed(bench::k_cell_overhead_seconds, 1)
            << " s overhead per part; layers whose single call outlasts the budget take longer)\n";
}

void apply_overrides(const po::variables_map& values, bench::MeasureSettings& settings)
{
  if (values.count("warmup")) {
    settings.warmup_seconds = values["warmup"].as<double>();
    require(settings.warmup_seconds >= 0, "--warmup: must be 0 or more seconds");
  }
  if (values.count("warmup-iterations")) {
    settings.warmup_min_iterations = values["warmup-iterations"].as<int>();
    require(settings.warmup_min_iterations >= 0, "--warmup-iterations: must be 0 or more");
  }
  if (values.count("block-target")) {
    settings.block_target_seconds = values["block-target"].as<double>();
    require(settings.block_target_seconds > 0, "--block-target: must be more than 0 seconds");
  }
  auto& rule = settings.stopping;
  if (values.count("noise-target")) {
    rule.noise_target = values["noise-target"].as<double>();
    require(rule.noise_target > 0 && rule.noise_target < 1, "--noise-target: must be between 0 and 1 (0.05 is 5%)");
  }
  if (values.count("min-samples")) {
    rule.min_samples = values["min-samples"].as<int>();
    require(rule.min_samples >= 1, "--min-samples: must be at least 1");
  }
  if (values.count("max-samples")) {
    rule.max_samples = values["max-samples"].as<int>();
  }
  require(rule.max_samples >= rule.min_samples, "--max-samples: must be at least --min-samples ("
                                                  + std::to_string(rule.min_samples) + ")");
  if (values.count("cell-budget")) {
    rule.budget_seconds = values["cell-budget"].as<double>();
    require(rule.budget_seconds > 0, "--cell-budget: must be more than 0 seconds");
  }
}

// Held for the whole run, so that a second run on the same OUT is refused at once, before it measures
// anything or touches the checkpoint. Unlike util::FileLock it never waits: waiting would only measure
// on a busy machine. The kernel drops the lock when the process dies, so a crash leaves none behind.
class RunLock
{
public:
  explicit RunLock(const std::filesystem::path& out) : m_path(out.string() + ".lock")
  {
    m_fd = ::open(m_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (m_fd < 0) {
      throw Error(m_path + ": cannot create the run's lock file: " + std::strerror(errno));
    }
    if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(m_fd);
      throw Error(out.string() + ": another layerbench run is writing this output (it holds " + m_path
                  + "); wait for it to finish, or choose another --out");
    }
  }
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;
  ~RunLock()
  {
    ::unlink(m_path.c_str());
    ::close(m_fd);
  }

private:
  std::string m_path;
  int m_fd = -1;
};

std::filesystem::path output_directory(const std::filesystem::path& out)
{
  return out.parent_path().empty() ? std::filesystem::path(".") : out.parent_path();
}

// Checked before the run's lock is taken beside OUT, so a missing directory is named as such.
void check_directory(const std::filesystem::path& out)
{
  const auto directory = output_directory(out);
  if (!std::filesystem::is_directory(directory)) {
    throw Error(out.string() + ": cannot write: directory " + directory.string() + " does not exist");
  }
}

// Fails before anything is measured if the result could not be written.
void check_output(const std::filesystem::path& out, bench::Resume resume)
{
  if (std::filesystem::exists(out)) {
    throw Error(out.string() + ": already exists; a dataset is never overwritten (choose another --out)");
  }
  const auto directory = output_directory(out);
  const auto checkpoint = bench::checkpoint_path(out);
  if (resume == bench::Resume::no && std::filesystem::exists(checkpoint)) {
    throw Error(checkpoint.string() + ": an interrupted run left its checkpoint here; continue it with --resume, "
                "or delete the file to start afresh");
  }
  // Prove the directory is writable now rather than after minutes of measuring.
  const auto probe = util::write_file_atomic(directory / (".layerbench-write-test-" + std::to_string(::getpid())),
                                             "", util::Overwrite::yes);
  if (!probe) {
    throw Error(out.string() + ": cannot write: " + probe.error());
  }
  std::filesystem::remove(directory / (".layerbench-write-test-" + std::to_string(::getpid())));
}

po::options_description run_options()
{
  po::options_description options("run options");
  options.add_options()
    ("out,o", po::value<std::string>(), "dataset file to write; never overwritten (default: layerbench-<UTC time>.json)")
    ("device", po::value<std::string>()->default_value("auto"), "auto (CUDA when available, else CPU), cpu, cuda (GPU 0) or cuda:N")
    ("layers", po::value<std::string>(), "comma-separated subset of the catalog (default: all 14; see 'layerbench layers')")
    ("batch-sizes", po::value<std::string>()->default_value("1,8,32,128"), "comma-separated batch sizes (default: the preset's)")
    ("preset", po::value<std::string>()->default_value("reference"),
     "reference (one corner: fp32, contiguous, cudnn.benchmark off, inference mode, eager) or cube (every "
     "combination of settings the device supports; on the CPU batch sizes 1,8 and short budgets, about 15 minutes "
     "on 2 cores)")
    ("axes", po::value<std::vector<std::string>>()->composing(),
     "AXIS=VALUE[,VALUE...], repeatable, replaces the preset's values of one axis: precision=fp32,tf32,bf16,fp16 "
     "memory_format=contiguous,channels_last cudnn_benchmark=off,on mode=inference_mode,no_grad,train "
     "compiled=eager,aot_inductor; corners a layer or device cannot run are recorded as skipped cells")
    ("resume", "continue an interrupted run from OUT.partial")
    ("shard", po::value<std::string>(), "measure only shard i of n of the matrix (\"i/n\"); see 'layerbench merge'")
    ("threads", po::value<int>()->default_value(0), "intra-op threads for the CPU (0: torch's default)")
    ("cpu-memory", po::value<std::string>()->default_value("steady-state"),
     "how host memory freed by a forward is treated: steady-state (reused, no page faults in the timed loop), "
     "fresh-pages (mapped afresh, page faults every forward) or system (malloc as the environment set it)")
    ("warmup", po::value<double>(), "warm-up seconds after the first call (default: CPU 0.05, CUDA 0.2)")
    ("warmup-iterations", po::value<int>(), "at least this many warm-up iterations (default: CPU 1, CUDA 3)")
    ("block-target", po::value<double>(), "seconds one timed block of iterations lasts at least (default: CPU 0.01, CUDA 0.001)")
    ("noise-target", po::value<double>(), "stop when (p75-p25)/median is at most this (default: CPU 0.05, CUDA 0.02)")
    ("min-samples", po::value<int>(), "samples always taken (default: CPU 5, CUDA 10)")
    ("max-samples", po::value<int>(), "samples at most (default: CPU 100, CUDA 1000)")
    ("cell-budget", po::value<double>(), "seconds per cell after which sampling stops, target met or not, once 3 "
                                         "samples are in (default: CPU 1.5, CUDA 2)");
  return options;
}

int run(const po::variables_map& values)
{
  const auto choice = bench::parse_device_choice(values["device"].as<std::string>());
  bench::RunOptions options;
  if (values.count("layers")) {
    options.layers = parse_layers(values["layers"].as<std::string>());
  }
  const auto preset_name = bench::parse_preset(values["preset"].as<std::string>());
  const auto axes_arguments = values.count("axes") ? values["axes"].as<std::vector<std::string>>() : std::vector<std::string>{};
  // Checked before the lock and the device, so a misspelt axis costs nothing.
  dataset::AxisGrid scratch;
  for (const auto& argument : axes_arguments) {
    dataset::apply_axes_argument(scratch, argument);
  }
  options.resume = values.count("resume") ? bench::Resume::yes : bench::Resume::no;
  options.threads = values["threads"].as<int>();
  require(options.threads >= 0, "--threads: must be 0 or more");
  options.cpu_memory = bench::parse_cpu_memory_policy(values["cpu-memory"].as<std::string>());
  if (values.count("shard")) {
    options.shard = values["shard"].as<std::string>();
    dataset::parse_shard(options.shard);
  }
  std::string out = values.count("out") ? values["out"].as<std::string>() : "";
  if (out.empty()) {
    auto stamp = util::utc_now();
    stamp.erase(std::remove(stamp.begin(), stamp.end(), ':'), stamp.end());
    out = "layerbench-" + stamp + ".json";
  }
  options.out = out;
  options.command_line = invocation();
  check_directory(options.out);
  const RunLock lock(options.out);
  check_output(options.out, options.resume);

  auto backend = bench::make_backend(choice);
  const auto preset = bench::preset(preset_name, bench::plan_device(*backend));
  options.axes = preset.grid;
  for (const auto& argument : axes_arguments) {
    dataset::apply_axes_argument(options.axes, argument);
  }
  options.batch_sizes = values["batch-sizes"].defaulted() ? preset.batch_sizes
                                                          : parse_batch_sizes(values["batch-sizes"].as<std::string>());
  options.settings = bench::default_settings(backend->device().type());
  apply_preset(preset, options.settings);
  apply_overrides(values, options.settings);
  print_estimate(options, *backend);

  std::cerr << "layerbench: measuring on " << (backend->device().is_cuda() ? "CUDA" : "CPU") << ", checkpoint "
            << bench::checkpoint_path(options.out).string() << "\n";
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  const auto start = std::chrono::steady_clock::now();
  const auto result = bench::run_matrix(options, *backend, g_interrupted);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;

  try {
    dataset::save(options.out, result, util::Overwrite::no);
  } catch (const Error& error) {
    throw Error(std::string(error.what()) + "; all " + std::to_string(result.results.size()) + " cells are safe in "
                + bench::checkpoint_path(options.out).string()
                + ": free space or make the folder writable, then run the same command with --resume to write the "
                  "file without measuring again");
  }
  std::filesystem::remove(bench::checkpoint_path(options.out));

  size_t skipped = 0;
  size_t met = 0;
  for (const auto& cell : result.results) {
    skipped += cell.status == dataset::CellStatus::skipped ? 1 : 0;
    met += cell.stats && cell.stats->noise_target_met.value_or(false) ? 1 : 0;
  }
  std::cout << "wrote " << options.out.string() << ": " << result.results.size() << " cells, " << skipped
            << " skipped, " << met << " met the noise target of "
            << util::format_fixed(options.settings.stopping.noise_target * 100, 1) << "%; wall time "
            << util::format_fixed(wall.count(), 1) << " s\n";
  return 0;
}

} // namespace

int cmd_run(const Arguments& arguments)
{
  const auto values = parse("run", "[options]", run_options(), arguments);
  if (!values) {
    return 0;
  }
  return run(*values);
}

} // namespace layerbench::cli

#else

namespace layerbench::cli {

int cmd_run(const Arguments&)
{
  throw Error("run: this layerbench was built without LibTorch (LAYERBENCH_WITH_TORCH=OFF)");
}

} // namespace layerbench::cli

#endif
