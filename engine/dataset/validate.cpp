// SPDX-License-Identifier: MIT
#include "dataset/validate.hpp"

#include "dataset/physics.hpp"
#include "dataset/memory_check.hpp"
#include "dataset/sample_check.hpp"

#include "dataset/catalog.hpp"
#include "dataset/citation_check.hpp"
#include "dataset/data_folder.hpp"
#include "dataset/erratum.hpp"
#include "dataset/finding.hpp"
#include "dataset/inconsistencies.hpp"
#include "dataset/io.hpp"
#include "dataset/rounds.hpp"
#include "dataset/shard.hpp"
#include "dataset/validation.hpp"
#include "util/error.hpp"
#include "util/file.hpp"
#include "util/format.hpp"
#include "util/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <tuple>

namespace layerbench::dataset {

namespace {

// Collects problems with the pointer of the object being checked.
class Checker
{
public:
  explicit Checker(std::vector<Problem>& problems) : m_problems(problems) {}

  void add(const std::string& pointer, const std::string& message) { m_problems.push_back({pointer, message}); }

  void time(const std::string& pointer, const std::optional<double>& value)
  {
    if (value && !(*value > 0 && *value <= k_max_time_ms)) {
      add(pointer, "time " + number(*value) + " ms is not in (0, " + number(k_max_time_ms) + "]");
    }
  }

  void at_least(const std::string& pointer, const std::optional<double>& value, double least, double most)
  {
    if (value && !(*value >= least && *value <= most)) {
      add(pointer, number(*value) + " is not in [" + number(least) + ", " + number(most) + "]");
    }
  }

