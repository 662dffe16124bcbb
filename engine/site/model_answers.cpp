// SPDX-License-Identifier: MIT
#include "site/model_answers.hpp"

#include "site/setting_words.hpp"
#include "site/view_common.hpp"
#include "site/view_pages.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace layerbench::site {

namespace {

using dataset::Axes;
using dataset::Cell;
using dataset::Dataset;

// Seed 001's question compares these major releases; the heading asks it with the same numbers.
constexpr int k_old_major = 1;
constexpr int k_new_major = 2;


bool wanted(const Cell& cell, const std::string& model) { return model.empty() || cell.layer == model; }

// Each measured model dataset that a newer version on the site does not replace.
std::vector<const SiteDataset*> measured_models(const SiteData& site)
{
  std::vector<const SiteDataset*> found;
  for (const auto& entry : site.models) {
    if (entry.data.kind == dataset::Kind::measured && !replaced_on_site(site, entry)) {
      found.push_back(&entry);
    }
  }
  return found;
}

// "1,053 images/s" of a timed cell.
std::string throughput_with_unit(const SiteDataset& entry, const Cell& cell)
{
  const auto* model = dataset::find_layer(entry.data, cell.layer);
  return cell_throughput_text(entry.data, &cell) + " " + (model ? model_sample_unit(*model) : std::string("samples/s"));
}

// {verdict, faster, slower, unclear} of `cell` against `base`, into `row`.
void set_verdict(Data& row, const Cell& cell, const Cell& base)
{
  const Verdict verdict = verdict_of(cell, base);
  row.set("verdict", verdict_text(verdict, cell, base));
  row.set("faster", Data(verdict == Verdict::faster));
  row.set("slower", Data(verdict == Verdict::slower));
  row.set("unclear", Data(verdict == Verdict::unclear));
}

// One cell against its twin of the same dataset (the twin is the base): {model, href, dataset,
// dataset_href, device, setting, batch, cell, twin, ratio, verdict, faster, slower, unclear}.
Data pair_row(const SiteDataset& entry, const Cell& cell, const Cell& twin)
{
  Data row = object();
  row.set("model", cell.layer);
  row.set("href", model_path(cell.layer));
  row.set("dataset", dataset_label(entry));
  row.set("dataset_href", dataset_path(entry));
  row.set("device", device_text(entry.data));
  row.set("setting", model_setting_label(cell.axes));
  row.set("batch", std::to_string(cell.batch_size));
  row.set("cell", throughput_with_unit(entry, cell));
  row.set("twin", throughput_with_unit(entry, twin));
  row.set("ratio", ratio_text(entry.data, &twin, &cell)); // twin's time over the cell's: the throughput ratio
  set_verdict(row, cell, twin);
  return row;
}

// {pairs, faster, slower, unclear}: how many of `rows` each verdict has, as text.
Data counted(const Data& rows)
{
  int counts[3] = {0, 0, 0};
  for (const auto& row : rows.list_value()) {
    counts[row.get("faster")->is_true() ? 0 : row.get("slower")->is_true() ? 1 : 2]++;
  }
  Data view = object();
  view.set("pairs", util::format_count(static_cast<int64_t>(rows.list_value().size()), "pair"));
  view.set("faster", std::to_string(counts[0]));
  view.set("slower", std::to_string(counts[1]));
  view.set("unclear", std::to_string(counts[2]));
  return view;
}

// Every timed cell whose axis `axis` holds one of `values`, against its twin with that axis at `base`,
// in the same dataset at the same batch size: the rows of one dataset.
Data twin_rows(const SiteDataset& entry, const std::string& model, const std::string& axis, const std::set<std::string>& values,
               const std::string& base)
{
  Data rows = list();
  for (const auto& cell : entry.data.results) {
    if (!wanted(cell, model) || !is_timed(&cell) || values.count(dataset::axis_value(cell.axes, axis)) == 0) {
      continue;
    }
    Axes twin_axes = cell.axes;
    dataset::set_axis(twin_axes, axis, base);
    const Cell* twin = dataset::find_cell(entry.data, cell.layer, cell.batch_size, twin_axes);
    if (!is_timed(twin)) {
      continue;
    }
    rows.push_back(pair_row(entry, cell, *twin));
  }
  return rows;
}

// The newest release of `releases` whose major version is `major`, or "".
std::string newest_of_major(const Releases& releases, int major)
{
  std::string found;
  for (const auto& release : releases) {
    if (!release_key(release).empty() && release_key(release).front() == major) {
      found = release;
    }
  }
  return found;
}

struct FoundCell
{
  const SiteDataset* entry = nullptr;
  const Cell* cell = nullptr;
};

// The first timed cell of (model, batch, axes) among the device's datasets of one release.
FoundCell cell_on_release(const DeviceModels& device, const std::string& release, const Cell& like)
{
  for (const SiteDataset* entry : device.entries) {
    if (entry->data.environment->torch_version != release) {
      continue;
    }
    const Cell* cell = dataset::find_cell(entry->data, like.layer, like.batch_size, like.axes);
    if (is_timed(cell)) {
      return {entry, cell};
    }
  }
  return {};
}

// One device's training cells on the newer release against the older: {where, older, newer,
// missing_major, has_rows, counts, rows}.
Data release_comparison(const DeviceModels& device, const std::string& model)
{
  std::string older = newest_of_major(device.releases, k_old_major);
  std::string newer = newest_of_major(device.releases, k_new_major);
  // Where one of the two majors was not measured, the oldest release against the newest, saying which.
  const Data missing_major = older.empty() ? Data(std::to_string(k_old_major)) : newer.empty() ? Data(std::to_string(k_new_major)) : Data(false);
  if (!missing_major.is_false()) {
    older = *device.releases.begin();
    newer = *device.releases.rbegin();
  }
  Data rows = list();
  for (const SiteDataset* entry : device.entries) {
    if (entry->data.environment->torch_version != newer) {
      continue;
    }
    for (const auto& cell : entry->data.results) {
      if (!wanted(cell, model) || !is_timed(&cell) || cell.axes[dataset::k_mode] != dataset::GradMode::train
          || cell_on_release(device, newer, cell).cell != &cell) {
        continue;
      }
      const FoundCell base = cell_on_release(device, older, cell);
      if (!base.cell) {
        continue;
      }
      Data row = object();
      row.set("model", cell.layer);
      row.set("href", model_path(cell.layer));
      row.set("setting", model_setting_label(cell.axes));
      row.set("batch", std::to_string(cell.batch_size));
      row.set("newer_text", throughput_with_unit(*entry, cell));
      row.set("older_text", throughput_with_unit(*base.entry, *base.cell));
      // base's time over the cell's: the throughput ratio, at the figures both support, with its range
      row.set("ratio", ratio_text(base.entry->data, base.cell, entry->data, &cell));
      set_verdict(row, cell, *base.cell);
      rows.push_back(row);
    }
  }
  Data view = object();
  view.set("where", device_words(device));
  view.set("older", older);
  view.set("newer", newer);
  view.set("missing_major", missing_major);
  view.set("has_rows", Data(!rows.is_empty_list()));
  view.set("counts", counted(rows));
  view.set("rows", rows);
  return view;
}

} // namespace

