// SPDX-License-Identifier: MIT
#include "site/view_common.hpp"

#include "dataset/precision.hpp"

#include "dataset/batch_sizes.hpp"
#include "dataset/physics.hpp"
#include "site/figure_flag.hpp"
#include "site/setting_words.hpp"
#include "site/view_model.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

namespace layerbench::site {

using dataset::Dataset;

Data object() { return Data(Data::type::object); }
Data list() { return Data(Data::type::list); }

Data link(const std::string& href, const std::string& label)
{
  Data data = object();
  data.set("href", href);
  data.set("label", label);
  return data;
}

Data labelled(const std::string& label, const std::string& value)
{
  Data data = object();
  data.set("label", label);
  data.set("value", value.empty() ? std::string(k_missing) : value);
  data.set("code", Data(false)); // set here, so that no enclosing "code" answers for it
  return data;
}

// A layer at parameters from the user, "Linear(in=4096,seq=2048)", gets a file name without the
// characters a URL would escape: "Linear_in-4096_seq-2048". The catalog's names are kept as they are.
std::string layer_path(const std::string& layer)
{
  std::string file;
  for (const char c : layer) {
    switch (c) {
    case '(':
    case ',':
      file += '_';
      break;
    case ')':
      break;
    case '=':
      file += '-';
      break;
    case '.':
      file += 'p';
      break;
    default:
      file += c;
    }
  }
  return "layers/" + file + ".html";
}

std::optional<double> median_ms(const Dataset& data, const std::string& layer, int batch)
{
  const dataset::Cell* cell = dataset::find_cell(data, layer, batch);
  // A non-positive time cannot be plotted on a log axis or divided by; validate reports it.
  if (!cell || cell->status != dataset::CellStatus::ok || !cell->stats || !(cell->stats->median_ms > 0)) {
    return std::nullopt;
  }
  return cell->stats->median_ms;
}

std::string trimmed_significant(double value, int digits)
{
  std::string text = util::format_significant(value, digits);
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') {
      text.pop_back();
    }
  }
  return text;
}

// Three significant digits at most, and no trailing zeros: the reference prints "0.024", and a
// "0.0240" would claim a digit that the page never gave.
// From a thousand up, whole milliseconds with separators: "3,246", as people read them.
std::string ms_text(std::optional<double> ms)
{
  if (!ms) {
    return k_missing;
  }
  if (*ms >= 1000) {
    return util::format_thousands(static_cast<int64_t>(std::llround(*ms)));
  }
  return trimmed_significant(*ms, 3);
}

bool is_reference(const SiteDataset& entry) { return entry.data.kind == dataset::Kind::published_reference; }

bool is_timed(const dataset::Cell* cell)
{
  return cell && cell->status == dataset::CellStatus::ok && cell->stats && cell->stats->median_ms > 0;
}

std::string figures_text(double ms, int figures)
{
  const double rounded = dataset::round_to_figures(ms, figures);
  if (rounded >= 1000) {
    return util::format_thousands(static_cast<int64_t>(std::llround(rounded)));
  }
  return trimmed_significant(rounded, figures);
}

namespace {

const dataset::Cell* timed_reference_cell(const Dataset& data, const std::string& layer, int batch)
{
  const auto* cell = dataset::find_cell(data, layer, batch);
  return is_timed(cell) ? cell : nullptr;
}

} // namespace

// diff's change of the reference corner's cell (layer, batch), or nullptr.
const dataset::CellChange* find_change(const dataset::DiffResult& result, const std::string& layer, int batch)
{
  for (const auto& cell : result.cells) {
    if (cell.layer == layer && cell.batch_size == batch && cell.axes.is_reference()) {
      return &cell;
    }
  }
  return nullptr;
}

// The ratio at the figures both medians support, with the range their intervals allow where both
// were measured in rounds (what diff prints).
std::string change_ratio_text(const dataset::CellChange& cell)
{
  const auto text = [&cell](double value) { return trimmed_significant(value, cell.figures); };
  std::string ratio = text(*cell.ratio) + "×";
  if (cell.rounds && cell.ratio_low && cell.ratio_high) {
    ratio += " (" + text(*cell.ratio_low) + "–" + text(*cell.ratio_high) + "×)";
  }
  return ratio;
}

