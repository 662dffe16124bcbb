// SPDX-License-Identifier: MIT
#include "site/site_data.hpp"

#include "dataset/axes.hpp"
#include "dataset/catalog.hpp"
#include "dataset/data_folder.hpp"
#include "dataset/io.hpp"
#include "site/view_common.hpp"
#include "util/error.hpp"
#include "util/file.hpp"
#include "util/format.hpp"
#include "util/sha256.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace layerbench::site {

namespace {

SiteDataset site_dataset(dataset::Dataset data, std::string bytes, std::string sha256, std::string label, DatasetOrigin origin)
{
  SiteDataset entry;
  entry.slug = std::string(origin == DatasetOrigin::local ? "local-" : "") + data.id + "-v" + std::to_string(data.version);
  entry.file = std::make_shared<const dataset::Dataset>(data);
  entry.data = std::move(data);
  entry.bytes = std::move(bytes);
  entry.sha256 = std::move(sha256);
  entry.label = std::move(label);
  entry.origin = origin;
  return entry;
}

SiteDataset load_local(const fs::path& path)
{
  auto bytes = util::read_file(path);
  if (!bytes) {
    throw Error(path.string() + ": " + bytes.error());
  }
  auto data = dataset::parse(*bytes, path.string());
  const auto label = dataset::default_label(data);
  const auto sha256 = util::sha256_hex(*bytes);
  return site_dataset(std::move(data), std::move(*bytes), sha256, label, DatasetOrigin::local);
}

// Two versions of one dataset share a label; the version tells them apart.
void disambiguate_labels(std::vector<SiteDataset>& datasets)
{
  std::map<std::string, int> uses;
  for (const auto& entry : datasets) {
    ++uses[entry.label];
  }
  for (auto& entry : datasets) {
    if (uses[entry.label] > 1) {
      entry.label += " v" + std::to_string(entry.data.version);
    }
  }
}

// " (local run)" is what `run` titles an unpublished run: once published, a dataset is not one, and the
// site marks a run that is (dataset_full_title) itself.
std::string published_title(const SiteDataset& entry)
{
  const std::string local = " (local run)";
  const std::string& title = entry.data.title;
  const bool ends_local = title.size() > local.size() && title.compare(title.size() - local.size(), local.size(), local) == 0;
  return ends_local ? title.substr(0, title.size() - local.size()) : title;
}

std::string settings_text(const dataset::Dataset& data)
{
  if (!data.methodology || data.methodology->axes.is_reference()) {
    return "reference settings";
  }
  std::string text;
  for (const auto& axis : dataset::axis_table()) {
    const auto values = dataset::grid_values(data.methodology->axes, axis.name);
    if (values.size() > 1 || (values.size() == 1 && values.front() != axis.values.front())) {
      std::string joined;
      for (const auto& value : values) {
        joined += (joined.empty() ? "" : "/") + value;
      }
      text += (text.empty() ? "" : ", ") + axis.name + " " + joined;
    }
  }
  return text;
}

std::string batches_text(const dataset::Dataset& data)
{
  const auto batches = batch_sizes(data);
  if (batches.empty()) {
    return "";
  }
  return batches.size() == 1 ? "batch size " + std::to_string(batches.front())
                             : "batch sizes " + std::to_string(batches.front()) + "–" + std::to_string(batches.back());
}

// The facts a title may lack, in the order a title names them: torch release, threads, settings, rounds
// and batch sizes. Empty where the file does not say.
std::vector<std::string> title_facts(const dataset::Dataset& data)
{
  const auto& env = data.environment;
  const std::string torch = env ? env->torch_version.substr(0, env->torch_version.find('+')) : "";
  const bool measured = data.kind == dataset::Kind::measured;
  return {torch.empty() ? "" : "torch " + torch,
          env && env->threads > 0 ? util::format_count(env->threads, "thread") : "",
          measured ? settings_text(data) : "",
          measured ? (data.rounds ? util::format_count(data.rounds->count, "round") : std::string("one round")) : "",
          batches_text(data)};
}

// Datasets of one title (a script titles each release it measures alike) are told apart by each fact in
// which they differ; versions of one id that agree on every fact are told apart by their version, which
// the full title adds.
void distinguish_titles(std::vector<SiteDataset>& datasets)
{
  std::map<std::string, std::vector<SiteDataset*>> by_title;
  for (auto& entry : datasets) {
    entry.title = published_title(entry);
    by_title[entry.title].push_back(&entry);
  }
  for (auto& [title, group] : by_title) {
    if (group.size() < 2) {
      continue;
    }
    const size_t count = title_facts(group.front()->data).size();
    std::vector<bool> differs(count, false);
    for (size_t fact = 0; fact < count; ++fact) {
      for (const SiteDataset* entry : group) {
        differs[fact] = differs[fact] || title_facts(entry->data)[fact] != title_facts(group.front()->data)[fact];
      }
    }
    for (SiteDataset* entry : group) {
      const auto facts = title_facts(entry->data);
      std::string added;
      for (size_t fact = 0; fact < count; ++fact) {
        if (differs[fact] && !facts[fact].empty()) {
          added += ", " + facts[fact];
        }
      }
      entry->title += added;
    }
  }
}

size_t choose_featured(const std::vector<SiteDataset>& datasets, const std::string& featured)
{
  for (size_t i = 0; i < datasets.size(); ++i) {
    const auto& data = datasets[i].data;
    if (!featured.empty() && (featured == data.id || featured == data.id + "@" + std::to_string(data.version))) {
      return i;
    }
  }
  // Otherwise the newest published measurement: a transcribed reference is featured only when alone.
  size_t best = 0;
  bool found_measured = false;
  for (size_t i = 0; i < datasets.size(); ++i) {
    const auto& data = datasets[i].data;
    if (data.kind != dataset::Kind::measured || datasets[i].origin != DatasetOrigin::published) {
      continue;
    }
    if (!found_measured || data.created > datasets[best].data.created) {
      best = i;
      found_measured = true;
    }
  }
  return best;
}

std::string number_text(double value)
{
  if (value == std::floor(value) && std::fabs(value) < 9e15) {
    return util::format_thousands(static_cast<int64_t>(value));
  }
  return trimmed_significant(value, 4); // 0.5, not 0.5000
}

std::string figure_text(const dataset::Figure& figure)
{
  if (figure.number) {
    return number_text(*figure.number);
  }
  if (figure.by_key.empty()) {
    return figure.text;
  }
  std::string text;
  for (const auto& [key, value] : figure.by_key) {
    text += (text.empty() ? "" : ", ") + key + " = " + value;
  }
  return text;
}

std::string bindings_text(const std::vector<std::pair<std::string, double>>& bindings)
{
  std::string text;
  for (const auto& [name, value] : bindings) {
    text += (text.empty() ? "" : ", ") + name + " = " + number_text(value);
  }
  return text;
}

Inconsistency inconsistency_of(const dataset::Inconsistency& item, const std::string& dataset_id)
{
  using dataset::InconsistencyKind;
  Inconsistency shown{dataset_id, dataset::to_string(item.kind), item.layer, {}, "", item};
  auto add = [&](const char* key, const std::string& value) {
    if (!value.empty()) {
      shown.fields.emplace_back(key, value);
    }
  };
  add("config", item.config);
  switch (item.kind) {
  case InconsistencyKind::params_differ_from_pytorch:
    add("page", number_text(item.page));
    add("pytorch", number_text(static_cast<double>(item.pytorch)));
    add("pytorch_source", item.pytorch_source);
    break;
  case InconsistencyKind::params_differ_from_page_formula:
  case InconsistencyKind::flops_differ_from_page_formula:
    add("formula", item.formula);
    add("bindings", bindings_text(item.bindings));
    add("page", number_text(item.page));
    add("formula_value", number_text(item.formula_value));
    add("page_over_formula", item.page_over_formula ? number_text(*item.page_over_formula) : "");
    break;
  case InconsistencyKind::claim_differs_from_table:
    add("claim", item.claim);
    add("where", item.where);
    add("claimed", figure_text(item.claimed));
    add("table", figure_text(item.table));
    add("computation", item.computation);
    break;
  case InconsistencyKind::flops_per_mac_differs:
    add("formula", item.formula);
    add("bindings", bindings_text(item.bindings));
    add("flops_per_mac", bindings_text(item.flops_per_mac));
    add("elsewhere", bindings_text(item.elsewhere));
    add("computation", item.computation);
    break;
  case InconsistencyKind::implied_rate_above_peak:
    add("batch_size", std::to_string(item.batch_size));
    add("page_ms", number_text(item.page_ms));
    add("implied_flop_per_s", number_text(item.implied_flop_per_s));
    add("peak_flop_per_s", number_text(item.peak_flop_per_s));
    add("peak_source", item.peak_source);
    add("computation", item.computation);
    break;
  case InconsistencyKind::implied_bandwidth_above_peak:
    add("batch_size", std::to_string(item.batch_size));
    add("page_ms", number_text(item.page_ms));
    add("bytes", number_text(item.bytes));
    add("implied_bytes_per_s", number_text(item.implied_bytes_per_s));
    add("peak_bytes_per_s", number_text(item.peak_bytes_per_s));
    add("last_level_cache_bytes", number_text(static_cast<double>(item.last_level_cache_bytes)));
    add("peak_source", item.peak_source);
    add("computation", item.computation);
    break;
  case InconsistencyKind::memory_below_input:
    add("batch_size", std::to_string(item.batch_size));
    add("page_memory_bytes", number_text(static_cast<double>(item.page_memory_bytes)));
    add("input_bytes", number_text(static_cast<double>(item.input_bytes)));
    add("computation", item.computation);
    break;
  }
  add("note", item.note);
  return shown;
}

InconsistencyFile shown_file(const dataset::InconsistencyFile& file)
{
  const std::string dataset_id = file.reference.substr(0, file.reference.find('@'));
  InconsistencyFile shown{file.origin, file.conventions, {}};
  for (const auto& item : file.items) {
    shown.items.push_back(inconsistency_of(item, dataset_id));
    shown.items.back().anchor = "issue-" + dataset_id + "-" + std::to_string(shown.items.size());
  }
  return shown;
}

// The entry with only the layers (and their cells) whose kind is one of `kinds`.
SiteDataset keep_kind(const SiteDataset& entry, std::set<dataset::LayerKind> kinds)
{
  SiteDataset kept = entry;
  auto& data = kept.data;
  std::set<std::string> names;
  data.layers.erase(std::remove_if(data.layers.begin(), data.layers.end(),
                                   [&kinds](const auto& layer) { return kinds.count(layer.kind) == 0; }),
                    data.layers.end());
  for (const auto& layer : data.layers) {
    names.insert(layer.name);
  }
  data.results.erase(std::remove_if(data.results.begin(), data.results.end(),
                                    [&names](const auto& cell) { return names.count(cell.layer) == 0; }),
                     data.results.end());
  if (data.methodology) {
    auto& declared = data.methodology->layers;
    declared.erase(std::remove_if(declared.begin(), declared.end(), [&names](const auto& name) { return names.count(name) == 0; }),
                   declared.end());
  }
  return kept;
}

// The one place where models leave the layer pages' data: a dataset with layers stays in `datasets`
// with its layers only; one with models adds its models to `models`.
void split_models(std::vector<SiteDataset> loaded, SiteData& site)
{
  for (auto& entry : loaded) {
    const auto& layers = entry.data.layers;
    const auto has = [&layers](dataset::LayerKind kind) {
      return std::any_of(layers.begin(), layers.end(), [kind](const auto& layer) { return layer.kind == kind; });
    };
    if (!has(dataset::LayerKind::model) && !has(dataset::LayerKind::model_layer)) {
      site.datasets.push_back(std::move(entry));
      continue;
    }
    if (has(dataset::LayerKind::layer)) {
      site.datasets.push_back(keep_kind(entry, {dataset::LayerKind::layer}));
    }
    if (has(dataset::LayerKind::model_layer)) {
      site.layer_sums.push_back(keep_kind(entry, {dataset::LayerKind::model, dataset::LayerKind::model_layer}));
    }
    if (has(dataset::LayerKind::model)) {
      site.models.push_back(keep_kind(entry, {dataset::LayerKind::model}));
    }
  }
}

} // namespace

