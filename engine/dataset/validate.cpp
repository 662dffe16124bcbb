// SPDX-License-Identifier: MIT
#include "dataset/validate.hpp"

#include "dataset/catalog.hpp"
#include "dataset/io.hpp"
#include "dataset/shard.hpp"
#include "dataset/validation.hpp"
#include "util/error.hpp"
#include "util/file.hpp"
#include "util/sha256.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
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

bool valid_timestamp(const std::string& text)
{
  // "2026-11-22T04:05:07Z"
  static const std::string shape = "dddd-dd-ddTdd:dd:ddZ";
  if (text.size() != shape.size()) {
    return false;
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (shape[i] == 'd' ? !digit : text[i] != shape[i]) {
      return false;
    }
  }
  return true;
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
  if (!valid_timestamp(dataset.created)) {
    checker.add("/created", "\"" + dataset.created + "\" is not a UTC time like 2026-11-22T04:05:07Z");
  }
  if (dataset.license.id != "CC-BY-4.0") {
    checker.add("/license/id", "\"" + dataset.license.id + "\": datasets are published under CC-BY-4.0");
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

void check_kind(const Dataset& dataset, Checker& checker)
{
  if (dataset.kind == Kind::measured) {
    if (!dataset.environment) {
      checker.add("/environment", "a measured dataset records its environment");
    } else {
      checker.at_least("/environment/load_average_start", dataset.environment->load_average_start, 0, 1e6);
      checker.at_least("/environment/load_average_end", dataset.environment->load_average_end, 0, 1e6);
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
  checker.at_least(pointer + "/page_faults_per_iteration", cell.page_faults_per_iteration, 0, 1e12);
  check_profile(cell, pointer, checker);
  if (cell.train) {
    if (cell.axes.mode != GradMode::train) {
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
}

std::string describe_key(const std::string& layer, int batch_size, const Axes& axes)
{
  return layer + " at batch size " + std::to_string(batch_size) + (axes.is_reference() ? "" : " (" + label(axes) + ")");
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
      checker.add(pointer, "duplicate cell " + describe_key(cell.layer, cell.batch_size, cell.axes) + " (first at /results/"
                             + std::to_string(where->second) + ")");
    }
  }
  const auto matrix = declared_matrix(dataset);
  std::set<std::tuple<std::string, int, Axes>> declared;
  for (const auto& key : matrix) {
    declared.emplace(key.layer, key.batch_size, key.axes);
    if (completeness == Completeness::complete && seen.count({key.layer, key.batch_size, key.axes}) == 0) {
      checker.add("/results", "cell " + describe_key(key.layer, key.batch_size, key.axes)
                                + " of the declared matrix is missing (record it as skipped with a reason)");
    }
  }
  if (!dataset.methodology) {
    return;
  }
  for (size_t i = 0; i < dataset.results.size(); ++i) {
    const auto& cell = dataset.results[i];
    if (declared.count({cell.layer, cell.batch_size, cell.axes}) == 0) {
      checker.add("/results/" + std::to_string(i), "cell " + describe_key(cell.layer, cell.batch_size, cell.axes)
                                                        + " is outside the declared matrix (and shard)");
    }
  }
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
  for (size_t i = 0; i < m.layers.size(); ++i) {
    if (!find_layer(dataset, m.layers[i])) {
      checker.add("/methodology/layers/" + std::to_string(i), "layer \"" + m.layers[i] + "\" is not described in /layers");
    }
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
  Shard shard;
  try {
    shard = m.shard.empty() ? Shard{} : parse_shard(m.shard);
  } catch (const Error&) {
    // Reported by check_methodology; the whole matrix is the best guess meanwhile.
  }
  const auto axes = corners(m.axes);
  size_t index = 0;
  for (const auto& layer : m.layers) {
    for (int batch_size : m.batch_sizes) {
      for (const auto& corner : axes) {
        if (in_shard(shard, index++)) {
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
  check_kind(dataset, checker);
  check_layers(dataset, checker);
  check_methodology(dataset, checker);
  check_results(dataset, completeness, checker);
  return problems;
}

// ---------------------------------------------------------------------------------------------------
// Files

namespace {

std::string line(const std::string& file, const std::string& pointer, const std::string& message)
{
  return file + ": " + (pointer.empty() ? std::string("/") : pointer) + ": " + message;
}

// The catalog of the data folder that holds `path` (DATA/datasets/X.json), if there is one.
std::optional<std::filesystem::path> catalog_beside(const std::filesystem::path& path)
{
  const auto folder = std::filesystem::absolute(path).parent_path();
  if (folder.filename() != "datasets") {
    return std::nullopt;
  }
  const auto catalog = folder.parent_path() / "catalog.json";
  return std::filesystem::exists(catalog) ? std::optional(catalog) : std::nullopt;
}

void check_against_catalog(const std::filesystem::path& path,
                           const std::string& text,
                           const Dataset& dataset,
                           std::vector<std::string>& out)
{
  const auto catalog_path = catalog_beside(path);
  if (!catalog_path || dataset.version < 1) {
    return;
  }
  const auto catalog = load_catalog(*catalog_path);
  const auto* entry = find_entry(catalog, dataset.id, dataset.version);
  const auto file = path.string();
  if (!entry) {
    out.push_back(line(file, "", reference(dataset.id, dataset.version) + " is not listed in " + catalog_path->string()));
    return;
  }
  if (path.filename() != std::filesystem::path(entry->path).filename()) {
    out.push_back(line(file, "", "file name should be " + std::filesystem::path(entry->path).filename().string()));
  }
  const auto digest = util::sha256_hex(text);
  if (digest != entry->sha256) {
    out.push_back(line(file, "", "sha256 " + digest + " differs from the catalog's " + entry->sha256
                                     + ": a published version must never be edited (publish a new version)"));
  }
  const auto expected = describe(dataset, entry->sha256);
  if (serialize(Catalog{k_catalog_schema_version, "", {expected}}) != serialize(Catalog{k_catalog_schema_version, "", {*entry}})) {
    out.push_back(line(file, "", "the catalog entry for " + reference(dataset.id, dataset.version)
                                     + " does not describe this file (title, kind, device, cells, replaces...)"));
  }
}

void validate_catalog(const std::filesystem::path& path, const std::string& text, std::vector<std::string>& out)
{
  const auto catalog = parse_catalog(text, path.string());
  const auto folder = path.parent_path();
  for (size_t i = 0; i < catalog.datasets.size(); ++i) {
    const auto& entry = catalog.datasets[i];
    const auto pointer = "/datasets/" + std::to_string(i);
    const auto file = folder / entry.path;
    const auto content = util::read_file(file);
    if (!content) {
      out.push_back(line(path.string(), pointer + "/path", file.string() + ": " + content.error()));
      continue;
    }
    if (util::sha256_hex(*content) != entry.sha256) {
      out.push_back(line(path.string(), pointer + "/sha256", "does not match " + file.string()));
    }
    if (!entry.replaces.empty()) {
      const auto replaced = parse_reference(entry.replaces, path.string() + ": " + pointer + "/replaces");
      if (!find_entry(catalog, replaced.id, replaced.version)) {
        out.push_back(line(path.string(), pointer + "/replaces", entry.replaces + " is not in the catalog"));
      }
    }
  }
}

bool looks_like_catalog(const std::string& text)
{
  const auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return json.is_object() && json.contains("datasets") && !json.contains("results");
}

bool looks_like_parity(const std::string& text)
{
  const auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return json.is_object() && json.contains("format") && json["format"] == "layerbench-parity";
}

} // namespace

std::vector<std::string> validate_file(const std::filesystem::path& path)
{
  std::vector<std::string> out;
  const auto file = path.string();
  try {
    const auto text = util::read_file(path);
    if (!text) {
      throw Error(path.string() + ": " + text.error());
    }
    if (looks_like_catalog(*text)) {
      validate_catalog(path, *text, out);
      return out;
    }
    if (looks_like_parity(*text)) {
      parse_parity(*text, file); // throws on the first problem
      return out;
    }
    const auto dataset = parse_unchecked(*text, file);
    for (const auto& problem : check(dataset)) {
      out.push_back(line(file, problem.pointer, problem.message));
    }
    check_against_catalog(path, *text, dataset, out);
  } catch (const Error& error) {
    out.push_back(error.what());
  }
  return out;
}

} // namespace layerbench::dataset