bool by_release(const std::string& a, const std::string& b) { return release_key(a) < release_key(b); }

std::vector<DeviceModels> models_by_device(const SiteData& site)
{
  std::vector<DeviceModels> devices;
  for (const SiteDataset* entry : measured_models(site)) {
    const Dataset& data = entry->data;
    if (!data.environment) {
      continue;
    }
    const std::string device = device_text(data);
    auto it = std::find_if(devices.begin(), devices.end(), [&](const DeviceModels& d) {
      return d.device == device && d.threads == data.environment->threads;
    });
    if (it == devices.end()) {
      devices.push_back({device, data.environment->threads, on_cuda(data), Releases{by_release}, {}});
      it = devices.end() - 1;
    }
    it->releases.insert(data.environment->torch_version);
    it->entries.push_back(entry);
  }
  // Newest first: where two runs of a release measured the same cell (an eager series, then a run of
  // eager and compiled together), every view of the device (the release charts, the glance table, the
  // release answer) takes the newer run's, so one page never shows two runs' values for one cell.
  for (auto& device : devices) {
    std::stable_sort(device.entries.begin(), device.entries.end(),
                     [](const SiteDataset* a, const SiteDataset* b) { return a->data.created > b->data.created; });
  }
  return devices;
}

std::string device_words(const DeviceModels& device)
{
  return device.device + (device.cuda ? "" : " with " + std::to_string(device.threads) + " threads");
}

std::string model_sample_unit(const dataset::Layer& model)
{
  const auto dims = std::count(model.input_shape.begin(), model.input_shape.end(), 'x') + 1;
  if (dims == 4) {
    return "images/s";
  }
  return dims == 2 ? "sequences/s" : "samples/s";
}

std::optional<double> samples_per_second(const dataset::Cell& cell)
{
  if (!is_timed(&cell)) {
    return std::nullopt;
  }
  return cell.throughput_samples_per_s.value_or(cell.batch_size * 1000.0 / cell.stats->median_ms);
}

