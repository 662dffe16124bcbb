// SPDX-License-Identifier: MIT
#include "cli/run_options.hpp"

#if LAYERBENCH_WITH_TORCH

#include "catalog/catalog.hpp"
#include "catalog/models/layer_sum.hpp"
#include "catalog/suite.hpp"
#include "catalog/user_shapes.hpp"
#include "bench/runner.hpp"
#include "dataset/axes.hpp"
#include "dataset/batch_sizes.hpp"
#include "dataset/rounds.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <thread>

namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

// Layers and models of the catalog, and layers at parameters from the user with their axes crossed
// (catalog/user_shapes.hpp): canonical names, each once.
std::vector<std::string> parse_layers(const std::string& text) { return bench::expand_layer_list(text, "--layers"); }

} // namespace

std::vector<int> parse_batch_sizes(const std::string& text)
{
  std::vector<int> sizes;
  for (const auto& part : util::comma_list(text, "--batch-sizes")) {
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
  return sizes;
}

void require(bool condition, const std::string& message)
{
  if (!condition) {
    throw UsageError(message);
  }
}

namespace {

// The documented range of each numeric option of `run`: checked where the value enters and printed in
// its help, from this one table. NaN and the infinities are in no range.
struct NumericRange
{
  const char* name;
  double low;
  double high;
  const char* unit;
};
constexpr NumericRange k_warmup{"warmup", 0, 60, " s"};
constexpr NumericRange k_warmup_iterations{"warmup-iterations", 0, 100000, ""};
constexpr NumericRange k_block_target{"block-target", 1e-5, 10, " s"};
constexpr NumericRange k_min_samples{"min-samples", 1, 100000, ""};
constexpr NumericRange k_max_samples{"max-samples", 1, 1000000, ""};
constexpr NumericRange k_cell_budget{"cell-budget", 0.001, 3600, " s"};
constexpr NumericRange k_rounds{"rounds", 1, dataset::k_max_rounds, ""};
// Its upper end is the run's --rounds; the table gives its name and its lower end.
constexpr NumericRange k_stop_after_round{"stop-after-round", 1, dataset::k_max_rounds, ""};
constexpr NumericRange k_seed{"seed", 0, 4294967295.0, ""};
constexpr NumericRange k_order_seed{"order-seed", 0, 4294967295.0, ""};
constexpr NumericRange k_world_size{"world-size", 1, 1 << 20, ""};

// Whole numbers as such ("1000000", not "1e+06"), others as iostream writes them ("1e-05", "inf").
std::string number_text(double value)
{
  if (std::isfinite(value) && std::floor(value) == value && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
  std::ostringstream text;
  text << value;
  return text.str();
}

std::string range_text(const NumericRange& range)
{
  return number_text(range.low) + " to " + number_text(range.high) + range.unit;
}

template<typename T>
T in_range(const po::variables_map& values, const NumericRange& range)
{
  const T value = values[range.name].as<T>();
  if (!(value >= range.low && value <= range.high)) {
    throw UsageError(std::string("--") + range.name + ": " + number_text(value) + " is outside its range, "
                     + range_text(range));
  }
  return value;
}

// Oversubscribing the cores measures the scheduler, not the layer.
int most_threads()
{
  const auto cores = std::thread::hardware_concurrency();
  return cores > 0 ? static_cast<int>(cores) : 1024;
}

} // namespace

int parse_rounds(const po::variables_map& values)
{
  return in_range<int>(values, k_rounds);
}

int parse_stop_after_round(const po::variables_map& values, int rounds)
{
  const std::string option = std::string("--") + k_stop_after_round.name;
  if (!values.count(k_stop_after_round.name)) {
    return rounds;
  }
  require(rounds > 1, option + ": stops a run in rounds; give it with --rounds 2 or more");
  const int round = values[k_stop_after_round.name].as<int>();
  require(round >= k_stop_after_round.low && round <= rounds,
          option + ": " + std::to_string(round) + " is outside its range, 1 to " + std::to_string(rounds) + " (--rounds)");
  return round;
}

std::optional<uint32_t> parse_seed(const po::variables_map& values, const std::string& name)
{
  const auto& range = name == k_seed.name ? k_seed : k_order_seed;
  if (!values.count(range.name)) {
    return std::nullopt;
  }
  return static_cast<uint32_t>(in_range<long long>(values, range));
}

int parse_world_size(const po::variables_map& values)
{
  return in_range<int>(values, k_world_size);
}

int parse_threads(const po::variables_map& values)
{
  const int threads = values["threads"].as<int>();
  if (threads < 0 || threads > most_threads()) {
    throw UsageError("--threads: " + std::to_string(threads) + " is outside its range, 0 (torch's default) to "
                     + std::to_string(most_threads()) + " (this machine's logical cores)");
  }
  return threads;
}

void apply_overrides(const po::variables_map& values, bench::MeasureSettings& settings)
{
  if (values.count(k_warmup.name)) {
    settings.warmup_seconds = in_range<double>(values, k_warmup);
  }
  if (values.count(k_warmup_iterations.name)) {
    settings.warmup_min_iterations = in_range<int>(values, k_warmup_iterations);
  }
  if (values.count(k_block_target.name)) {
    settings.block_target_seconds = in_range<double>(values, k_block_target);
  }
  auto& rule = settings.stopping;
  if (values.count("noise-target")) {
    rule.noise_target = values["noise-target"].as<double>();
    require(rule.noise_target > 0 && rule.noise_target < 1, "--noise-target: must be between 0 and 1 (0.05 is 5%)");
  }
  if (values.count(k_min_samples.name)) {
    rule.min_samples = in_range<int>(values, k_min_samples);
  }
  if (values.count(k_max_samples.name)) {
    rule.max_samples = in_range<int>(values, k_max_samples);
  }
  require(rule.max_samples >= rule.min_samples, "--max-samples: must be at least --min-samples ("
                                                  + std::to_string(rule.min_samples) + ")");
  if (values.count(k_cell_budget.name)) {
    rule.budget_seconds = in_range<double>(values, k_cell_budget);
  }
}

std::vector<std::string> matrix_layers(const po::variables_map& values)
{
  if (values.count("layer-sum")) {
    require(!values.count("layers") && !values.count("suite"),
            "--layer-sum: measures the model and its layers; give it or --layers, not both (nor --suite)");
    std::vector<std::string> layers;
    for (const auto& model : util::comma_list(values["layer-sum"].as<std::string>(), "--layer-sum")) {
      for (const auto& name : bench::models::layer_sum_layers(model)) {
        require(std::find(layers.begin(), layers.end(), name) == layers.end(), "--layer-sum: '" + model + "' is given twice");
        layers.push_back(name);
      }
    }
    return layers;
  }
  if (values.count("suite")) {
    require(!values.count("layers"), "--suite: names the layers; give it or --layers, not both");
    const auto tags = values.count("tags") ? util::comma_list(values["tags"].as<std::string>(), "--tags") : std::vector<std::string>{};
    return bench::suite_layers(values["suite"].as<std::string>(), tags);
  }
  require(!values.count("tags"), "--tags: selects a suite's entries; give --suite too");
  if (values.count("layers")) {
    return parse_layers(values["layers"].as<std::string>());
  }
  std::vector<std::string> layers;
  for (const auto& spec : bench::catalog()) {
    layers.push_back(spec.name);
  }
  return layers;
}

namespace {

std::vector<std::string> axes_arguments(const po::variables_map& values)
{
  return values.count("axes") ? values["axes"].as<std::vector<std::string>>() : std::vector<std::string>{};
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

} // namespace

void check_matrix_arguments(const po::variables_map& values)
{
  matrix_layers(values);
  bench::parse_preset(values["preset"].as<std::string>());
  dataset::AxisGrid scratch;
  dataset::apply_axes_arguments(scratch, axes_arguments(values));
}

RunMatrix resolve_matrix(const po::variables_map& values, bench::DeviceKind device)
{
  // A layer sum is measured in the settings its model's cells are: the models preset's unless told.
  const bool layer_sum = values.count("layer-sum") > 0;
  const auto name = layer_sum && values["preset"].defaulted() ? bench::PresetName::models
                                                              : bench::parse_preset(values["preset"].as<std::string>());
  const auto preset = bench::preset(name, device);
  RunMatrix matrix;
  matrix.layers = layer_sum || values.count("layers") || values.count("suite") || preset.layers.empty() ? matrix_layers(values)
                                                                                                       : preset.layers;
  matrix.axes = preset.grid;
  if (layer_sum) {
    // The layers are eager modules at the model's shapes: no AOTInductor package is exported for each.
    matrix.axes.set(dataset::k_compiled, {dataset::Compiled::eager});
  }
  dataset::apply_axes_arguments(matrix.axes, axes_arguments(values));
  matrix.batch_sizes = values["batch-sizes"].defaulted() ? preset.batch_sizes
                                                         : parse_batch_sizes(values["batch-sizes"].as<std::string>());
  matrix.settings = bench::default_settings(device);
  apply_preset(preset, matrix.settings);
  apply_overrides(values, matrix.settings);
  return matrix;
}

po::options_description run_options()
{
  po::options_description options("run options");
  options.add_options()
    ("out,o", po::value<std::string>(), "dataset file to write; never overwritten (default: layerbench-<UTC time>.json)")
    ("device", po::value<std::string>()->default_value("auto"), "auto (CUDA when available, else CPU), cpu, cuda (GPU 0) or cuda:N")
    ("layers", po::value<std::string>(), "comma-separated layers or whole models of the catalog, a layer at other parameters "
     "with axes crossed, \"Linear(in=4096,out=11008)@seq=2048,8192\" (default: the preset's, every layer of the catalog; see "
     "'layerbench layers --models' and 'layerbench layers --parameters')")
    ("suite", po::value<std::string>(),
     "the layers of a suite file, cross products of parameters with tags (bench/suites/, docs/catalog.md), 'reference', "
     "the fourteen layers of the reference page, or 'today', the layers of today's models beyond it (layerbench layers --today)")
    ("tags", po::value<std::string>(), "with --suite: only its entries with one of these comma-separated tags (short, long, ...)")
    ("layer-sum", po::value<std::string>(),
     "comma-separated whole models: measure each model and every distinct layer configuration it contains at its own "
     "shapes (\"ResNet50/3\" is its layers[].contains[3]), forward in inference corners, forward and backward in train "
     "corners, for the site's model-against-its-layers comparison (default settings: the models preset's; "
     "docs/models.md, \"The layer sum\")")
    ("batch-sizes", po::value<std::string>()->default_value(dataset::batch_sizes_text(dataset::default_batch_sizes())), "comma-separated batch sizes (default: the preset's)")
    ("preset", po::value<std::string>()->default_value("reference"),
     ("reference (one corner: " + dataset::describe(dataset::Axes{}) + ") or cube (every combination of settings "
      "the device supports; on the CPU batch sizes 1,8, short budgets and eager only, about 15 minutes on 2 cores) "
      "or models (ResNet50, BertBase and BertLarge: inference and a training step in fp32 and bf16, on CUDA also "
      "tf32 and fp16, eager, and fp32 inference from an AOTInductor package; batch sizes 1,8 on the CPU, powers "
      "of two to 512 on CUDA, where those that do not fit are skipped cells)").c_str())
    ("axes", po::value<std::vector<std::string>>()->composing(),
     ("AXIS=VALUE[,VALUE...], repeatable, replaces the preset's values of one axis: " + dataset::axes_help()
      + "; corners a layer or device cannot run are recorded as skipped cells").c_str())
    ("aoti-cache", po::value<std::string>(),
     "folder of the AOTInductor packages of compiled=aot_inductor cells, one per layer, device and torch version, "
     "exported on first use by $LAYERBENCH_PYTHON (about a minute each on 2 CPU cores; default: "
     "$LAYERBENCH_AOTI_CACHE, else ~/.cache/layerbench/aoti)")
    ("resume", "continue an interrupted run from OUT.partial (with --rounds: from OUT.rounds/, mid-round)")
    (k_rounds.name, po::value<int>()->default_value(1),
     ("measure every cell in this many rounds, each a fresh process with its own shuffled cell order, and record "
      "the median of the round medians with the rounds' spread, " + range_text(k_rounds) + "; publishing wants "
      + std::to_string(dataset::k_publish_rounds) + " or more").c_str())
    (k_stop_after_round.name, po::value<int>(),
     "with --rounds N: stop once rounds 1 to K are in OUT.rounds/, without writing OUT, and continue later with "
     "--resume; so that runs of several releases take turns round by round (bench/versions/measure.sh), 1 to N "
     "(default: N, the whole run)")
    (k_seed.name, po::value<long long>(),
     ("with --rounds: the seed of the rounds' cell orders and of the bootstrap, " + range_text(k_seed)
      + " (default: a random one, recorded)").c_str())
    (k_order_seed.name, po::value<long long>(),
     ("measure the cells in an order shuffled by this seed, " + range_text(k_order_seed) + " (default: matrix order)").c_str())
    (k_world_size.name, po::value<int>()->default_value(1),
     ("data-parallel training of whole models (docs/scale.md): N processes, each a training step on its own batch "
      "of --batch-sizes (the batch per rank), gradients all-reduced after backward; started here with the cores "
      "split between them, or, under srun or torchrun, this process is one of them; rank 0 writes --out; "
      + range_text(k_world_size)).c_str())
    ("no-profiles", "skip the profile of each cell's operators after the timings")
    ("no-peaks", "skip measuring the device's peak FLOP/s and memory bandwidth after the cells (a few seconds)")
    ("shard", po::value<std::string>(), "measure only shard i of n of the matrix (\"i/n\"), the shards balanced by "
                                        "expected time; see 'layerbench merge' and docs/scale.md")
    ("plan-from", po::value<std::string>(), "with --shard: plan the shards from this earlier run's cell_seconds instead "
                                            "of the FLOP formulas (give every shard the same file)")
    ("threads", po::value<int>()->default_value(0),
     ("intra-op threads for the CPU, 0 (torch's default) to " + std::to_string(most_threads()) + " (the logical cores)").c_str())
    ("cpu-memory", po::value<std::string>()->default_value("steady-state"),
     "how host memory freed by a forward is treated: steady-state (freed memory reused), "
     "fresh-pages (mapped afresh, page faults every forward) or system (malloc as the environment set it)")
    (k_warmup.name, po::value<double>(),
     ("warm-up seconds after the first call, " + range_text(k_warmup) + " (default: CPU 0.05, CUDA 0.2)").c_str())
    (k_warmup_iterations.name, po::value<int>(),
     ("at least this many warm-up iterations, " + range_text(k_warmup_iterations) + " (default: CPU 1, CUDA 3)").c_str())
    (k_block_target.name, po::value<double>(),
     ("seconds one timed block of iterations lasts at least, " + range_text(k_block_target)
      + " (default: CPU 0.01, CUDA 0.001)").c_str())
    ("noise-target", po::value<double>(), "stop when (p75-p25)/median is at most this, between 0 and 1 (default: CPU 0.05, CUDA 0.02)")
    (k_min_samples.name, po::value<int>(),
     ("samples always taken, " + range_text(k_min_samples) + " (default: CPU 5, CUDA 10)").c_str())
    (k_max_samples.name, po::value<int>(),
     ("samples at most, " + range_text(k_max_samples) + " (default: CPU 100, CUDA 1000)").c_str())
    (k_cell_budget.name, po::value<double>(),
     ("seconds per cell after which sampling stops, target met or not, once 3 samples are in, "
      + range_text(k_cell_budget) + " (default: CPU 1.5, CUDA 2)").c_str());
  return options;
}

} // namespace layerbench::cli

#endif