std::string cell_median_text(const Dataset& data, const dataset::Cell* cell)
{
  if (!cell) {
    return k_missing;
  }
  if (cell->status == dataset::CellStatus::skipped) {
    return "skipped";
  }
  if (!cell->stats) {
    return k_missing;
  }
  return figures_text(cell->stats->median_ms, dataset::supported_figures(data, *cell));
}

std::string median_text(const Dataset& data, const std::string& layer, int batch)
{
  const auto* cell = timed_reference_cell(data, layer, batch);
  return cell ? cell_median_text(data, cell) : std::string(k_missing);
}

std::string cell_throughput_text(const Dataset& data, const dataset::Cell* cell)
{
  if (!is_timed(cell)) {
    return k_missing;
  }
  // A published reference records the median its page's throughput implies, not the throughput.
  const double per_second = cell->throughput_samples_per_s.value_or(cell->batch_size * 1000.0 / cell->stats->median_ms);
  return figures_text(per_second, dataset::supported_figures(data, *cell));
}

std::string cell_spread_text(const Dataset& data, const dataset::Cell* cell)
{
  if (!cell || !cell->stats || data.kind != dataset::Kind::measured) {
    return "";
  }
  if (!cell->round_spread) {
    return "one round: the spread between processes was not measured";
  }
  const auto& spread = *cell->round_spread;
  const int figures = dataset::supported_figures(data, *cell);
  return "95% interval " + figures_text(spread.ci95_low_ms, figures) + "–" + figures_text(spread.ci95_high_ms, figures)
         + " ms over " + util::format_count(spread.rounds, "round") + " (round medians "
         + figures_text(spread.min_median_ms, figures) + " to " + figures_text(spread.max_median_ms, figures) + " ms)";
}

std::string ratio_text(const Dataset& data, const std::string& a_layer, int a_batch, const std::string& b_layer, int b_batch)
{
  return ratio_text(data, timed_reference_cell(data, a_layer, a_batch), timed_reference_cell(data, b_layer, b_batch));
}

std::string ratio_text(const Dataset& data, const dataset::Cell* a, const dataset::Cell* b)
{
  return ratio_text(data, a, data, b);
}

std::string ratio_text(const Dataset& a_data, const dataset::Cell* a, const Dataset& b_data, const dataset::Cell* b)
{
  if (!is_timed(a) || !is_timed(b)) {
    return k_missing;
  }
  const int figures = std::min(dataset::supported_figures(a_data, *a), dataset::supported_figures(b_data, *b));
  const double ratio = a->stats->median_ms / b->stats->median_ms;
  const auto as_ratio = [figures](double value) { return figures_text(value, figures); };
  std::string text = as_ratio(ratio) + "×";
  if (a->round_spread && b->round_spread) {
    text += " (" + as_ratio(a->round_spread->ci95_low_ms / b->round_spread->ci95_high_ms) + "–"
            + as_ratio(a->round_spread->ci95_high_ms / b->round_spread->ci95_low_ms) + "×)";
  }
  return text;
}

std::string cell_quartile_text(const dataset::Cell* cell)
{
  if (!cell) {
    return "not in this dataset";
  }
  if (cell->status == dataset::CellStatus::skipped) {
    return "skipped: " + reader_prose(cell->skip_reason);
  }
  if (!cell->stats || !cell->stats->p25_ms || !cell->stats->p75_ms) {
    return "median only; this dataset gives no quartiles";
  }
  std::string text = "p25 " + ms_text(cell->stats->p25_ms) + " ms, p75 " + ms_text(cell->stats->p75_ms) + " ms";
  if (cell->stats->samples) {
    text += ", " + util::format_thousands(*cell->stats->samples) + " samples";
  }
  return text;
}

std::string percent_text(double fraction) { return trimmed_significant(fraction * 100.0, 3) + "%"; }

namespace {

std::string calls_text(int64_t calls) { return util::format_thousands(calls) + (calls == 1 ? " call" : " calls"); }

} // namespace

Data operator_items(const dataset::Cell& cell)
{
  Data items = list();
  for (const auto& op : cell.operators) {
    std::string share = percent_text(op.self_cpu_fraction) + " of host time";
    if (op.self_device_fraction) {
      share += ", " + percent_text(*op.self_device_fraction) + " of device time";
    }
    items.push_back(labelled(op.name, calls_text(op.calls) + ", " + share));
  }
  for (const auto& kernel : cell.kernels) {
    items.push_back(labelled("kernel " + kernel.name, calls_text(kernel.calls) + ", " + percent_text(kernel.device_fraction) + " of device time"));
  }
  return items;
}