Verdict verdict_of(const Cell& a, const Cell& b)
{
  // Measured in rounds, the two cells' round medians spread by more than either run's samples: a
  // difference holds only where the 95% intervals over rounds lie apart (a 2% step with quartiles of
  // 1% each would otherwise read as a change that a second run does not repeat).
  if (a.round_spread && b.round_spread) {
    if (a.round_spread->ci95_high_ms < b.round_spread->ci95_low_ms) {
      return Verdict::faster;
    }
    if (a.round_spread->ci95_low_ms > b.round_spread->ci95_high_ms) {
      return Verdict::slower;
    }
    return Verdict::unclear;
  }
  if (!a.stats || !b.stats || !a.stats->p25_ms || !a.stats->p75_ms || !b.stats->p25_ms || !b.stats->p75_ms) {
    return Verdict::unclear;
  }
  if (*a.stats->p75_ms < *b.stats->p25_ms) {
    return Verdict::faster;
  }
  if (*a.stats->p25_ms > *b.stats->p75_ms) {
    return Verdict::slower;
  }
  return Verdict::unclear;
}

std::string verdict_text(Verdict verdict, const Cell& a, const Cell& b)
{
  // A run of one round did not measure the spread between processes (dataset/precision.hpp), so its
  // quartiles speak for that one run only.
  const std::string within = a.round_spread && b.round_spread ? "" : ", within one run (the spread between processes was not measured)";
  if (verdict == Verdict::faster) {
    return "faster" + within;
  }
  if (verdict == Verdict::slower) {
    return "slower" + within;
  }
  if (a.round_spread && b.round_spread) {
    return "no clear difference (their 95% intervals over rounds overlap)";
  }
  const bool quartiles = a.stats && b.stats && a.stats->p25_ms && a.stats->p75_ms && b.stats->p25_ms && b.stats->p75_ms;
  return quartiles ? "no clear difference (their interquartile ranges overlap)"
                   : "no verdict (a cell has no interquartile range)";
}

Data releases_answer(const SiteData& site, const std::string& model)
{
  Data series = list();
  std::string measured_on; // "AMD EPYC: torch 2.11.0; NVIDIA H200: torch 2.11.0"
  for (const auto& device : models_by_device(site)) {
    const bool holds_model = model.empty() || std::any_of(device.entries.begin(), device.entries.end(), [&](const SiteDataset* e) {
      return dataset::find_layer(e->data, model) != nullptr;
    });
    if (!holds_model) {
      continue;
    }
    if (device.releases.size() >= 2) {
      series.push_back(release_comparison(device, model));
      continue;
    }
    measured_on += (measured_on.empty() ? "" : "; ") + device_words(device) + ": torch " + *device.releases.begin();
  }
  Data answer = object();
  answer.set("old_major", std::to_string(k_old_major));
  answer.set("new_major", std::to_string(k_new_major));
  answer.set("compared", Data(!series.is_empty_list()));
  answer.set("series", series);
  Data none = Data(false);
  if (series.is_empty_list()) {
    none = object();
    none.set("devices", measured_on.empty() ? Data(false) : Data(measured_on));
    const auto layer_series = version_series(site);
    none.set("versions_href", layer_series.empty() ? Data(false) : Data(versions_path(layer_series.front())));
  }
  answer.set("no_series", none);
  return answer;
}

Data compile_answer(const SiteData& site, const std::string& model)
{
  Data rows = list();
  for (const SiteDataset* entry : measured_models(site)) {
    const Data found = twin_rows(*entry, model, "compiled", {"torch_compile", "aot_inductor"}, "eager");
    for (const auto& row : found.list_value()) {
      rows.push_back(row);
    }
  }
  if (rows.is_empty_list()) {
    return Data(false);
  }
  Data answer = counted(rows);
  answer.set("rows", rows);
  return answer;
}

Data precision_answer(const SiteData& site, const std::string& model)
{
  Data groups = list();
  for (const bool cuda : {false, true}) {
    std::map<std::string, Data> by_device;
    std::vector<std::string> order;
    for (const SiteDataset* entry : measured_models(site)) {
      if (on_cuda(entry->data) != cuda) {
        continue;
      }
      const Data found = twin_rows(*entry, model, "precision", {"bf16", "fp16"}, "fp32");
      for (const auto& row : found.list_value()) {
        const std::string device = device_text(entry->data);
        if (!by_device.count(device)) {
          by_device[device] = list();
          order.push_back(device);
        }
        by_device[device].push_back(row);
      }
    }
    for (const auto& device : order) {
      Data group = counted(by_device[device]);
      group.set("device", device);
      group.set("gpu", Data(cuda));
      group.set("rows", by_device[device]);
      groups.push_back(group);
    }
  }
  if (groups.is_empty_list()) {
    return Data(false);
  }
  Data answer = object();
  answer.set("groups", groups);
  return answer;
}

Data model_answers(const SiteData& site, const std::string& model)
{
  Data answers = object();
  answers.set("releases", releases_answer(site, model));
  answers.set("compile", compile_answer(site, model));
  answers.set("precision", precision_answer(site, model));
  return answers;
}

} // namespace layerbench::site