std::vector<const SiteDataset*> dataset_files(const SiteData& site)
{
  std::vector<const SiteDataset*> every;
  std::set<std::string> slugs;
  for (const auto* group : {&site.datasets, &site.models, &site.layer_sums}) {
    for (const auto& entry : *group) {
      if (slugs.insert(entry.slug).second) {
        every.push_back(&entry);
      }
    }
  }
  return every;
}

SiteData load_site_data(const RenderOptions& options)
{
  const auto folder = dataset::DataFolder::load(options.data_dir);
  std::vector<SiteDataset> loaded;
  for (const auto& item : folder.datasets()) {
    loaded.push_back(site_dataset(item.data, item.bytes, item.entry.sha256, item.entry.label, DatasetOrigin::published));
    loaded.back().errata = item.entry.errata;
  }
  for (const auto& file : options.extra_datasets) {
    loaded.push_back(load_local(file));
  }
  disambiguate_labels(loaded);
  distinguish_titles(loaded);
  SiteData site;
  split_models(std::move(loaded), site);
  if (site.datasets.empty()) {
    throw Error(options.data_dir.string() + ": every dataset holds whole models only; the site's pages need one dataset of layers");
  }
  site.featured = choose_featured(site.datasets, folder.catalog().featured);
  for (const auto& file : folder.inconsistencies()) {
    site.inconsistencies.push_back(shown_file(file));
  }
  site.validations = folder.validations();
  site.datasheet = folder.datasheet();
  site.findings = folder.findings();
  site.scaling_reference = dataset::load_scaling_reference(options.data_dir);
  return site;
}

} // namespace layerbench::site