namespace {

std::string target_text(const Dataset& data)
{
  return data.methodology ? "the " + percent_text(data.methodology->noise_target) + " noise target" : "the noise target";
}

bool missed_target(const dataset::Cell* cell)
{
  return cell && cell->status == dataset::CellStatus::ok && cell->stats && cell->stats->noise_target_met
         && !*cell->stats->noise_target_met;
}

// The first call (allocation, lazy initialisation, algorithm choice) and, on a GPU, the host's clock
// around the same blocks: recorded beside the median, shown with it. On the CPU the host's clock is
// the timer itself, so it says nothing the median does not (and a run in rounds keeps the first
// round's, beside the median of all rounds).
std::string clock_text(const Dataset& data, const dataset::Cell* cell)
{
  if (!cell || cell->status != dataset::CellStatus::ok) {
    return "";
  }
  std::string text;
  if (cell->first_call_ms) {
    text += "; first call " + ms_text(*cell->first_call_ms) + " ms";
  }
  if (on_cuda(data) && cell->host_wall_median_ms) {
    text += "; host clock " + ms_text(*cell->host_wall_median_ms) + " ms per batch against the device's "
            + ms_text(cell->stats ? std::optional<double>(cell->stats->median_ms) : std::nullopt) + " ms";
  }
  return text;
}

} // namespace

std::string noise_miss_reason(const Dataset& data, const dataset::Cell* cell)
{
  if (!missed_target(cell)) {
    return "";
  }
  const dataset::Stats& stats = *cell->stats;
  const std::string spread = stats.noise ? "spread " + percent_text(*stats.noise) + " of the median" : "";
  const int samples = stats.samples.value_or(0);
  if (data.methodology && stats.samples && samples < data.methodology->min_samples) {
    return "missed " + target_text(data) + ": too few samples, " + util::format_thousands(samples) + " of the "
           + util::format_thousands(data.methodology->min_samples) + " asked for before the cell's time budget ran out"
           + (spread.empty() ? "" : "; " + spread);
  }
  const std::string after = stats.samples ? " after " + util::format_thousands(samples) + (samples == 1 ? " sample" : " samples") : "";
  return "missed " + target_text(data) + ": noise above the target, " + (spread.empty() ? "spread unknown" : spread) + after
         + " (the sample cap or the time budget came first)";
}

Data time_cell(const Dataset& data, const dataset::Cell* cell)
{
  Data view = object();
  view.set("text", cell_median_text(data, cell));
  const std::string reason = noise_miss_reason(data, cell);
  const std::string spread = cell_spread_text(data, cell);
  view.set("detail", cell_quartile_text(cell) + (spread.empty() ? "" : "; " + spread) + clock_text(data, cell)
                       + (reason.empty() ? "" : "; " + reason));
  view.set("sort", cell && cell->stats ? util::format_significant(cell->stats->median_ms, 6) : std::string(""));
  // A reference's inconsistent time gets its mark from flagged_time_cell (site/figure_flag.hpp).
  view.set("flag", Data(false));
  view.set("at_reference", Data(false)); // a table that repeats that batch's column first on a phone sets it
  if (reason.empty()) {
    view.set("missed", Data(false));
    return view;
  }
  Data missed = object();
  missed.set("reason", reason);
  view.set("missed", missed);
  return view;
}

Data noise_miss_note(const Dataset& data, const std::string& layer)
{
  int judged = 0;
  int missed = 0;
  for (const auto& cell : data.results) {
    const bool counted = layer.empty() || cell.layer == layer;
    if (counted && cell.status == dataset::CellStatus::ok && cell.stats && cell.stats->noise_target_met) {
      ++judged;
      missed += missed_target(&cell) ? 1 : 0;
    }
  }
  if (missed == 0) {
    return Data(false);
  }
  Data note = object();
  note.set("text", util::format_thousands(missed) + " of " + util::format_thousands(judged) + " cells missed "
                     + target_text(data) + " (marked *; hover the mark for the reason)");
  return note;
}

