// SPDX-License-Identifier: MIT
#include "dataset/io.hpp"

#include "dataset/json_reader.hpp"
#include "dataset/json_text.hpp"
#include "util/error.hpp"

#include <cmath>
#include <set>

namespace layerbench::dataset {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

OrderedJson units_json()
{
  return {{"time", "ms"},
          {"memory", "bytes"},
          {"flops", "FLOP"},
          {"throughput", "samples/s"},
          {"flop_rate", "FLOP/s"}};
}

// ---------------------------------------------------------------------------------------------------
// Writing

namespace {

template<typename T>
void put(OrderedJson& object, const char* key, const std::optional<T>& value)
{
  if (value) {
    object[key] = *value;
  }
}

void put_text(OrderedJson& object, const char* key, const std::string& value)
{
  if (!value.empty()) {
    object[key] = value;
  }
}

// Compute peaks write their work as "flop" and their rate as "flop_per_s"; the memory peak as
// "bytes" and "bytes_per_s": the unit is in the name, as everywhere in the file.
OrderedJson to_json(const PeakRate& peak, const char* name_key, const char* work_key, const char* rate_key)
{
  OrderedJson json{{name_key, peak.name},
                   {"operation", peak.operation},
                   {work_key, peak.work},
                   {"median_ms", peak.median_ms}};
  put(json, "best_ms", peak.best_ms);
  json[rate_key] = peak.rate;
  put(json, "noise", peak.noise);
  put(json, "samples", peak.samples);
  put(json, "noise_target_met", peak.noise_target_met);
  return json;
}

OrderedJson to_json(const Peaks& peaks)
{
  OrderedJson json{{"method", peaks.method}};
  auto& compute = json["compute"] = OrderedJson::array();
  for (const auto& peak : peaks.compute) {
    compute.push_back(to_json(peak, "precision", "flop", "flop_per_s"));
  }
  if (peaks.memory) {
    json["memory"] = to_json(*peaks.memory, "kernel", "bytes", "bytes_per_s");
  }
  // Absent, not empty, where unmeasured: a file of 1.6 and older reads the same as before.
  if (!peaks.caches.empty()) {
    auto& caches = json["caches"] = OrderedJson::array();
    for (const auto& cache : peaks.caches) {
      OrderedJson item{{"level", cache.level}, {"size_bytes", cache.size_bytes}, {"size_source", cache.size_source}};
      item.update(to_json(cache.triad, "kernel", "bytes", "bytes_per_s"));
      caches.push_back(std::move(item));
    }
  }
  return json;
}

OrderedJson to_json(const CpuIdentity& cpu)
{
  OrderedJson json{{"vendor", cpu.vendor}};
  put(json, "family", cpu.family);
  put(json, "model", cpu.model);
  put(json, "stepping", cpu.stepping);
  json["isa"] = cpu.isa;
  put_text(json, "aten_capability", cpu.aten_capability);
  return json;
}

OrderedJson to_json(const Environment& environment)
{
  OrderedJson device;
  device["type"] = environment.device.type;
  device["name"] = environment.device.name;
  device["compute_capability"] = environment.device.compute_capability;
  device["memory_bytes"] = environment.device.memory_bytes ? OrderedJson(*environment.device.memory_bytes)
                                                           : OrderedJson(nullptr);
  device["driver"] = environment.device.driver;
  device["cuda_runtime"] = environment.device.cuda_runtime;
  device["cudnn"] = environment.device.cudnn;
  put(device, "kernel_driver", environment.device.kernel_driver);
  OrderedJson json{{"device", device},
          {"torch_version", environment.torch_version},
          {"torch_git_hash", environment.torch_git_hash},
          {"compiler", environment.compiler},
          {"cpu_model", environment.cpu_model},
          {"logical_cores", environment.logical_cores},
          {"threads", environment.threads},
          {"blas", environment.blas},
          {"os", environment.os},
          {"matmul_allow_tf32", environment.matmul_allow_tf32},
          {"cudnn_allow_tf32", environment.cudnn_allow_tf32},
          {"cudnn_benchmark", environment.cudnn_benchmark}};
  if (environment.cpu) {
    json["cpu"] = to_json(*environment.cpu);
  }
  if (environment.glibc_tunables) {
    json["glibc_tunables"] = *environment.glibc_tunables;
  }
  put(json, "load_average_start", environment.load_average_start);
  put(json, "load_average_end", environment.load_average_end);
  put(json, "other_cores_busy", environment.other_cores_busy);
  put(json, "last_level_cache_bytes", environment.last_level_cache_bytes);
  if (environment.peaks) {
    json["peaks"] = to_json(*environment.peaks);
  }
  return json;
}

// A cell's corner as "axes": {axis: value}; nothing for the reference corner, so older readers and files agree.
void put_axes(OrderedJson& json, const Axes& axes)
{
  if (axes.is_reference()) {
    return;
  }
  auto& object = json["axes"] = OrderedJson::object();
  for (const auto& info : axis_table()) {
    object[info.name] = axis_value(axes, info.name);
  }
}

// A list of cells by key (a shard's cells, a listed matrix), each with its corner where it is not the reference.
void put_cell_keys(OrderedJson& json, const char* name, const std::vector<CellKey>& keys)
{
  if (keys.empty()) {
    return;
  }
  auto& list = json[name] = OrderedJson::array();
  for (const auto& key : keys) {
    OrderedJson cell{{"layer", key.layer}, {"batch_size", key.batch_size}};
    put_axes(cell, key.axes);
    list.push_back(std::move(cell));
  }
}

OrderedJson to_json(const Methodology& m)
{
  OrderedJson json{{"timer", m.timer},
          {"dtype", m.dtype},
          {"inference_mode", m.inference_mode},
          {"layers", m.layers},
          {"batch_sizes", m.batch_sizes},
          {"warmup_seconds", m.warmup_seconds},
          {"warmup_min_iterations", m.warmup_min_iterations},
          {"block_target_seconds", m.block_target_seconds},
          {"noise_metric", m.noise_metric},
          {"noise_target", m.noise_target},
          {"min_samples", m.min_samples},
          {"max_samples", m.max_samples},
          {"cell_budget_seconds", m.cell_budget_seconds},
          {"flop_convention", m.flop_convention},
          {"memory_method", m.memory_method},
          {"speed_class_rule", m.speed_class_rule}};
  put_text(json, "shard", m.shard);
  put_text(json, "shard_plan", m.shard_plan);
  put_cell_keys(json, "shard_cells", m.shard_cells);
  put_cell_keys(json, "cells", m.cells);
  put_text(json, "cpu_memory_policy", m.cpu_memory_policy);
  put_text(json, "cpu_memory_policy_text", m.cpu_memory_policy_text);
  put_text(json, "precision", m.precision);
  put_text(json, "dispatch", m.dispatch);
  put_text(json, "canary", m.canary);
  put_text(json, "cuda_method", m.cuda_method);
  if (!m.axes.is_reference()) {
    auto& axes = json["axes"] = OrderedJson::object();
    for (const auto& info : axis_table()) {
      axes[info.name] = grid_values(m.axes, info.name);
    }
  }
  put_text(json, "axes_text", m.axes_text);
  return json;
}

OrderedJson to_json(const Layer& layer)
{
  OrderedJson json{{"name", layer.name},
                   {"module", layer.module},
                   {"config", layer.config},
                   {"input_shape", layer.input_shape},
                   {"mode", to_string(layer.mode)}};
  put(json, "params", layer.params);
  put_text(json, "params_formula", layer.params_formula);
  put(json, "params_counted", layer.params_counted);
  put(json, "flops_per_sample", layer.flops_per_sample);
  put_text(json, "flops_formula", layer.flops_formula);
  put(json, "matmul_flops_per_sample", layer.matmul_flops_per_sample);
  put_text(json, "speed_class", layer.speed_class);
  put_text(json, "dispatch", layer.dispatch);
  put(json, "bytes_fixed", layer.bytes_fixed);
  put(json, "bytes_per_sample", layer.bytes_per_sample);
  put_text(json, "bytes_formula", layer.bytes_formula);
  // A layer's file stays as before 1.5.0; only a whole model says what it is and holds.
  if (layer.kind == LayerKind::model) {
    json["kind"] = to_string(layer.kind);
    json["contains"] = OrderedJson::array();
    for (const auto& use : layer.contains) {
      json["contains"].push_back(OrderedJson{{"layer", use.layer},
                                             {"config", use.config},
                                             {"count", use.count},
                                             {"matmul_flops_per_sample", use.matmul_flops_per_sample},
                                             {"elementwise_flops_per_sample", use.elementwise_flops_per_sample}});
    }
    put_text(json, "train_step", layer.train_step);
  }
  // A model's layer (1.6.0) says which use of which model it is.
  if (layer.kind == LayerKind::model_layer) {
    json["kind"] = to_string(layer.kind);
  }
  if (layer.part_of) {
    json["part_of"] = OrderedJson{{"model", layer.part_of->model}, {"use", layer.part_of->use}, {"count", layer.part_of->count}};
  }
  if (layer.shape) {
    OrderedJson values = OrderedJson::object();
    for (const auto& [name, value] : layer.shape->values) {
      values[name] = value == std::floor(value) && std::fabs(value) < 0x1p53 ? OrderedJson(static_cast<int64_t>(value)) : OrderedJson(value);
    }
    json["shape"] = OrderedJson{{"layer", layer.shape->layer}, {"parameters", std::move(values)}};
  }
  return json;
}

OrderedJson to_json(const Stats& stats)
{
  OrderedJson json{{"median_ms", stats.median_ms}};
  put(json, "p25_ms", stats.p25_ms);
  put(json, "p75_ms", stats.p75_ms);
  put(json, "min_ms", stats.min_ms);
  put(json, "mean_ms", stats.mean_ms);
  put(json, "stddev_ms", stats.stddev_ms);
  put(json, "samples", stats.samples);
  put(json, "iterations_per_sample", stats.iterations_per_sample);
  put(json, "noise", stats.noise);
  put(json, "noise_target_met", stats.noise_target_met);
  if (!stats.samples_ms.empty()) {
    json["samples_ms"] = stats.samples_ms;
  }
  return json;
}

OrderedJson to_json(const RoundCell& round)
{
  OrderedJson json{{"round", round.round}, {"position", round.position}, {"status", to_string(round.status)}};
  put_text(json, "skip_reason", round.skip_reason);
  if (round.stats) {
    json["stats"] = to_json(*round.stats);
  }
  return json;
}

OrderedJson to_json(const RoundSpread& spread)
{
  return {{"rounds", spread.rounds},
          {"min_median_ms", spread.min_median_ms},
          {"max_median_ms", spread.max_median_ms},
          {"ci95_low_ms", spread.ci95_low_ms},
          {"ci95_high_ms", spread.ci95_high_ms}};
}

OrderedJson to_json(const Rounds& rounds)
{
  OrderedJson runs = OrderedJson::array();
  for (const auto& run : rounds.runs) {
    OrderedJson json{{"index", run.index}, {"status", run.status}};
    put_text(json, "reason", run.reason);
    put(json, "order_seed", run.order_seed);
    put_text(json, "started", run.started);
    put(json, "load_average_start", run.load_average_start);
    put(json, "load_average_end", run.load_average_end);
    put(json, "other_cores_busy", run.other_cores_busy);
    runs.push_back(json);
  }
  return {{"count", rounds.count},
          {"seed", rounds.seed},
          {"bootstrap_resamples", rounds.bootstrap_resamples},
          {"method", rounds.method},
          {"runs", runs}};
}

OrderedJson to_json(const VariantStats& stats)
{
  return {{"median_ms", stats.median_ms},
          {"p25_ms", stats.p25_ms},
          {"p75_ms", stats.p75_ms},
          {"samples", stats.samples},
          {"iterations_per_sample", stats.iterations_per_sample},
          {"noise", stats.noise}};
}

OrderedJson to_json(const CudaClocks& clocks)
{
  OrderedJson json;
  put(json, "sm_mean_mhz", clocks.sm_mean_mhz);
  put(json, "sm_default_mhz", clocks.sm_default_mhz);
  json["threshold"] = clocks.threshold;
  json["event_reasons"] = clocks.event_reasons;
  json["dropped_samples"] = clocks.dropped_samples;
  json["kept_below_threshold"] = clocks.kept_below_threshold;
  put_text(json, "unavailable_reason", clocks.unavailable_reason);
  return json;
}

OrderedJson to_json(const CudaCell& cuda)
{
  OrderedJson json;
  if (cuda.graph) {
    json["graph"] = to_json(*cuda.graph);
  }
  put_text(json, "graph_skip_reason", cuda.graph_skip_reason);
  put(json, "graph_forwards_per_replay", cuda.graph_forwards_per_replay);
  put(json, "graph_over_eager", cuda.graph_over_eager);
  if (cuda.cold) {
    json["cold"] = to_json(*cuda.cold);
  }
  put_text(json, "cold_skip_reason", cuda.cold_skip_reason);
  put(json, "l2_flush_bytes", cuda.l2_flush_bytes);
  put(json, "cold_over_hot", cuda.cold_over_hot);
  json["clocks"] = to_json(cuda.clocks);
  return json;
}

OrderedJson to_json(const Cell& cell)
{
  OrderedJson json{{"layer", cell.layer}, {"batch_size", cell.batch_size}};
  put_axes(json, cell.axes);
  json["status"] = to_string(cell.status);
  put_text(json, "skip_reason", cell.skip_reason);
  if (cell.stats) {
    json["stats"] = to_json(*cell.stats);
  }
  put(json, "first_call_ms", cell.first_call_ms);
  put(json, "host_wall_median_ms", cell.host_wall_median_ms);
  put(json, "peak_memory_bytes", cell.peak_memory_bytes);
  put(json, "throughput_samples_per_s", cell.throughput_samples_per_s);
  put(json, "achieved_flop_per_s", cell.achieved_flop_per_s);
  put(json, "cell_seconds", cell.cell_seconds);
  put(json, "page_faults_per_iteration", cell.page_faults_per_iteration);
  if (cell.canary) {
    json["canary"] = {{"matmul_ms", cell.canary->matmul_ms}, {"copy_ms", cell.canary->copy_ms}};
  }
  if (cell.cuda) {
    json["cuda"] = to_json(*cell.cuda);
  }
  if (!cell.operators.empty()) {
    auto& operators = json["operators"] = OrderedJson::array();
    for (const auto& op : cell.operators) {
      OrderedJson entry{{"name", op.name}, {"calls", op.calls}, {"self_cpu_fraction", op.self_cpu_fraction}};
      put(entry, "self_device_fraction", op.self_device_fraction);
      operators.push_back(entry);
    }
  }
  if (!cell.kernels.empty()) {
    auto& kernels = json["kernels"] = OrderedJson::array();
    for (const auto& kernel : cell.kernels) {
      kernels.push_back({{"name", kernel.name}, {"calls", kernel.calls}, {"device_fraction", kernel.device_fraction}});
    }
  }
  if (cell.train) {
    const auto& t = *cell.train;
    OrderedJson train{{"forward", to_json(t.forward)}};
    if (t.backward_input) {
      train["backward_input"] = to_json(*t.backward_input);
    }
    if (t.backward_weight) {
      train["backward_weight"] = to_json(*t.backward_weight);
    }
    train["sum_ms"] = t.sum_ms;
    json["train"] = train;
  }
  if (cell.runtime) {
    json["runtime"] = {{"python", cell.runtime->python}, {"torch", cell.runtime->torch}};
    put(json["runtime"], "compile_seconds", cell.runtime->compile_seconds);
  }
  if (cell.aoti) {
    json["aoti"] = {{"compile_seconds", cell.aoti->compile_seconds}, {"cached", cell.aoti->cached}};
  }
  if (cell.data_parallel) {
    const auto& d = *cell.data_parallel;
    json["data_parallel"] = {{"world_size", d.world_size},
                             {"backend", d.backend},
                             {"bucket_cap_bytes", d.bucket_cap_bytes},
                             {"bucket_bytes", d.bucket_bytes},
                             {"all_reduce_median_ms", d.all_reduce_median_ms},
                             {"all_reduce_p25_ms", d.all_reduce_p25_ms},
                             {"all_reduce_p75_ms", d.all_reduce_p75_ms}};
  }
  if (!cell.rounds.empty()) {
    json["rounds"] = OrderedJson::array();
    for (const auto& round : cell.rounds) {
      json["rounds"].push_back(to_json(round));
    }
  }
  if (cell.round_spread) {
    json["round_spread"] = to_json(*cell.round_spread);
  }
  return json;
}

OrderedJson to_json(const Provenance& provenance)
{
  OrderedJson json{{"tool", provenance.tool},
                   {"tool_version", provenance.tool_version},
                   {"git_commit", provenance.git_commit},
                   {"command_line", provenance.command_line}};
  put_text(json, "forced", provenance.forced);
  if (!provenance.parts.empty()) {
    json["parts"] = provenance.parts;
  }
  if (provenance.source) {
    const auto& s = *provenance.source;
    OrderedJson source{{"title", s.title}};
    put_text(source, "url", s.url);
    source["date"] = s.date;
    source["license"] = s.license;
    source["attribution"] = s.attribution;
    put_text(source, "device", s.device);
    put_text(source, "torch_version", s.torch_version);
    put_text(source, "software", s.software);
    if (!s.notes.empty()) {
      source["notes"] = s.notes;
    }
    json["source"] = source;
  }
  return json;
}

} // namespace

nlohmann::ordered_json layer_to_json(const Layer& layer) { return to_json(layer); }

OrderedJson to_json(const Dataset& dataset)
{
  OrderedJson json;
  json["schema_version"] = to_string(dataset.schema_version);
  json["kind"] = to_string(dataset.kind);
  json["id"] = dataset.id;
  json["version"] = dataset.version;
  json["replaces"] = dataset.replaces.empty() ? OrderedJson(nullptr) : OrderedJson(dataset.replaces);
  json["title"] = dataset.title;
  json["created"] = dataset.created;
  json["license"] = {{"id", dataset.license.id},
                     {"url", dataset.license.url},
                     {"attribution", dataset.license.attribution}};
  json["creators"] = OrderedJson::array();
  for (const auto& creator : dataset.creators) {
    OrderedJson entry{{"name", creator.name}};
    put_text(entry, "affiliation", creator.affiliation);
    json["creators"].push_back(entry);
  }
  json["provenance"] = to_json(dataset.provenance);
  json["units"] = units_json();
  if (dataset.environment) {
    json["environment"] = to_json(*dataset.environment);
  }
  if (dataset.methodology) {
    json["methodology"] = to_json(*dataset.methodology);
  }
  json["layers"] = OrderedJson::array();
  for (const auto& layer : dataset.layers) {
    json["layers"].push_back(to_json(layer));
  }
  json["results"] = OrderedJson::array();
  for (const auto& cell : dataset.results) {
    json["results"].push_back(to_json(cell));
  }
  if (dataset.rounds) {
    json["rounds"] = to_json(*dataset.rounds);
  }
  return json;
}

std::string serialize(const Dataset& dataset) { return to_json(dataset).dump(2) + "\n"; }

// ---------------------------------------------------------------------------------------------------
// Reading

namespace {

using detail::integer_list;
using detail::parse_enum;
using detail::parse_version;
using detail::Reader;
using detail::text_list;

PeakRate parse_peak(Reader reader, const char* name_key, const char* work_key, const char* rate_key)
{
  PeakRate peak;
  peak.name = reader.text(name_key);
  peak.operation = reader.text("operation");
  peak.work = reader.number(work_key);
  peak.median_ms = reader.number("median_ms");
  peak.best_ms = reader.optional<double>("best_ms", &Reader::number);
  peak.rate = reader.number(rate_key);
  peak.noise = reader.optional<double>("noise", &Reader::number);
  peak.samples = reader.optional<int>("samples", &Reader::small_integer);
  peak.noise_target_met = reader.optional<bool>("noise_target_met", &Reader::boolean);
  reader.done();
  return peak;
}

Peaks parse_peaks(Reader reader)
{
  Peaks peaks;
  peaks.method = reader.text("method");
  const auto& compute = reader.array("compute");
  for (size_t i = 0; i < compute.size(); ++i) {
    peaks.compute.push_back(parse_peak(Reader(compute[i], reader.at("compute") + "/" + std::to_string(i), reader.origin()),
                                       "precision", "flop", "flop_per_s"));
  }
  if (reader.has("memory")) {
    peaks.memory = parse_peak(reader.object("memory"), "kernel", "bytes", "bytes_per_s");
  } else {
    reader.allow_null("memory");
  }
  if (reader.has("caches")) {
    const auto& caches = reader.array("caches");
    for (size_t i = 0; i < caches.size(); ++i) {
      Reader item(caches[i], reader.at("caches") + "/" + std::to_string(i), reader.origin());
      CachePeak cache;
      cache.level = item.text("level");
      if (cache.level.size() != 2 || cache.level[0] != 'L' || cache.level[1] < '1' || cache.level[1] > '4') {
        item.fail(item.at("level"), "\"" + cache.level + "\" is not one of L1, L2, L3, L4");
      }
      cache.size_bytes = item.integer("size_bytes");
      if (cache.size_bytes < 1 || cache.size_bytes > (int64_t{1} << 50)) {
        item.fail(item.at("size_bytes"), "expected a size from 1 byte to 1 PiB, found " + std::to_string(cache.size_bytes));
      }
      cache.size_source = item.text("size_source");
      cache.triad = parse_peak(item, "kernel", "bytes", "bytes_per_s"); // reads the rest and refuses unknown fields
      peaks.caches.push_back(std::move(cache));
    }
  } else {
    reader.allow_null("caches");
  }
  reader.done();
  return peaks;
}

template<typename T, typename ParseOne>
std::vector<T> parse_list(Reader& reader, const std::string& key, ParseOne parse_one)
{
  std::vector<T> result;
  if (!reader.has(key)) {
    reader.allow_null(key);
    return result;
  }
  const auto& items = reader.array(key);
  for (size_t i = 0; i < items.size(); ++i) {
    Reader item(items[i], reader.at(key) + "/" + std::to_string(i), reader.origin());
    result.push_back(parse_one(item));
    item.done();
  }
  return result;
}

CpuIdentity parse_cpu_identity(Reader reader)
{
  CpuIdentity cpu;
  cpu.vendor = reader.text("vendor");
  cpu.family = reader.optional<int>("family", &Reader::small_integer);
  cpu.model = reader.optional<int>("model", &Reader::small_integer);
  cpu.stepping = reader.optional<int>("stepping", &Reader::small_integer);
  cpu.isa = text_list(reader, "isa");
  for (size_t i = 0; i < cpu.isa.size(); ++i) {
    if (cpu.isa[i].empty()) {
      reader.fail(reader.at("isa") + "/" + std::to_string(i), "expected a flag name, found an empty string");
    }
  }
  cpu.aten_capability = reader.optional_text("aten_capability");
  reader.done();
  return cpu;
}

Environment parse_environment(Reader reader)
{
  Environment environment;
  {
    auto device = reader.object("device");
    environment.device.type = device.text("type");
    environment.device.name = device.text("name");
    environment.device.compute_capability = device.text("compute_capability");
    environment.device.memory_bytes = device.optional<int64_t>("memory_bytes", &Reader::integer);
    environment.device.driver = device.text("driver");
    environment.device.cuda_runtime = device.text("cuda_runtime");
    environment.device.cudnn = device.text("cudnn");
    environment.device.kernel_driver = device.optional<std::string>("kernel_driver", &Reader::text);
    device.done();
  }
  environment.torch_version = reader.text("torch_version");
  environment.torch_git_hash = reader.text("torch_git_hash");
  environment.compiler = reader.text("compiler");
  environment.cpu_model = reader.text("cpu_model");
  if (reader.has("cpu")) {
    environment.cpu = parse_cpu_identity(reader.object("cpu"));
  } else {
    reader.allow_null("cpu");
  }
  environment.logical_cores = reader.small_integer("logical_cores");
  environment.threads = reader.small_integer("threads");
  environment.blas = reader.text("blas");
  environment.os = reader.text("os");
  environment.matmul_allow_tf32 = reader.boolean("matmul_allow_tf32");
  environment.cudnn_allow_tf32 = reader.boolean("cudnn_allow_tf32");
  environment.cudnn_benchmark = reader.boolean("cudnn_benchmark");
  if (reader.has("glibc_tunables")) {
    environment.glibc_tunables = reader.text("glibc_tunables");
  } else {
    reader.allow_null("glibc_tunables");
  }
  environment.load_average_start = reader.optional<double>("load_average_start", &Reader::number);
  environment.load_average_end = reader.optional<double>("load_average_end", &Reader::number);
  environment.other_cores_busy = reader.optional<double>("other_cores_busy", &Reader::number);
  environment.last_level_cache_bytes = reader.optional<int64_t>("last_level_cache_bytes", &Reader::integer);
  if (reader.has("peaks")) {
    environment.peaks = parse_peaks(reader.object("peaks"));
  } else {
    reader.allow_null("peaks");
  }
  reader.done();
  return environment;
}

// A cell's corner; every axis it leaves out is at its reference value.
Axes parse_axes(Reader& reader)
{
  Axes result;
  if (!reader.has("axes")) {
    reader.allow_null("axes");
    return result;
  }
  auto axes = reader.object("axes");
  for (const auto& info : axis_table()) {
    if (!axes.has(info.name)) {
      axes.allow_null(info.name);
      continue;
    }
    const auto value = axes.text(info.name);
    try {
      set_axis(result, info.name, value);
    } catch (const Error& error) {
      axes.fail(axes.at(info.name), error.what());
    }
  }
  axes.done();
  return result;
}

std::vector<CellKey> parse_cell_keys(Reader& reader, const char* name)
{
  return parse_list<CellKey>(reader, name, [](Reader& item) {
    CellKey key{item.text("layer"), item.small_integer("batch_size"), {}};
    key.axes = parse_axes(item);
    return key;
  });
}

Methodology parse_methodology(Reader reader)
{
  Methodology m;
  m.timer = reader.text("timer");
  m.dtype = reader.text("dtype");
  m.inference_mode = reader.boolean("inference_mode");
  m.layers = text_list(reader, "layers");
  m.batch_sizes = integer_list(reader, "batch_sizes");
  m.warmup_seconds = reader.number("warmup_seconds");
  m.warmup_min_iterations = reader.small_integer("warmup_min_iterations");
  m.block_target_seconds = reader.number("block_target_seconds");
  m.noise_metric = reader.text("noise_metric");
  m.noise_target = reader.number("noise_target");
  m.min_samples = reader.small_integer("min_samples");
  m.max_samples = reader.small_integer("max_samples");
  m.cell_budget_seconds = reader.number("cell_budget_seconds");
  m.flop_convention = reader.text("flop_convention");
  m.memory_method = reader.text("memory_method");
  m.speed_class_rule = reader.text("speed_class_rule");
  m.shard = reader.optional_text("shard");
  m.shard_plan = reader.optional_text("shard_plan");
  m.shard_cells = parse_cell_keys(reader, "shard_cells");
  m.cells = parse_cell_keys(reader, "cells");
  m.cpu_memory_policy = reader.optional_text("cpu_memory_policy");
  m.cpu_memory_policy_text = reader.optional_text("cpu_memory_policy_text");
  m.precision = reader.optional_text("precision");
  m.dispatch = reader.optional_text("dispatch");
  m.canary = reader.optional_text("canary");
  m.cuda_method = reader.optional_text("cuda_method");
  if (reader.has("axes")) {
    auto axes = reader.object("axes");
    for (const auto& info : axis_table()) {
      if (axes.has(info.name)) {
        const auto values = text_list(axes, info.name);
        try {
          set_grid_values(m.axes, info.name, values);
        } catch (const Error& error) {
          axes.fail(axes.at(info.name), error.what());
        }
      } else {
        axes.allow_null(info.name);
      }
    }
    axes.done();
  } else {
    reader.allow_null("axes");
  }
  m.axes_text = reader.optional_text("axes_text");
  reader.done();
  return m;
}

Layer parse_layer(Reader reader)
{
  Layer layer;
  layer.name = reader.text("name");
  layer.module = reader.text("module");
  layer.config = reader.text("config");
  layer.input_shape = reader.text("input_shape");
  layer.mode = parse_enum<LayerMode>(reader, "mode", {{"eval", LayerMode::eval}, {"train", LayerMode::train}});
  layer.params = reader.optional<int64_t>("params", &Reader::integer);
  layer.params_formula = reader.optional_text("params_formula");
  layer.params_counted = reader.optional<int64_t>("params_counted", &Reader::integer);
  layer.flops_per_sample = reader.optional<double>("flops_per_sample", &Reader::number);
  layer.flops_formula = reader.optional_text("flops_formula");
  layer.matmul_flops_per_sample = reader.optional<double>("matmul_flops_per_sample", &Reader::number);
  layer.speed_class = reader.optional_text("speed_class");
  layer.dispatch = reader.optional_text("dispatch");
  layer.bytes_fixed = reader.optional<double>("bytes_fixed", &Reader::number);
  layer.bytes_per_sample = reader.optional<double>("bytes_per_sample", &Reader::number);
  layer.bytes_formula = reader.optional_text("bytes_formula");
  if (reader.has("kind")) {
    layer.kind = parse_enum<LayerKind>(reader, "kind", {{"layer", LayerKind::layer},
                                                        {"model", LayerKind::model},
                                                        {"model_layer", LayerKind::model_layer}});
  } else {
    reader.allow_null("kind");
  }
  layer.contains = parse_list<LayerUse>(reader, "contains", [](Reader& item) {
    LayerUse use;
    use.layer = item.text("layer");
    use.config = item.text("config");
    use.count = static_cast<int>(item.integer("count"));
    use.matmul_flops_per_sample = item.number("matmul_flops_per_sample");
    use.elementwise_flops_per_sample = item.number("elementwise_flops_per_sample");
    return use;
  });
  layer.train_step = reader.optional_text("train_step");
  if (reader.has("part_of")) {
    auto part = reader.object("part_of");
    layer.part_of = ModelPart{part.text("model"), part.small_integer("use"), part.small_integer("count")};
    part.done();
  } else {
    reader.allow_null("part_of");
  }
  if (reader.has("shape")) {
    auto shape = reader.object("shape");
    LayerParameters parameters{shape.text("layer"), {}};
    const auto& values = shape.field("parameters");
    if (!values.is_object()) {
      shape.fail(shape.at("parameters"), "expected an object, found " + std::string(values.type_name()));
    }
    for (const auto& item : values.items()) {
      if (!item.value().is_number() || !std::isfinite(item.value().get<double>())) {
        shape.fail(shape.at("parameters") + "/" + item.key(), "expected a finite number");
      }
      parameters.values.emplace_back(item.key(), item.value().get<double>());
    }
    shape.done();
    layer.shape = std::move(parameters);
  } else {
    reader.allow_null("shape");
  }
  reader.done();
  return layer;
}

// The numbers of the array `key`, each finite; an absent or null key is an empty list.
std::vector<double> number_list(Reader& reader, const std::string& key)
{
  std::vector<double> result;
  if (!reader.has(key)) {
    reader.allow_null(key);
    return result;
  }
  const auto& items = reader.array(key);
  for (size_t i = 0; i < items.size(); ++i) {
    if (!items[i].is_number() || !std::isfinite(items[i].get<double>())) {
      reader.fail(reader.at(key) + "/" + std::to_string(i), "expected a finite number");
    }
    result.push_back(items[i].get<double>());
  }
  return result;
}

Stats parse_stats(Reader reader)
{
  Stats stats;
  stats.median_ms = reader.number("median_ms");
  stats.p25_ms = reader.optional<double>("p25_ms", &Reader::number);
  stats.p75_ms = reader.optional<double>("p75_ms", &Reader::number);
  stats.min_ms = reader.optional<double>("min_ms", &Reader::number);
  stats.mean_ms = reader.optional<double>("mean_ms", &Reader::number);
  stats.stddev_ms = reader.optional<double>("stddev_ms", &Reader::number);
  stats.samples = reader.optional<int>("samples", &Reader::small_integer);
  stats.iterations_per_sample = reader.optional<int64_t>("iterations_per_sample", &Reader::integer);
  stats.noise = reader.optional<double>("noise", &Reader::number);
  stats.noise_target_met = reader.optional<bool>("noise_target_met", &Reader::boolean);
  stats.samples_ms = number_list(reader, "samples_ms");
  reader.done();
  return stats;
}

std::optional<Stats> optional_stats(Reader& reader, const std::string& key)
{
  if (!reader.has(key)) {
    reader.allow_null(key);
    return std::nullopt;
  }
  return parse_stats(reader.object(key));
}

// Every element of the array `key` read by `parse_one`; an absent or null key is an empty list.
std::vector<Operator> parse_operators(Reader& reader)
{
  return parse_list<Operator>(reader, "operators", [](Reader& item) {
    Operator op;
    op.name = item.text("name");
    op.calls = item.integer("calls");
    op.self_cpu_fraction = item.number("self_cpu_fraction");
    op.self_device_fraction = item.optional<double>("self_device_fraction", &Reader::number);
    return op;
  });
}

std::vector<Kernel> parse_kernels(Reader& reader)
{
  return parse_list<Kernel>(reader, "kernels", [](Reader& item) {
    Kernel kernel;
    kernel.name = item.text("name");
    kernel.calls = item.integer("calls");
    kernel.device_fraction = item.number("device_fraction");
    return kernel;
  });
}

VariantStats parse_variant(Reader reader)
{
  VariantStats stats;
  stats.median_ms = reader.number("median_ms");
  stats.p25_ms = reader.number("p25_ms");
  stats.p75_ms = reader.number("p75_ms");
  stats.samples = reader.small_integer("samples");
  stats.iterations_per_sample = reader.integer("iterations_per_sample");
  stats.noise = reader.number("noise");
  reader.done();
  return stats;
}

CudaClocks parse_clocks(Reader reader)
{
  CudaClocks clocks;
  clocks.sm_mean_mhz = reader.optional<double>("sm_mean_mhz", &Reader::number);
  clocks.sm_default_mhz = reader.optional<int>("sm_default_mhz", &Reader::small_integer);
  clocks.threshold = reader.number("threshold");
  clocks.event_reasons = text_list(reader, "event_reasons");
  clocks.dropped_samples = reader.small_integer("dropped_samples");
  clocks.kept_below_threshold = reader.small_integer("kept_below_threshold");
  clocks.unavailable_reason = reader.optional_text("unavailable_reason");
  reader.done();
  return clocks;
}

// An optional object `key` read by `parse_one`; absent or null is nullopt.
template<typename T, typename ParseOne>
std::optional<T> optional_object(Reader& reader, const std::string& key, ParseOne parse_one)
{
  if (!reader.has(key)) {
    reader.allow_null(key);
    return std::nullopt;
  }
  return parse_one(reader.object(key));
}

CudaCell parse_cuda(Reader reader)
{
  CudaCell cuda;
  cuda.graph = optional_object<VariantStats>(reader, "graph", parse_variant);
  cuda.graph_skip_reason = reader.optional_text("graph_skip_reason");
  cuda.graph_forwards_per_replay = reader.optional<int>("graph_forwards_per_replay", &Reader::small_integer);
  cuda.graph_over_eager = reader.optional<double>("graph_over_eager", &Reader::number);
  cuda.cold = optional_object<VariantStats>(reader, "cold", parse_variant);
  cuda.cold_skip_reason = reader.optional_text("cold_skip_reason");
  cuda.l2_flush_bytes = reader.optional<int64_t>("l2_flush_bytes", &Reader::integer);
  cuda.cold_over_hot = reader.optional<double>("cold_over_hot", &Reader::number);
  cuda.clocks = parse_clocks(reader.object("clocks"));
  reader.done();
  return cuda;
}

Cell parse_cell(Reader reader)
{
  Cell cell;
  cell.layer = reader.text("layer");
  cell.batch_size = reader.small_integer("batch_size");
  cell.axes = parse_axes(reader);
  cell.status = parse_enum<CellStatus>(reader, "status", {{"ok", CellStatus::ok}, {"skipped", CellStatus::skipped}});
  cell.skip_reason = reader.optional_text("skip_reason");
  cell.stats = optional_stats(reader, "stats");
  cell.first_call_ms = reader.optional<double>("first_call_ms", &Reader::number);
  cell.host_wall_median_ms = reader.optional<double>("host_wall_median_ms", &Reader::number);
  cell.peak_memory_bytes = reader.optional<int64_t>("peak_memory_bytes", &Reader::integer);
  cell.throughput_samples_per_s = reader.optional<double>("throughput_samples_per_s", &Reader::number);
  cell.achieved_flop_per_s = reader.optional<double>("achieved_flop_per_s", &Reader::number);
  cell.cell_seconds = reader.optional<double>("cell_seconds", &Reader::number);
  cell.page_faults_per_iteration = reader.optional<double>("page_faults_per_iteration", &Reader::number);
  if (reader.has("canary")) {
    auto canary = reader.object("canary");
    cell.canary = CanaryTime{canary.number("matmul_ms"), canary.number("copy_ms")};
    canary.done();
  } else {
    reader.allow_null("canary");
  }
  cell.cuda = optional_object<CudaCell>(reader, "cuda", parse_cuda);
  cell.operators = parse_operators(reader);
  cell.kernels = parse_kernels(reader);
  if (reader.has("train")) {
    auto train = reader.object("train");
    TrainTimes t;
    t.forward = parse_stats(train.object("forward"));
    t.backward_input = optional_stats(train, "backward_input");
    t.backward_weight = optional_stats(train, "backward_weight");
    t.sum_ms = train.number("sum_ms");
    train.done();
    cell.train = t;
  } else {
    reader.allow_null("train");
  }
  cell.aoti = optional_object<AotiRecord>(reader, "aoti", [](Reader aoti) {
    AotiRecord record{aoti.number("compile_seconds"), aoti.boolean("cached")};
    aoti.done();
    return record;
  });
  cell.runtime = optional_object<WorkerRuntime>(reader, "runtime", [](Reader runtime) {
    WorkerRuntime record;
    record.python = runtime.text("python");
    record.torch = runtime.text("torch");
    record.compile_seconds = runtime.optional<double>("compile_seconds", &Reader::number);
    runtime.done();
    return record;
  });
  cell.data_parallel = optional_object<DataParallel>(reader, "data_parallel", [](Reader ranks) {
    DataParallel record;
    record.world_size = ranks.small_integer("world_size");
    record.backend = ranks.text("backend");
    record.bucket_cap_bytes = ranks.integer("bucket_cap_bytes");
    record.bucket_bytes = integer_list<int64_t>(ranks, "bucket_bytes");
    record.all_reduce_median_ms = ranks.number("all_reduce_median_ms");
    record.all_reduce_p25_ms = ranks.number("all_reduce_p25_ms");
    record.all_reduce_p75_ms = ranks.number("all_reduce_p75_ms");
    ranks.done();
    return record;
  });
  cell.rounds = parse_list<RoundCell>(reader, "rounds", [](Reader& round) {
    RoundCell r;
    r.round = round.small_integer("round");
    r.position = round.small_integer("position");
    r.status = parse_enum<CellStatus>(round, "status", {{"ok", CellStatus::ok}, {"skipped", CellStatus::skipped}});
    r.skip_reason = round.optional_text("skip_reason");
    r.stats = optional_stats(round, "stats");
    return r;
  });
  cell.round_spread = optional_object<RoundSpread>(reader, "round_spread", [](Reader spread) {
    RoundSpread s;
    s.rounds = spread.small_integer("rounds");
    s.min_median_ms = spread.number("min_median_ms");
    s.max_median_ms = spread.number("max_median_ms");
    s.ci95_low_ms = spread.number("ci95_low_ms");
    s.ci95_high_ms = spread.number("ci95_high_ms");
    spread.done();
    return s;
  });
  reader.done();
  return cell;
}

// A seed as written: a whole number from 0 to 2^32 - 1.
uint32_t parse_seed(Reader& reader, const std::string& key)
{
  const auto value = reader.integer(key);
  if (value < 0 || value > static_cast<int64_t>(UINT32_MAX)) {
    reader.fail(reader.at(key), "a seed is a whole number from 0 to 4294967295");
  }
  return static_cast<uint32_t>(value);
}

Rounds parse_rounds(Reader reader)
{
  Rounds rounds;
  rounds.count = reader.small_integer("count");
  rounds.seed = parse_seed(reader, "seed");
  rounds.bootstrap_resamples = reader.small_integer("bootstrap_resamples");
  rounds.method = reader.text("method");
  rounds.runs = parse_list<Round>(reader, "runs", [](Reader& run) {
    Round r;
    r.index = run.small_integer("index");
    r.status = run.text("status");
    r.reason = run.optional_text("reason");
    if (run.has("order_seed")) {
      r.order_seed = parse_seed(run, "order_seed");
    } else {
      run.allow_null("order_seed");
    }
    r.started = run.optional_text("started");
    r.load_average_start = run.optional<double>("load_average_start", &Reader::number);
    r.load_average_end = run.optional<double>("load_average_end", &Reader::number);
    r.other_cores_busy = run.optional<double>("other_cores_busy", &Reader::number);
    return r;
  });
  reader.done();
  return rounds;
}

Provenance parse_provenance(Reader reader)
{
  Provenance provenance;
  provenance.tool = reader.text("tool");
  provenance.tool_version = reader.text("tool_version");
  provenance.git_commit = reader.text("git_commit");
  provenance.command_line = reader.text("command_line");
  provenance.forced = reader.optional_text("forced");
  if (reader.has("parts")) {
    provenance.parts = text_list(reader, "parts");
  } else {
    reader.allow_null("parts");
  }
  if (reader.has("source")) {
    auto source = reader.object("source");
    Source s;
    s.title = source.text("title");
    s.url = source.optional_text("url");
    s.date = source.text("date");
    s.license = source.text("license");
    s.attribution = source.text("attribution");
    s.device = source.optional_text("device");
    s.torch_version = source.optional_text("torch_version");
    s.software = source.optional_text("software");
    if (source.has("notes")) {
      s.notes = text_list(source, "notes");
    } else {
      source.allow_null("notes");
    }
    source.done();
    provenance.source = s;
  } else {
    reader.allow_null("source");
  }
  reader.done();
  return provenance;
}

void check_units(Reader reader)
{
  const auto expected = units_json();
  for (const auto& item : expected.items()) {
    const auto value = reader.text(item.key());
    if (value != item.value().get<std::string>()) {
      reader.fail(reader.at(item.key()),
                  "unit \"" + value + "\" is not supported; expected \"" + item.value().get<std::string>() + "\"");
    }
  }
  reader.done();
}

} // namespace

Cell cell_from_json(const Json& json, const std::string& origin)
{
  if (!json.is_object()) {
    throw Error(origin + ": not a dataset cell (expected a JSON object)");
  }
  return parse_cell(Reader(json, "", origin));
}

Dataset from_json(const Json& json, const std::string& origin)
{
  if (!json.is_object() || !json.contains("schema_version")) {
    throw Error(origin + ": not a layerbench dataset (no \"schema_version\" at the top level)");
  }
  Reader reader(json, "", origin);
  Dataset dataset;
  dataset.schema_version = parse_version(reader, k_oldest_schema_version, k_schema_version);
  dataset.kind = parse_enum<Kind>(reader, "kind", {{"measured", Kind::measured}, {"published-reference", Kind::published_reference}});
  dataset.id = reader.text("id");
  dataset.version = reader.small_integer("version");
  dataset.replaces = reader.optional_text("replaces");
  dataset.title = reader.text("title");
  dataset.created = reader.text("created");
  {
    auto license = reader.object("license");
    dataset.license.id = license.text("id");
    dataset.license.url = license.text("url");
    dataset.license.attribution = license.text("attribution");
    license.done();
  }
  const auto& creators = reader.array("creators");
  for (size_t i = 0; i < creators.size(); ++i) {
    Reader creator(creators[i], reader.at("creators") + "/" + std::to_string(i), origin);
    Creator entry;
    entry.name = creator.text("name");
    entry.affiliation = creator.optional_text("affiliation");
    creator.done();
    dataset.creators.push_back(entry);
  }
  dataset.provenance = parse_provenance(reader.object("provenance"));
  check_units(reader.object("units"));
  if (reader.has("environment")) {
    dataset.environment = parse_environment(reader.object("environment"));
  } else {
    reader.allow_null("environment");
  }
  if (reader.has("methodology")) {
    dataset.methodology = parse_methodology(reader.object("methodology"));
  } else {
    reader.allow_null("methodology");
  }
  const auto& layers = reader.array("layers");
  for (size_t i = 0; i < layers.size(); ++i) {
    dataset.layers.push_back(parse_layer(Reader(layers[i], reader.at("layers") + "/" + std::to_string(i), origin)));
  }
  const auto& results = reader.array("results");
  for (size_t i = 0; i < results.size(); ++i) {
    dataset.results.push_back(parse_cell(Reader(results[i], reader.at("results") + "/" + std::to_string(i), origin)));
  }
  if (reader.has("rounds")) {
    dataset.rounds = parse_rounds(reader.object("rounds"));
  } else {
    reader.allow_null("rounds");
  }
  reader.done();
  return dataset;
}

Dataset parse_unchecked(const std::string& text, const std::string& origin)
{
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw Error(origin + ": empty file, not a dataset");
  }
  return from_json(parse_json(text, origin), origin);
}

Dataset parse(const std::string& text, const std::string& origin, Completeness completeness)
{
  auto dataset = parse_unchecked(text, origin);
  const auto problems = check(dataset, completeness);
  if (problems.empty()) {
    return dataset;
  }
  const auto& first = problems.front();
  const auto more = problems.size() - 1;
  throw Error(origin + ": " + (first.pointer.empty() ? "/" : first.pointer) + ": " + first.message
              + (more == 0 ? ""
                           : " (and " + std::to_string(more) + (more == 1 ? " more problem" : " more problems")
                                 + ": layerbench validate lists them all)"));
}

Dataset load(const std::filesystem::path& path, Completeness completeness)
{
  auto text = util::read_file(path);
  if (!text) {
    throw Error(path.string() + ": " + text.error());
  }
  return parse(*text, path.string(), completeness);
}

void save(const std::filesystem::path& path, const Dataset& dataset, util::Overwrite overwrite)
{
  const auto written = util::write_file_atomic(path, serialize(dataset), overwrite);
  if (!written) {
    throw Error(path.string() + ": " + written.error());
  }
}

} // namespace layerbench::dataset