  static std::string number(double value) { return nlohmann::json(value).dump(); }

private:
  std::vector<Problem>& m_problems;
};

template<typename T>
std::optional<double> as_double(const std::optional<T>& value)
{
  return value ? std::optional<double>(static_cast<double>(*value)) : std::nullopt;
}

void check_header(const Dataset& dataset, Checker& checker)
{
  const bool published = dataset.version > 0;
  if (published || !dataset.id.empty()) {
    if (!valid_id(dataset.id)) {
      checker.add("/id", "\"" + dataset.id + "\" is not a dataset id ([a-z0-9] words joined by '-')");
    }
  }
  if (dataset.version < 0) {
    checker.add("/version", "a version is 0 (unpublished) or counts from 1");
  }
  if (!dataset.replaces.empty()) {
    try {
      parse_reference(dataset.replaces, "/replaces");
    } catch (const Error&) {
      checker.add("/replaces", "\"" + dataset.replaces + "\" is not ID@VERSION");
    }
  }
  if (dataset.title.empty()) {
    checker.add("/title", "empty title");
  }
  if (dataset.license.id != "CC-BY-4.0") {
    checker.add("/license/id", "\"" + dataset.license.id + "\": datasets are published under CC-BY-4.0");
  }
  // Addresses become links on the site: only https, never a javascript: or data: address.
  if (dataset.license.url.rfind("https://", 0) != 0) {
    checker.add("/license/url", "\"" + dataset.license.url.substr(0, 80) + "\" is not an https:// address");
  }
  if (dataset.license.attribution.empty()) {
    checker.add("/license/attribution", "empty: say what a reuser must credit");
  }
  if (published && dataset.creators.empty()) {
    checker.add("/creators", "a published dataset names at least one creator");
  }
  for (size_t i = 0; i < dataset.creators.size(); ++i) {
    if (dataset.creators[i].name.empty()) {
      checker.add("/creators/" + std::to_string(i) + "/name", "empty name");
    }
  }
}

// A rate of zero would make every roofline bound zero and every fraction infinite.
void check_peak(const PeakRate& peak, const std::string& pointer, const char* work, const char* rate, Checker& checker)
{
  checker.at_least(pointer + "/" + work, peak.work, 1, 1e18);
  checker.time(pointer + "/median_ms", peak.median_ms);
  if (peak.best_ms) {
    checker.time(pointer + "/best_ms", *peak.best_ms);
    if (*peak.best_ms > peak.median_ms) {
      checker.add(pointer + "/best_ms", "the fastest sample, " + util::format_significant(*peak.best_ms, 3)
                                          + " ms, is slower than the median, " + util::format_significant(peak.median_ms, 3) + " ms");
    }
  }
  checker.at_least(pointer + "/" + rate, peak.rate, 1, 1e18);
  checker.at_least(pointer + "/samples", as_double(peak.samples), 1, 1e9);
}

void check_peaks(const Peaks& peaks, Checker& checker)
{
  static const std::set<std::string> k_precisions = {"fp32", "tf32", "bf16", "fp16"};
  std::set<std::string> seen;
  for (size_t i = 0; i < peaks.compute.size(); ++i) {
    const auto pointer = "/environment/peaks/compute/" + std::to_string(i);
    const auto& peak = peaks.compute[i];
    if (!k_precisions.count(peak.name)) {
      checker.add(pointer + "/precision", "\"" + peak.name + "\" is not one of fp32, tf32, bf16, fp16");
    }
    if (!seen.insert(peak.name).second) {
      checker.add(pointer + "/precision", "precision \"" + peak.name + "\" is measured twice");
    }
    check_peak(peak, pointer, "flop", "flop_per_s", checker);
  }
  if (peaks.memory) {
    check_peak(*peaks.memory, "/environment/peaks/memory", "bytes", "bytes_per_s", checker);
  }
  for (size_t i = 0; i < peaks.caches.size(); ++i) {
    check_peak(peaks.caches[i].triad, "/environment/peaks/caches/" + std::to_string(i), "bytes", "bytes_per_s", checker);
  }
}

// /proc/cpuinfo's numbers are small and never negative; a flag named twice was not read from one CPU.
void check_cpu(const CpuIdentity& cpu, Checker& checker)
{
  if (cpu.vendor.empty()) {
    checker.add("/environment/cpu/vendor", "the CPU's vendor is empty");
  }
  const std::pair<const char*, const std::optional<int>&> numbers[] = {
    {"family", cpu.family}, {"model", cpu.model}, {"stepping", cpu.stepping}};
  for (const auto& [name, value] : numbers) {
    if (value) {
      checker.at_least(std::string("/environment/cpu/") + name, *value, 0, 1 << 20);
    }
  }
  for (size_t i = 0; i < cpu.isa.size(); ++i) {
    if (std::find(cpu.isa.begin(), cpu.isa.begin() + static_cast<std::ptrdiff_t>(i), cpu.isa[i])
        != cpu.isa.begin() + static_cast<std::ptrdiff_t>(i)) {
      checker.add("/environment/cpu/isa/" + std::to_string(i), "the flag " + cpu.isa[i] + " is listed twice");
    }
  }
}

void check_kind(const Dataset& dataset, Checker& checker)
{
  if (dataset.kind == Kind::measured) {
    if (!dataset.environment) {
      checker.add("/environment", "a measured dataset records its environment");
    } else {
      checker.at_least("/environment/load_average_start", dataset.environment->load_average_start, 0, 1e6);
      checker.at_least("/environment/load_average_end", dataset.environment->load_average_end, 0, 1e6);
      if (const auto& cache = dataset.environment->last_level_cache_bytes) {
        checker.at_least("/environment/last_level_cache_bytes", static_cast<double>(*cache), 1,
                         static_cast<double>(k_max_bytes));
      }
      if (dataset.environment->peaks) {
        check_peaks(*dataset.environment->peaks, checker);
      }
      if (dataset.environment->cpu) {
        check_cpu(*dataset.environment->cpu, checker);
      }
    }
    if (!dataset.methodology) {
      checker.add("/methodology", "a measured dataset records its methodology");
    }
    if (dataset.provenance.source) {
      checker.add("/provenance/source", "only a published reference has a source");
    }
    return;
  }
  // A reference holds only what its page printed, so nothing in it can pass for our measurement.
  if (dataset.environment) {
    checker.add("/environment", "a published reference has no environment: we did not run it");
  }
  if (dataset.methodology) {
    checker.add("/methodology", "a published reference has no methodology of ours");
  }
  if (!dataset.provenance.source) {
    checker.add("/provenance/source", "a published reference names its source");
  } else if (const auto& url = dataset.provenance.source->url; !url.empty() && url.rfind("https://", 0) != 0) {
    checker.add("/provenance/source/url", "\"" + url.substr(0, 80) + "\" is not an https:// address");
  }
  for (size_t i = 0; i < dataset.results.size(); ++i) {
    const auto& cell = dataset.results[i];
    const auto pointer = "/results/" + std::to_string(i);
    const bool only_median = !cell.stats
                             || (!cell.stats->p25_ms && !cell.stats->p75_ms && !cell.stats->min_ms
                                 && !cell.stats->mean_ms && !cell.stats->stddev_ms && !cell.stats->samples
                                 && !cell.stats->iterations_per_sample && !cell.stats->noise
                                 && !cell.stats->noise_target_met);
    if (!only_median || cell.first_call_ms || cell.host_wall_median_ms || cell.throughput_samples_per_s
        || cell.achieved_flop_per_s || cell.cell_seconds) {
      checker.add(pointer, "a published reference holds the page's median (and memory) only");
    }
  }
}

// A model's layer (1.6.0) names its use; where the dataset holds that model, the use must be there
// with the same configuration and count, so that its time can only be summed into the model it came from.
void check_part_of(const Dataset& dataset, const Layer& layer, const std::string& pointer, Checker& checker)
{
  if ((layer.kind == LayerKind::model_layer) != layer.part_of.has_value()) {
    checker.add(pointer + "/part_of", "a layer has part_of exactly where its kind is model_layer");
    return;
  }
  if (!layer.part_of) {
    return;
  }
  const auto& part = *layer.part_of;
  checker.at_least(pointer + "/part_of/use", part.use, 0, 1e9);
  checker.at_least(pointer + "/part_of/count", part.count, 1, 1e9);
  const Layer* model = find_layer(dataset, part.model);
  if (!model) {
    return;
  }
  if (part.use < 0 || static_cast<size_t>(part.use) >= model->contains.size()) {
    checker.add(pointer + "/part_of/use", "model \"" + part.model + "\" has no use " + std::to_string(part.use) + " (it has "
                                            + std::to_string(model->contains.size()) + ")");
    return;
  }
  const auto& use = model->contains[static_cast<size_t>(part.use)];
  if (use.config != layer.config || use.count != part.count) {
    checker.add(pointer + "/part_of", "\"" + layer.config + "\" x" + std::to_string(part.count) + " is not use "
                                        + std::to_string(part.use) + " of \"" + part.model + "\" (\"" + use.config + "\" x"
                                        + std::to_string(use.count) + ")");
  }
}

void check_layers(const Dataset& dataset, Checker& checker)
{
  std::set<std::string> names;
  for (size_t i = 0; i < dataset.layers.size(); ++i) {
    const auto& layer = dataset.layers[i];
    const auto pointer = "/layers/" + std::to_string(i);
    if (layer.name.empty()) {
      checker.add(pointer + "/name", "empty layer name");
    }
    if (!names.insert(layer.name).second) {
      checker.add(pointer + "/name", "layer \"" + layer.name + "\" is described twice");
    }
    checker.at_least(pointer + "/params", as_double(layer.params), 0, 1e15);
    checker.at_least(pointer + "/params_counted", as_double(layer.params_counted), 0, 1e15);
    checker.at_least(pointer + "/flops_per_sample", layer.flops_per_sample, 0, k_max_flops);
    checker.at_least(pointer + "/matmul_flops_per_sample", layer.matmul_flops_per_sample, 0, k_max_flops);
    checker.at_least(pointer + "/bytes_fixed", layer.bytes_fixed, 0, k_max_flops);
    checker.at_least(pointer + "/bytes_per_sample", layer.bytes_per_sample, 0, k_max_flops);
    check_part_of(dataset, layer, pointer, checker);
  }
}

void check_stats(const Stats& stats, const std::string& pointer, Checker& checker)
{
  checker.time(pointer + "/median_ms", stats.median_ms);
  checker.time(pointer + "/p25_ms", stats.p25_ms);
  checker.time(pointer + "/p75_ms", stats.p75_ms);
  checker.time(pointer + "/min_ms", stats.min_ms);
  checker.time(pointer + "/mean_ms", stats.mean_ms);
  checker.at_least(pointer + "/stddev_ms", stats.stddev_ms, 0, k_max_time_ms);
  checker.at_least(pointer + "/samples", as_double(stats.samples), 1, 1e9);
  checker.at_least(pointer + "/iterations_per_sample", as_double(stats.iterations_per_sample), 1, 1e15);
  checker.at_least(pointer + "/noise", stats.noise, 0, 1e9);
  if (stats.p25_ms.has_value() != stats.p75_ms.has_value()) {
    checker.add(pointer, "p25_ms and p75_ms come together");
  }
  if (stats.p25_ms && stats.p75_ms && !(*stats.p25_ms <= stats.median_ms && stats.median_ms <= *stats.p75_ms)) {
    checker.add(pointer, "expected p25_ms <= median_ms <= p75_ms, found " + Checker::number(*stats.p25_ms) + ", "
                           + Checker::number(stats.median_ms) + ", " + Checker::number(*stats.p75_ms));
  }
  if (stats.min_ms && *stats.min_ms > stats.median_ms) {
    checker.add(pointer + "/min_ms", "min_ms exceeds median_ms");
  }
}

// The operators and kernels of one profiled forward: each named once, shares between 0 and 1.
void check_profile(const Cell& cell, const std::string& pointer, Checker& checker)
{
  std::set<std::string> names;
  for (size_t i = 0; i < cell.operators.size(); ++i) {
    const auto& op = cell.operators[i];
    const auto at = pointer + "/operators/" + std::to_string(i);
    if (op.name.empty() || !names.insert(op.name).second) {
      checker.add(at + "/name", "operator \"" + op.name + "\" is empty or listed twice");
    }
    checker.at_least(at + "/calls", static_cast<double>(op.calls), 1, 1e9);
    checker.at_least(at + "/self_cpu_fraction", op.self_cpu_fraction, 0, 1);
    checker.at_least(at + "/self_device_fraction", op.self_device_fraction, 0, 1);
  }
  for (size_t i = 0; i < cell.kernels.size(); ++i) {
    const auto at = pointer + "/kernels/" + std::to_string(i);
    checker.at_least(at + "/calls", static_cast<double>(cell.kernels[i].calls), 1, 1e9);
    checker.at_least(at + "/device_fraction", cell.kernels[i].device_fraction, 0, 1);
  }
}

void check_variant(const VariantStats& stats, const std::string& pointer, Checker& checker)
{
  checker.time(pointer + "/median_ms", stats.median_ms);
  checker.time(pointer + "/p25_ms", stats.p25_ms);
  checker.time(pointer + "/p75_ms", stats.p75_ms);
  if (!(stats.p25_ms <= stats.median_ms && stats.median_ms <= stats.p75_ms)) {
    checker.add(pointer, "the quartiles are out of order (p25 <= median <= p75)");
  }
  checker.at_least(pointer + "/samples", stats.samples, 1, 1e9);
  checker.at_least(pointer + "/iterations_per_sample", as_double(std::optional<int64_t>(stats.iterations_per_sample)), 1,
                   1e15);
  checker.at_least(pointer + "/noise", stats.noise, 0, 1e6);
}

// A variant either has its timings or says why not; a ratio needs its timings.
void check_cuda(const CudaCell& cuda, const std::string& pointer, Checker& checker)
{
  if (cuda.graph) {
    check_variant(*cuda.graph, pointer + "/graph", checker);
  }
  if (cuda.graph.has_value() == !cuda.graph_skip_reason.empty()) {
    checker.add(pointer + "/graph_skip_reason", "give either the graph timings or the reason there are none, not both");
  }
  if (cuda.graph_over_eager && !cuda.graph) {
    checker.add(pointer + "/graph_over_eager", "a ratio without graph timings");
  }
  if (cuda.cold) {
    check_variant(*cuda.cold, pointer + "/cold", checker);
  }
  if (cuda.cold.has_value() == !cuda.cold_skip_reason.empty()) {
    checker.add(pointer + "/cold_skip_reason", "give either the cold timings or the reason there are none, not both");
  }
  if (cuda.cold_over_hot && !cuda.cold) {
    checker.add(pointer + "/cold_over_hot", "a ratio without cold timings");
  }
  checker.at_least(pointer + "/graph_forwards_per_replay", as_double(cuda.graph_forwards_per_replay), 1, 1e6);
  checker.at_least(pointer + "/graph_over_eager", cuda.graph_over_eager, 0, 1e6);
  checker.at_least(pointer + "/cold_over_hot", cuda.cold_over_hot, 0, 1e6);
  checker.at_least(pointer + "/l2_flush_bytes", as_double(cuda.l2_flush_bytes), 1, double(k_max_bytes));
  const auto& clocks = cuda.clocks;
  checker.at_least(pointer + "/clocks/sm_mean_mhz", clocks.sm_mean_mhz, 0, 1e5);
  checker.at_least(pointer + "/clocks/sm_default_mhz", as_double(clocks.sm_default_mhz), 1, 1e5);
  checker.at_least(pointer + "/clocks/threshold", clocks.threshold, 0, 1);
  checker.at_least(pointer + "/clocks/dropped_samples", clocks.dropped_samples, 0, 1e9);
  checker.at_least(pointer + "/clocks/kept_below_threshold", clocks.kept_below_threshold, 0, 1e9);
}

// A data-parallel step (1.6.0): a training step of two ranks or more, its all-reduce's quartiles in order.
void check_data_parallel(const Cell& cell, const std::string& pointer, Checker& checker)
{
  const auto& d = *cell.data_parallel;
  if (cell.axes[k_mode] != GradMode::train) {
    checker.add(pointer, "only a training step is run data-parallel");
  }
  checker.at_least(pointer + "/world_size", as_double(std::optional<int>(d.world_size)), 2, 1 << 20);
  if (d.backend.empty()) {
    checker.add(pointer + "/backend", "names the c10d backend (gloo, nccl)");
  }
  checker.at_least(pointer + "/bucket_cap_bytes", as_double(std::optional<int64_t>(d.bucket_cap_bytes)), 1, double(k_max_bytes));
  if (d.bucket_bytes.empty()) {
    checker.add(pointer + "/bucket_bytes", "a step all-reduces one bucket or more");
  }
  checker.time(pointer + "/all_reduce_median_ms", d.all_reduce_median_ms);
  checker.time(pointer + "/all_reduce_p25_ms", d.all_reduce_p25_ms);
  checker.time(pointer + "/all_reduce_p75_ms", d.all_reduce_p75_ms);
  if (!(d.all_reduce_p25_ms <= d.all_reduce_median_ms && d.all_reduce_median_ms <= d.all_reduce_p75_ms)) {
    checker.add(pointer + "/all_reduce_median_ms", "not between all_reduce_p25_ms and all_reduce_p75_ms");
  }
}

void check_cell(const Cell& cell, const std::string& pointer, Checker& checker)
{
  if (cell.batch_size < 1) {
    checker.add(pointer + "/batch_size", "a batch size counts from 1");
  }
  if (cell.status == CellStatus::skipped) {
    if (cell.skip_reason.empty()) {
      checker.add(pointer + "/skip_reason", "a skipped cell says why");
    }
    if (cell.stats) {
      checker.add(pointer + "/stats", "a skipped cell has no timings");
    }
  } else {
    if (!cell.skip_reason.empty()) {
      checker.add(pointer + "/skip_reason", "only a skipped cell has a skip reason");
    }
    if (!cell.stats) {
      checker.add(pointer + "/stats", "a cell with status ok has timings");
    }
  }
  if (cell.stats) {
    check_stats(*cell.stats, pointer + "/stats", checker);
  }
  checker.time(pointer + "/first_call_ms", cell.first_call_ms);
  checker.time(pointer + "/host_wall_median_ms", cell.host_wall_median_ms);
  checker.at_least(pointer + "/peak_memory_bytes", as_double(cell.peak_memory_bytes), 0, double(k_max_bytes));
  checker.at_least(pointer + "/throughput_samples_per_s", cell.throughput_samples_per_s, 0, 1e15);
  checker.at_least(pointer + "/achieved_flop_per_s", cell.achieved_flop_per_s, 0, 1e21);
  checker.at_least(pointer + "/cell_seconds", cell.cell_seconds, 0, 1e7);
  if (cell.aoti) {
    checker.at_least(pointer + "/aoti/compile_seconds", std::optional<double>(cell.aoti->compile_seconds), 0, 1e7);
    if (cell.axes[k_compiled] != Compiled::aot_inductor) {
      checker.add(pointer + "/aoti", "an AOTInductor package on a cell that is not compiled=aot_inductor");
    }
  }
  if (cell.runtime) {
    checker.at_least(pointer + "/runtime/compile_seconds", cell.runtime->compile_seconds, 0, 1e7);
    if (cell.axes[dataset::k_compiled] != Compiled::torch_compile) {
      checker.add(pointer + "/runtime", "a Python worker's runtime on a cell that is not compiled=torch_compile");
    }
  }
  if (cell.data_parallel) {
    check_data_parallel(cell, pointer + "/data_parallel", checker);
  }
  checker.at_least(pointer + "/page_faults_per_iteration", cell.page_faults_per_iteration, 0, 1e12);
  check_profile(cell, pointer, checker);
  if (cell.train) {
    if (cell.axes[k_mode] != GradMode::train) {
      checker.add(pointer + "/train", "only a cell of mode train has train timings");
    }
    check_stats(cell.train->forward, pointer + "/train/forward", checker);
    if (cell.train->backward_input) {
      check_stats(*cell.train->backward_input, pointer + "/train/backward_input", checker);
    }
    if (cell.train->backward_weight) {
      check_stats(*cell.train->backward_weight, pointer + "/train/backward_weight", checker);
    }
    checker.time(pointer + "/train/sum_ms", cell.train->sum_ms);
  }
  if (cell.canary) {
    checker.time(pointer + "/canary/matmul_ms", cell.canary->matmul_ms);
    checker.time(pointer + "/canary/copy_ms", cell.canary->copy_ms);
  }
  if (cell.cuda) {
    check_cuda(*cell.cuda, pointer + "/cuda", checker);
  }
}

void check_results(const Dataset& dataset, Completeness completeness, Checker& checker)
{
  std::map<std::tuple<std::string, int, Axes>, size_t> seen;
  for (size_t i = 0; i < dataset.results.size(); ++i) {
    const auto& cell = dataset.results[i];
    const auto pointer = "/results/" + std::to_string(i);
    check_cell(cell, pointer, checker);
    if (!find_layer(dataset, cell.layer)) {
      checker.add(pointer + "/layer", "layer \"" + cell.layer + "\" is not described in /layers");
    }
    const auto [where, fresh] = seen.emplace(std::make_tuple(cell.layer, cell.batch_size, cell.axes), i);
    if (!fresh) {
      checker.add(pointer, "duplicate cell " + describe_cell({cell.layer, cell.batch_size, cell.axes}) + " (first at /results/"
                             + std::to_string(where->second) + ")");
    }
  }
  const auto matrix = declared_matrix(dataset);
  std::set<std::tuple<std::string, int, Axes>> declared;
  for (const auto& key : matrix) {
    declared.emplace(key.layer, key.batch_size, key.axes);
    if (completeness == Completeness::complete && seen.count({key.layer, key.batch_size, key.axes}) == 0) {
      checker.add("/results", "cell " + describe_cell(key)
                                + " of the declared matrix is missing (record it as skipped with a reason)");
    }
  }
  if (!dataset.methodology) {
    return;
  }
  for (size_t i = 0; i < dataset.results.size(); ++i) {
    const auto& cell = dataset.results[i];
    if (declared.count({cell.layer, cell.batch_size, cell.axes}) == 0) {
      checker.add("/results/" + std::to_string(i), "cell " + describe_cell({cell.layer, cell.batch_size, cell.axes})
                                                        + " is outside the declared matrix (and shard)");
    }
  }
}

bool has_key(const std::vector<CellKey>& keys, const std::string& layer, int batch_size, const Axes& axes)
{
  return std::any_of(keys.begin(), keys.end(), [&](const CellKey& key) {
    return key.layer == layer && key.batch_size == batch_size && key.axes == axes;
  });
}

// A listed set of cells (a shard's, or a matrix given cell by cell): each inside the product of the
// methodology's layers, batch sizes and axes, and each once.
void check_listed_cells(const Methodology& m, const std::vector<CellKey>& keys, const std::string& pointer, Checker& checker)
{
  const auto axes = corners(m.axes);
  for (size_t i = 0; i < keys.size(); ++i) {
    const auto& key = keys[i];
    const auto where = pointer + "/" + std::to_string(i);
    const bool in_matrix = std::find(m.layers.begin(), m.layers.end(), key.layer) != m.layers.end()
                           && std::find(m.batch_sizes.begin(), m.batch_sizes.end(), key.batch_size) != m.batch_sizes.end()
                           && std::find(axes.begin(), axes.end(), key.axes) != axes.end();
    if (!in_matrix) {
      checker.add(where, "cell " + describe_cell(key)
                           + " is not in methodology.layers x methodology.batch_sizes x methodology.axes");
    }
    const std::vector<CellKey> before(keys.begin(), keys.begin() + static_cast<long>(i));
    if (has_key(before, key.layer, key.batch_size, key.axes)) {
      checker.add(where, "cell " + describe_cell(key) + " is listed twice");
    }
  }
}

void check_shard_cells(const Methodology& m, Checker& checker)
{
  if (m.shard.empty() && !m.shard_cells.empty()) {
    checker.add("/methodology/shard_cells", "lists the cells of a shard, but /methodology/shard names none");
  }
  if (!m.shard.empty() && !m.shard_cells.empty() && m.shard_plan.empty()) {
    checker.add("/methodology/shard_plan", "is missing: /methodology/shard_cells needs the plan that chose them");
  }
  check_listed_cells(m, m.shard_cells, "/methodology/shard_cells", checker);
  // A listed matrix is what `merge --union` writes from whole runs; a shard is cut from a product matrix.
  if (!m.cells.empty() && !m.shard.empty()) {
    checker.add("/methodology/cells", "lists a whole matrix, but /methodology/shard says this is one shard of one");
  }
  check_listed_cells(m, m.cells, "/methodology/cells", checker);
}

void check_methodology(const Dataset& dataset, Checker& checker)
{
  if (!dataset.methodology) {
    return;
  }
  const auto& m = *dataset.methodology;
  const auto& policy = m.cpu_memory_policy;
  if (!policy.empty() && policy != "steady-state" && policy != "fresh-pages" && policy != "system") {
    checker.add("/methodology/cpu_memory_policy", "\"" + policy + "\" is not steady-state, fresh-pages or system");
  }
  if (!m.shard.empty()) {
    try {
      parse_shard(m.shard);
    } catch (const Error&) {
      checker.add("/methodology/shard", "\"" + m.shard + "\" is not I/N with 1 <= I <= N");
    }
  }
  check_shard_cells(m, checker);
  for (size_t i = 0; i < m.layers.size(); ++i) {
    if (!find_layer(dataset, m.layers[i])) {
      checker.add("/methodology/layers/" + std::to_string(i), "layer \"" + m.layers[i] + "\" is not described in /layers");
    }
  }
}

// The rounds' header (1.4.0): numbered 1..count, each finished or failed with its reason. Returns the
// finished rounds' indexes.
std::set<int> check_round_header(const Rounds& rounds, Checker& checker)
{
  std::set<int> finished;
  checker.at_least("/rounds/count", std::optional<double>(rounds.count), 2, k_max_rounds);
  if (static_cast<int>(rounds.runs.size()) != rounds.count) {
    checker.add("/rounds/runs", "lists " + std::to_string(rounds.runs.size()) + " rounds; /rounds/count says "
                                  + std::to_string(rounds.count));
  }
  for (size_t i = 0; i < rounds.runs.size(); ++i) {
    const auto& run = rounds.runs[i];
    const auto pointer = "/rounds/runs/" + std::to_string(i);
    if (run.index != static_cast<int>(i) + 1) {
      checker.add(pointer + "/index", "expected round " + std::to_string(i + 1) + ", found " + std::to_string(run.index));
    }
    if (run.status == "ok") {
      finished.insert(run.index);
    } else if (run.status != "failed") {
      checker.add(pointer + "/status", "\"" + run.status + "\" is not ok or failed");
    } else if (run.reason.empty()) {
      checker.add(pointer + "/reason", "a failed round says why");
    }
  }
  if (finished.empty()) {
    checker.add("/rounds/runs", "no round finished");
  }
  return finished;
}

// A cell measured in rounds: each round one of the finished ones, the cell's median the median of its
// round medians, the spread what those medians span.
void check_cell_rounds(const Cell& cell, const std::set<int>& finished, const std::string& pointer, Checker& checker)
{
  std::vector<double> medians;
  for (size_t r = 0; r < cell.rounds.size(); ++r) {
    const auto& round = cell.rounds[r];
    const auto at = pointer + "/rounds/" + std::to_string(r);
    if (finished.count(round.round) == 0) {
      checker.add(at + "/round", "round " + std::to_string(round.round) + " is not a finished round of /rounds/runs");
    }
    if (round.stats) {
      check_stats(*round.stats, at + "/stats", checker);
      if (round.status == CellStatus::ok) {
        medians.push_back(round.stats->median_ms);
      }
    }
  }
  if (medians.empty() || !cell.stats) {
    if (cell.round_spread) {
      checker.add(pointer + "/round_spread", "a spread without the round timings it spans");
    }
    return;
  }
  const double combined = util::median(medians);
  if (std::fabs(combined - cell.stats->median_ms) > 1e-9 * combined) {
    checker.add(pointer + "/stats/median_ms", Checker::number(cell.stats->median_ms) + " is not the median of the round "
                                                "medians (" + Checker::number(combined) + ")");
  }
  if (!cell.round_spread) {
    checker.add(pointer + "/round_spread", "missing: a cell measured in rounds gives their spread");
    return;
  }
  const auto& spread = *cell.round_spread;
  const auto [low, high] = std::minmax_element(medians.begin(), medians.end());
  if (spread.rounds != static_cast<int>(medians.size()) || spread.min_median_ms != *low || spread.max_median_ms != *high) {
    checker.add(pointer + "/round_spread", "does not match the rounds' medians (" + std::to_string(medians.size())
                                             + " rounds from " + Checker::number(*low) + " to " + Checker::number(*high) + " ms)");
  }
  checker.time(pointer + "/round_spread/ci95_low_ms", spread.ci95_low_ms);
  checker.time(pointer + "/round_spread/ci95_high_ms", spread.ci95_high_ms);
  if (spread.ci95_low_ms > spread.ci95_high_ms) {
    checker.add(pointer + "/round_spread", "ci95_low_ms exceeds ci95_high_ms");
  }
}

void check_rounds(const Dataset& dataset, Checker& checker)
{
  const auto finished = dataset.rounds ? check_round_header(*dataset.rounds, checker) : std::set<int>{};
  for (size_t i = 0; i < dataset.results.size(); ++i) {
    const auto& cell = dataset.results[i];
    const auto pointer = "/results/" + std::to_string(i);
    if (!dataset.rounds && (!cell.rounds.empty() || cell.round_spread)) {
      checker.add(pointer + "/rounds", "round timings in a dataset without /rounds");
      continue;
    }
    if (dataset.rounds && cell.status == CellStatus::ok && cell.rounds.empty()) {
      checker.add(pointer + "/rounds", "missing: every cell of a run in rounds keeps its rounds");
    }
    check_cell_rounds(cell, finished, pointer, checker);
  }
}

} // namespace

std::vector<CellKey> declared_matrix(const Dataset& dataset)
{
  std::vector<CellKey> matrix;
  if (!dataset.methodology) {
    std::set<int> batch_sizes;
    for (const auto& cell : dataset.results) {
      batch_sizes.insert(cell.batch_size);
    }
    for (const auto& layer : dataset.layers) {
      for (int batch_size : batch_sizes) {
        matrix.push_back({layer.name, batch_size, Axes{}});
      }
    }
    return matrix;
  }
  const auto& m = *dataset.methodology;
  if (!m.cells.empty()) {
    return m.cells; // listed (1.9.0); check_listed_cells reports a cell outside the product
  }
  // A planned shard (1.3.0) lists its cells, a shard before 1.3.0 follows from I/N; either way the
  // matrix keeps matrix order, and check_methodology reports listed cells outside it.
  const bool planned = !m.shard.empty() && !m.shard_plan.empty();
  Shard shard;
  try {
    shard = m.shard.empty() || planned ? Shard{} : parse_shard(m.shard);
  } catch (const Error&) {
    // Reported by check_methodology; the whole matrix is the best guess meanwhile.
  }
  const auto axes = corners(m.axes);
  size_t index = 0;
  for (const auto& layer : m.layers) {
    for (int batch_size : m.batch_sizes) {
      for (const auto& corner : axes) {
        const bool mine = planned ? has_key(m.shard_cells, layer, batch_size, corner) : in_round_robin_shard(shard, index++);
        if (mine) {
          matrix.push_back({layer, batch_size, corner});
        }
      }
    }
  }
  return matrix;
}

std::vector<Problem> check(const Dataset& dataset, Completeness completeness)
{
  std::vector<Problem> problems;
  Checker checker(problems);
  check_header(dataset, checker);
  const auto citation = check_citation(dataset);
  problems.insert(problems.end(), citation.begin(), citation.end());
  check_kind(dataset, checker);
  check_layers(dataset, checker);
  check_methodology(dataset, checker);
  check_results(dataset, completeness, checker);
  check_rounds(dataset, checker);
  for (auto& problem : check_samples(dataset)) {
    problems.push_back(std::move(problem));
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------
// Files

namespace {

std::string line(const std::string& file, const std::string& pointer, const std::string& message)
{
  return file + ": " + (pointer.empty() ? std::string("/") : pointer) + ": " + message;
}

void append(std::vector<std::string>& out, const std::vector<std::string>& lines)
{
  out.insert(out.end(), lines.begin(), lines.end());
}

// A published dataset (DATA/datasets/X.json beside DATA/catalog.json) against its catalog entry.
void check_against_catalog(const std::filesystem::path& path,
                           const std::string& text,
                           const Dataset& dataset,
                           std::vector<std::string>& out)
{
  const auto folder = DataFolder::folder_of(path);
  if (!folder || dataset.version < 1) {
    return;
  }
  const auto catalog_path = DataFolder::catalog_file(*folder);
  const auto catalog = load_catalog(catalog_path);
  const auto* entry = find_entry(catalog, dataset.id, dataset.version);
  if (!entry) {
    out.push_back(line(path.string(), "", reference(dataset.id, dataset.version) + " is not listed in " + catalog_path.string()));
    return;
  }
  append(out, check_against_entry(*entry, path, text, dataset));
}

void validate_inconsistencies(const std::filesystem::path& path, const std::string& text, std::vector<std::string>& out)
{
  const auto file = parse_inconsistencies(text, path.string());
  if (const auto folder = DataFolder::folder_of(path)) {
    append(out, check_reference(file, load_catalog(DataFolder::catalog_file(*folder))));
  }
}

bool looks_like_catalog(const std::string& text)
{
  const auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return json.is_object() && json.contains("datasets") && !json.contains("results");
}

std::string format_of(const std::string& text)
{
  const auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return json.is_object() && json.contains("format") && json["format"].is_string() ? json["format"].get<std::string>() : "";
}

} // namespace

std::vector<std::string> validate_file(const std::filesystem::path& path, std::vector<std::string>* warnings)
{
  std::vector<std::string> out;
  const auto file = path.string();
  try {
    const auto text = util::read_file(path);
    if (!text) {
      throw Error(path.string() + ": " + text.error());
    }
    if (looks_like_catalog(*text)) {
      parse_catalog(*text, file);
      if (DataFolder::is_catalog_file(path)) {
        // The whole folder: every dataset it lists, its validation files and its reference inconsistencies.
        DataFolder::load(path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path(), out);
      }
      return out;
    }
    if (format_of(*text) == "layerbench-parity") {
      parse_parity(*text, file); // throws on the first problem
      return out;
    }
    if (format_of(*text) == "layerbench-finding") {
      // In DATA/findings/ beside a catalog, a finding names only datasets that catalog lists.
      const auto finding = parse_finding(*text, file);
      const auto dir = path.parent_path() / "..";
      const auto catalog =
          DataFolder::holds_catalog(dir) ? std::optional<Catalog>(load_catalog(DataFolder::catalog_file(dir))) : std::nullopt;
      append(out, check_finding(finding, path, catalog ? &*catalog : nullptr));
      return out;
    }
    if (format_of(*text) == "layerbench-inconsistencies") {
      validate_inconsistencies(path, *text, out);
      return out;
    }
    const auto dataset = parse_unchecked(*text, file);
    for (const auto& problem : check(dataset)) {
      out.push_back(line(file, problem.pointer, problem.message));
    }
    // A compute peak that the version's erratum withdrew bounds no cell: its excess is a warning naming it.
    for (const auto& finding : check_physics(dataset, datasheet_for(path), errata_of(path, dataset))) {
      if (finding.severity == Severity::error) {
        out.push_back(line(file, finding.pointer, finding.message));
      } else if (warnings) {
        warnings->push_back(line(file, finding.pointer, finding.message));
      }
    }
    // Peak memory against what a forward holds (dataset/memory_check.hpp); an erratum makes a withdrawn
    // dataset's excess a warning.
    for (const auto& finding : check_memory(dataset, memory_figures(path, dataset))) {
      if (finding.verdict == MemoryVerdict::refused) {
        out.push_back(line(file, finding.pointer, finding.message));
      } else if (warnings) {
        warnings->push_back(line(file, finding.pointer, finding.message));
      }
    }
    check_against_catalog(path, *text, dataset, out);
  } catch (const Error& error) {
    out.push_back(error.what());
  }
  return out;
}

} // namespace layerbench::dataset