std::string ratio_text(double ratio)
{
  if (ratio >= 1000) {
    return util::format_thousands(static_cast<int64_t>(std::llround(ratio))) + "×";
  }
  return trimmed_significant(ratio, 3) + "×";
}

std::vector<int> batch_sizes(const Dataset& data)
{
  if (data.methodology && !data.methodology->batch_sizes.empty()) {
    return data.methodology->batch_sizes;
  }
  std::set<int> batches;
  for (const auto& cell : data.results) {
    batches.insert(cell.batch_size);
  }
  return {batches.begin(), batches.end()};
}

std::vector<std::string> layer_order(const SiteData& site)
{
  std::vector<std::string> names;
  const auto add = [&names](const Dataset& data) {
    for (const auto& layer : data.layers) {
      if (std::find(names.begin(), names.end(), layer.name) == names.end()) {
        names.push_back(layer.name);
      }
    }
  };
  add(site.datasets[site.featured].data);
  for (const auto& entry : site.datasets) {
    add(entry.data);
  }
  return names;
}

namespace {

// What a transcribed page says it ran on is shown in its own words and marked as the page's claim.
std::string as_stated(const std::string& text) { return text + " (as the source page states)"; }

std::string torch_text(const Dataset& data)
{
  if (data.environment && !data.environment->torch_version.empty()) {
    return data.environment->torch_version;
  }
  if (data.provenance.source && !data.provenance.source->torch_version.empty()) {
    return as_stated(data.provenance.source->torch_version);
  }
  return k_missing;
}

} // namespace

std::vector<int> release_key(const std::string& version)
{
  std::vector<int> key;
  std::stringstream parts(version.substr(0, version.find('+')));
  std::string part;
  while (std::getline(parts, part, '.')) {
    key.push_back(std::atoi(part.c_str()));
  }
  return key;
}

bool on_cuda(const Dataset& data) { return data.environment && data.environment->device.type == "cuda"; }

std::optional<std::string> transform_kernel_name(const dataset::Cell& cell)
{
  const auto kernel = dataset::transform_kernel(cell);
  if (!kernel) {
    return std::nullopt;
  }
  auto name = kernel->substr(0, kernel->find('<'));
  return name.rfind("void ", 0) == 0 ? name.substr(5) : name;
}

std::string device_text(const Dataset& data)
{
  if (data.environment && !data.environment->device.name.empty()) {
    const auto& environment = *data.environment;
    // A CPU's model name can stand for machines of different types (two "AMD EPYC" VMs here differ 2x in
    // their fp32 peak): where the run recorded its type (1.10.0), the type is part of the device, so that
    // datasets of two types are never shown as one device. Older files cannot say, and keep the name alone.
    if (environment.device.type == "cpu" && environment.cpu) {
      const auto& cpu = *environment.cpu;
      std::string type;
      if (cpu.family) {
        type += "family " + std::to_string(*cpu.family);
      }
      if (cpu.model) {
        type += std::string(type.empty() ? "" : " ") + "model " + std::to_string(*cpu.model);
      }
      if (!type.empty()) {
        return environment.device.name + " (" + type + ")";
      }
    }
    return environment.device.name;
  }
  if (data.provenance.source && !data.provenance.source->device.empty()) {
    return as_stated(data.provenance.source->device);
  }
  return k_missing;
}

std::string public_command(const std::string& command_line)
{
  std::string result;
  size_t start = 0;
  while (start <= command_line.size()) {
    const size_t end = std::min(command_line.find(' ', start), command_line.size());
    std::string word = command_line.substr(start, end - start);
    if (!word.empty() && (word.front() == '/' || word.rfind("../", 0) == 0 || word.find("/../") != std::string::npos)) {
      word = word.substr(word.find_last_of('/') + 1);
    }
    result += (start == 0 ? "" : " ") + word;
    start = end + 1;
  }
  return result;
}

std::string public_commit(const std::string& commit)
{
  const std::string dirty = "-dirty";
  if (commit.size() > dirty.size() && commit.compare(commit.size() - dirty.size(), dirty.size(), dirty) == 0) {
    return commit.substr(0, commit.size() - dirty.size()) + " (plus uncommitted changes)";
  }
  return commit;
}

bool replaced_on_site(const SiteData& site, const SiteDataset& entry)
{
  const std::string key = entry.data.id + "@" + std::to_string(entry.data.version);
  const auto replaces = [&](const SiteDataset& other) { return other.origin == DatasetOrigin::published && other.data.replaces == key; };
  // A dataset of models alone is in `models` only: its newer version is found there.
  return std::any_of(site.datasets.begin(), site.datasets.end(), replaces) || std::any_of(site.models.begin(), site.models.end(), replaces);
}

std::string dataset_label(const SiteDataset& entry)
{
  return entry.origin == DatasetOrigin::local ? entry.label + " (local run)" : entry.label;
}

std::string dataset_title(const SiteDataset& entry) { return entry.title.empty() ? entry.data.title : entry.title; }

std::string dataset_full_title(const SiteDataset& entry)
{
  std::string title = dataset_title(entry) + " · v" + std::to_string(entry.data.version);
  return entry.origin == DatasetOrigin::local ? title + " (local run)" : title;
}

namespace {

size_t count_cells(const Dataset& data, dataset::CellStatus status)
{
  return static_cast<size_t>(std::count_if(data.results.begin(), data.results.end(),
                                           [status](const dataset::Cell& cell) { return cell.status == status; }));
}

// "14 layers", "3 models", "14 layers and 1 model".
std::string contents_text(const Dataset& data)
{
  const auto models = std::count_if(data.layers.begin(), data.layers.end(),
                                    [](const auto& layer) { return layer.kind == dataset::LayerKind::model; });
  const auto layers = static_cast<int64_t>(data.layers.size()) - models;
  const std::string layer_text = util::format_thousands(layers) + " layers"; // as the page has always said it
  if (models == 0) {
    return layer_text;
  }
  const std::string model_text = util::format_count(models, "model");
  return layers == 0 ? model_text : layer_text + " and " + model_text;
}

} // namespace

std::string dataset_path(const SiteDataset& entry) { return "datasets/" + entry.slug + ".html"; }

Data dataset_summary(const SiteDataset& entry, const std::string& root)
{
  const Dataset& data = entry.data;
  Data view = object();
  view.set("id", data.id);
  view.set("version", std::to_string(data.version));
  view.set("title", dataset_title(entry));
  view.set("label", dataset_label(entry));
  view.set("full_title", dataset_full_title(entry));
  view.set("anchor", entry.slug);
  view.set("href", root + dataset_path(entry));
  view.set("kind", data.kind == dataset::Kind::measured ? "measured by LayerBench" : "published reference (transcribed, not measured by us)");
  view.set("is_reference", Data(data.kind == dataset::Kind::published_reference));
  view.set("device", device_text(data));
  view.set("torch", torch_text(data));
  view.set("created", data.created);
  const Dataset& file = entry.file ? *entry.file : data;
  view.set("layers", contents_text(file));
  view.set("cells", util::format_thousands(static_cast<int64_t>(file.results.size())));
  view.set("skipped", util::format_thousands(static_cast<int64_t>(count_cells(file, dataset::CellStatus::skipped))));
  view.set("sha256", entry.sha256);
  view.set("json_href", root + "data/" + entry.slug + ".json");
  view.set("csv_href", root + "data/" + entry.slug + ".csv");
  view.set("license_id", data.license.id);
  view.set("license_url", data.license.url);
  view.set("attribution", data.license.attribution.empty() ? std::string(k_missing) : data.license.attribution);
  return view;
}

namespace {

struct Wording
{
  const char* key;
  const char* words;
};

// What a reader sees for each kind and field of an inconsistency file: the file's keys are for
// programs ("page_over_formula"), a page says what they mean.
constexpr Wording k_issue_words[] = {
  {"params_differ_from_pytorch", "Parameter count differs from PyTorch's"},
  {"params_differ_from_page_formula", "Parameter count differs from the page's own formula"},
  {"flops_differ_from_page_formula", "FLOPs differ from the page's own formula"},
  {"claim_differs_from_table", "A claim in the text differs from the page's table"},
  {"flops_per_mac_differs", "FLOPs per multiply-accumulate differ between the page's formulas"},
  {"implied_rate_above_peak", "Implied arithmetic rate above the device's peak"},
  {"memory_below_input", "Memory column below the size of the input"},
  {"implied_bandwidth_above_peak", "Implied memory traffic above the device's bandwidth, out of its cache"},
  {"config", "Configuration"},
  {"page", "The page's figure"},
  {"pytorch", "PyTorch's count"},
  {"pytorch_source", "Counted by"},
  {"formula", "Formula"},
  {"bindings", "Values put in"},
  {"formula_value", "The formula gives"},
  {"page_over_formula", "The page's figure over the formula's"},
  {"claim", "Claim"},
  {"claimed", "Figure claimed"},
  {"table", "The table gives"},
  {"where", "Where"},
  {"elsewhere", "Elsewhere on the page"},
  {"flops_per_mac", "FLOPs per multiply-accumulate"},
  {"computation", "Computation"},
  {"note", "Note"},
  {"batch_size", "Batch size"},
  {"flops_per_sample", "FLOPs per sample"},
  {"page_ms", "The page's time (ms)"},
  {"implied_flop_per_s", "Implied rate (FLOP/s)"},
  {"peak_flop_per_s", "Device's peak (FLOP/s)"},
  {"peak_source", "Peak from"},
  {"input_bytes", "Input size (bytes)"},
  {"page_memory_bytes", "The page's memory (bytes)"},
  {"bytes", "Least bytes moved"},
  {"implied_bytes_per_s", "Implied traffic beyond the cache (bytes/s)"},
  {"peak_bytes_per_s", "Device's bandwidth (bytes/s)"},
  {"last_level_cache_bytes", "Device's L2 cache (bytes)"},
};

Data issue_view(const Inconsistency& issue)
{
  Data view = object();
  view.set("kind", issue.kind.empty() ? std::string("Inconsistency") : issue_words(issue.kind));
  view.set("layer", issue.layer.empty() ? Data(false) : Data(issue.layer));
  view.set("anchor", issue.anchor);
  view.set("reason", issue_reason(issue.source));
  Data fields = list();
  for (const auto& [key, value] : issue.fields) {
    fields.push_back(labelled(issue_words(key), value));
  }
  view.set("fields", fields);
  return view;
}

} // namespace

std::string issue_words(const std::string& key)
{
  for (const auto& wording : k_issue_words) {
    if (key == wording.key) {
      return wording.words;
    }
  }
  // A key added to the file format before it is worded here: shown as a phrase, and test_site_view_common fails.
  std::string words = key;
  std::replace(words.begin(), words.end(), '_', ' ');
  return words;
}

Data known_issues(const SiteData& site, const std::string& dataset_id, const std::string& layer)
{
  Data items = list();
  Data conventions = list();
  for (const auto& file : site.inconsistencies) {
    bool used = false;
    for (const auto& issue : file.items) {
      const bool dataset_matches = dataset_id.empty() || issue.dataset_id.empty() || issue.dataset_id == dataset_id;
      if (dataset_matches && (layer.empty() || issue.layer == layer)) {
        items.push_back(issue_view(issue));
        used = true;
      }
    }
    for (const auto& convention : file.conventions) {
      if (used) {
        conventions.push_back(Data(convention));
      }
    }
  }
  if (items.is_empty_list()) {
    return Data(false);
  }
  Data view = object();
  view.set("items", items);
  view.set("has_conventions", Data(!conventions.is_empty_list()));
  view.set("conventions", conventions);
  return view;
}

Data reference_issue_blocks(const SiteData& site, const std::string& layer)
{
  Data blocks = list();
  for (const auto& entry : site.datasets) {
    if (entry.data.kind != dataset::Kind::published_reference || (!layer.empty() && !dataset::find_layer(entry.data, layer))) {
      continue;
    }
    Data block = known_issues(site, entry.data.id, layer);
    if (!block.is_false()) {
      block.set("dataset", dataset_label(entry));
      blocks.push_back(block);
    }
  }
  return blocks;
}

namespace {

struct SpeedThreshold
{
  double below_ms;
  const char* name;
};

// Fixed times, a decade apart, at the reference batch: a class compares a layer with these, not with
// the dataset's fastest layer, so it changes only where the layer's own time crosses one (a class
// relative to the fastest layer moved Conv2d from Medium to Slow when Dropout alone got faster).
constexpr SpeedThreshold k_speed_thresholds[] = {
  {0.1, "Very Fast"}, {1.0, "Fast"}, {10.0, "Medium"}, {100.0, "Slow"}};
constexpr const char* k_slowest_class = "Very Slow";

} // namespace

std::string speed_class_for_ms(double ms)
{
  for (const auto& threshold : k_speed_thresholds) {
    if (ms < threshold.below_ms) {
      return threshold.name;
    }
  }
  return k_slowest_class;
}

std::string speed_rule_text(int batch)
{
  std::string text = "Speed: the median at batch size " + std::to_string(batch)
                     + " (a dataset without it: its largest batch size) against fixed thresholds: ";
  for (const auto& threshold : k_speed_thresholds) {
    text += std::string("under ") + trimmed_significant(threshold.below_ms, 3) + " ms " + threshold.name + ", ";
  }
  return text + "else " + k_slowest_class + ". The thresholds do not move with the fastest layer, "
         + "so a class changes only where the layer's own time crosses one.";
}

std::string speed_class_of(const Dataset& data, const dataset::Layer& layer)
{
  // A transcribed page's labels are its own; they are shown as given.
  if (data.kind == dataset::Kind::published_reference) {
    return layer.speed_class.empty() ? std::string(k_missing) : layer.speed_class;
  }
  const auto ms = median_ms(data, layer.name, dataset::reference_batch(data));
  return ms ? speed_class_for_ms(*ms) : std::string(k_missing);
}

std::string speed_class_text(const Dataset& data, const dataset::Layer& layer)
{
  const std::string speed = speed_class_of(data, layer);
  if (speed != k_missing && data.kind == dataset::Kind::published_reference) {
    return speed + " (the source page's label, not LayerBench's rule)";
  }
  return speed;
}

namespace {

// "Parameter counts do not predict the time" holds when the layer with the most parameters is not the
// slowest and the slowest has fewer: {many, many_params, many_ms, slow, slow_params, slow_ms}, else false.
Data params_mislead(const Dataset& data, int batch, const std::string& slowest)
{
  const dataset::Layer* many = nullptr;
  for (const auto& layer : data.layers) {
    if (layer.params && median_ms(data, layer.name, batch) && (!many || *layer.params > *many->params)) {
      many = &layer;
    }
  }
  const dataset::Layer* slow = dataset::find_layer(data, slowest);
  if (!many || !slow || !slow->params || slow == many || !(*slow->params < *many->params)) {
    return Data(false);
  }
  Data view = object();
  view.set("many", many->name);
  view.set("many_params", util::format_thousands(*many->params));
  view.set("many_ms", median_text(data, many->name, batch));
  view.set("slow", slow->name);
  view.set("slow_params", util::format_thousands(*slow->params));
  view.set("slow_ms", median_text(data, slow->name, batch));
  return view;
}

} // namespace

Data featured_facts(const Dataset& data)
{
  const int batch = dataset::reference_batch(data);
  std::optional<std::pair<std::string, double>> fastest;
  std::optional<std::pair<std::string, double>> slowest;
  for (const auto& layer : data.layers) {
    const auto ms = median_ms(data, layer.name, batch);
    if (!ms) {
      continue;
    }
    if (!fastest || *ms < fastest->second) {
      fastest = {{layer.name, *ms}};
    }
    if (!slowest || *ms > slowest->second) {
      slowest = {{layer.name, *ms}};
    }
  }
  Data facts = object();
  facts.set("layer_count", util::format_thousands(static_cast<int64_t>(data.layers.size())));
  facts.set("cell_count", util::format_thousands(static_cast<int64_t>(data.results.size())));
  facts.set("device", device_text(data));
  facts.set("title", data.title);
  if (!fastest || !slowest || fastest->first == slowest->first) {
    facts.set("extremes", Data(false));
    return facts;
  }
  Data extremes = object();
  extremes.set("fastest", fastest->first);
  extremes.set("fastest_ms", median_text(data, fastest->first, batch));
  extremes.set("slowest", slowest->first);
  extremes.set("slowest_ms", median_text(data, slowest->first, batch));
  extremes.set("ratio", ratio_text(data, slowest->first, batch, fastest->first, batch));
  extremes.set("batch", std::to_string(batch));
  facts.set("extremes", extremes);
  facts.set("params_mislead", params_mislead(data, batch, slowest->first));
  return facts;
}

} // namespace layerbench::site
