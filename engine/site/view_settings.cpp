// SPDX-License-Identifier: MIT
// The settings page of a dataset that measured corners of the performance-setting cube (issue 13):
// for each layer, each setting's speedup over the baseline, colour-coded, with the numbers in the
// cells; the training step's parts; and the FAQ's "which setting helps which layer most".

#include "site/setting_words.hpp"
#include "site/view_common.hpp"
#include "site/view_pages.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <cmath>

namespace layerbench::site {

namespace {

using dataset::Axes;
using dataset::Cell;
using dataset::Dataset;

// The cell where it has a time (view_common's is_timed), else null.
const Cell* timed(const Cell* cell) { return is_timed(cell) ? cell : nullptr; }

double noise_of(const Cell& cell) { return cell.stats->noise.value_or(0); }

// A speedup counts as one when it stands out of both cells' noise and exceeds this.
constexpr double k_least_change = 0.05;

std::string verdict_class(double speedup, const Cell& base, const Cell& cell)
{
  const double margin = std::max({k_least_change, noise_of(base), noise_of(cell)});
  if (speedup > 1 + margin) {
    return "faster";
  }
  if (speedup < 1 / (1 + margin)) {
    return "slower";
  }
  return "same";
}

// {text, css, detail}: base time over this cell's time.
Data speedup_cell(const dataset::Dataset& data, const Cell* base, const Cell* cell)
{
  Data view = object();
  view.set("css", "");
  if (!cell) {
    view.set("text", k_missing);
    view.set("detail", "not measured");
    return view;
  }
  if (cell->status == dataset::CellStatus::skipped) {
    view.set("text", "skipped");
    view.set("css", "skip");
    view.set("detail", reader_prose(cell->skip_reason));
    return view;
  }
  if (!timed(cell) || !timed(base)) {
    view.set("text", timed(cell) ? cell_median_text(data, cell) + " ms" : std::string(k_missing));
    view.set("detail", "no baseline to compare with");
    return view;
  }
  const double speedup = base->stats->median_ms / cell->stats->median_ms;
  view.set("text", ratio_text(speedup));
  view.set("css", verdict_class(speedup, *base, *cell));
  view.set("detail", cell_median_text(data, cell) + " ms against " + cell_median_text(data, base) + " ms");
  return view;
}

Axes train_baseline()
{
  Axes axes;
  axes.set(dataset::k_mode, dataset::GradMode::train);
  return axes;
}

// The corners a dataset declares, but the baselines, split by whether they train.
std::vector<Axes> declared_corners(const Dataset& data, bool train)
{
  std::vector<Axes> result;
  if (!data.methodology) {
    return result;
  }
  for (const auto& corner : dataset::corners(data.methodology->axes)) {
    if ((corner[dataset::k_mode] == dataset::GradMode::train) == train && !corner.is_reference() && corner != train_baseline()) {
      result.push_back(corner);
    }
  }
  return result;
}

Data corner_headers(const std::vector<Axes>& corners)
{
  Data headers = list();
  for (const auto& corner : corners) {
    headers.push_back(Data(setting_words(corner)));
  }
  return headers;
}

std::string ratio_or_missing(std::optional<double> value) { return value ? ratio_text(*value) : std::string(k_missing); }

// The baseline train cell's backward over its forward, and its autograd forward over the inference forward.
Data train_cost(const Dataset& data, const std::string& layer, int batch)
{
  Data view = object();
  const Cell* train = timed(dataset::find_cell(data, layer, batch, train_baseline()));
  const Cell* inference = timed(dataset::find_cell(data, layer, batch));
  std::optional<double> backward_over_forward;
  std::optional<double> recording;
  if (train && train->train && train->train->forward.median_ms > 0) {
    const auto& t = *train->train;
    const double backward = (t.backward_input ? t.backward_input->median_ms : 0)
                            + (t.backward_weight ? t.backward_weight->median_ms : 0);
    if (t.backward_input || t.backward_weight) {
      backward_over_forward = backward / t.forward.median_ms;
    }
    if (inference) {
      recording = t.forward.median_ms / inference->stats->median_ms;
    }
  }
  view.set("backward_over_forward", ratio_or_missing(backward_over_forward));
  view.set("recording", ratio_or_missing(recording));
  return view;
}

Data settings_table(const Dataset& data, int batch, bool train)
{
  const auto corners = declared_corners(data, train);
  const Axes baseline = train ? train_baseline() : Axes{};
  Data rows = list();
  for (const auto& layer : data.layers) {
    const Cell* base = dataset::find_cell(data, layer.name, batch, baseline);
    Data cells = list();
    for (const auto& corner : corners) {
      cells.push_back(speedup_cell(data, timed(base), dataset::find_cell(data, layer.name, batch, corner)));
    }
    Data row = object();
    row.set("layer", layer.name);
    row.set("href", "../" + layer_path(layer.name));
    row.set("baseline", timed(base) ? cell_median_text(data, base) + " ms" : cell_median_text(data, base));
    row.set("cells", cells);
    row.set("cost", train ? train_cost(data, layer.name, batch) : Data(false));
    rows.push_back(row);
  }
  Data table = object();
  table.set("batch", std::to_string(batch));
  table.set("headers", corner_headers(corners));
  table.set("rows", rows);
  table.set("has_corners", Data(!corners.empty()));
  return table;
}

struct Best
{
  Axes axes;
  double speedup = 0;
  std::string verdict; // verdict_class: "faster", "same" or "slower"
};

// The inference corner that speeds `layer` up most at `batch`, by median.
std::optional<Best> best_setting(const Dataset& data, const std::string& layer, int batch)
{
  const Cell* base = timed(dataset::find_cell(data, layer, batch));
  if (!base) {
    return std::nullopt;
  }
  std::optional<Best> best;
  for (const auto& corner : declared_corners(data, false)) {
    const Cell* cell = timed(dataset::find_cell(data, layer, batch, corner));
    if (!cell) {
      continue;
    }
    const double speedup = base->stats->median_ms / cell->stats->median_ms;
    if (!best || speedup > best->speedup) {
      best = Best{corner, speedup, verdict_class(speedup, *base, *cell)};
    }
  }
  return best;
}

// What the FAQ says of a layer's best inference setting. A setting is called the best only where it
// is a speedup beyond the noise; a speedup within the noise is no help, and where no setting is faster
// at all (a largest "speedup" of 0.836x is a slowdown) the answer is that none helps.
std::string best_setting_text(const Best& best)
{
  const std::string name = setting_words(best.axes);
  const std::string speedup = ratio_text(best.speedup);
  if (best.verdict == "faster") {
    return name + " (" + speedup + ")";
  }
  if (best.speedup > 1) {
    return "none beyond the noise (the largest speedup, " + name + "'s " + speedup + ", is within it)";
  }
  return "none helps: no setting was faster than the baseline (the least slowdown: " + name + " at " + speedup
         + " the baseline's speed)";
}

std::string train_parts_text(const Cell* cell)
{
  if (!cell || !cell->train) {
    return "";
  }
  const auto& t = *cell->train;
  std::string text = "forward " + ms_text(t.forward.median_ms);
  if (t.backward_input) {
    text += " · input gradient " + ms_text(t.backward_input->median_ms);
  }
  if (t.backward_weight) {
    text += " · weight gradient " + ms_text(t.backward_weight->median_ms);
  }
  return text + " ms";
}

// Every corner one dataset measured for `layer`: times per batch size, and a train corner's parts at
// the largest batch size; false when the dataset measured the reference corner only.
// What this layer's AOTInductor package cost to export and compile, from the first aot_inductor cell
// that records it; "" when the dataset has none.
std::string aoti_text(const Dataset& data, const std::string& layer)
{
  for (const auto& cell : data.results) {
    if (cell.layer == layer && cell.aoti) {
      return "AOTInductor package: exported and compiled once for this layer and device in "
             + util::format_fixed(cell.aoti->compile_seconds, 1) + " s"
             + (cell.aoti->cached ? ", by an earlier run; this run read it from the cache." : ", in this run.")
             + " That cost is not in the times above.";
    }
  }
  return "";
}

Data corner_block(const SiteDataset& entry, const std::string& layer)
{
  const Dataset& data = entry.data;
  if (!has_settings_page(entry) || !dataset::find_layer(data, layer) || !data.methodology) {
    return Data(false);
  }
  const auto batches = batch_sizes(data);
  Data headers = list();
  for (int batch : batches) {
    headers.push_back(Data(std::to_string(batch)));
  }
  Data rows = list();
  for (const auto& corner : dataset::corners(data.methodology->axes)) {
    Data times = list();
    for (int batch : batches) {
      times.push_back(time_cell(data, dataset::find_cell(data, layer, batch, corner)));
    }
    Data row = object();
    row.set("corner", setting_words(corner));
    row.set("times", times);
    row.set("parts", batches.empty() ? std::string() : train_parts_text(dataset::find_cell(data, layer, batches.back(), corner)));
    rows.push_back(row);
  }
  Data block = object();
  block.set("dataset", dataset_label(entry));
  block.set("anchor", "settings-" + entry.slug); // one block per dataset on a layer page
  block.set("href", "../" + settings_path(entry));
  block.set("batch_sizes", headers);
  block.set("largest", batches.empty() ? std::string() : std::to_string(batches.back()));
  block.set("rows", rows);
  const auto aoti = aoti_text(data, layer);
  block.set("aoti", aoti.empty() ? Data(false) : Data(aoti));
  return block;
}

} // namespace

Data corner_blocks(const SiteData& site, const std::string& layer)
{
  Data blocks = list();
  for (const auto& entry : site.datasets) {
    Data block = corner_block(entry, layer);
    if (!block.is_false()) {
      blocks.push_back(block);
    }
  }
  return blocks;
}

bool has_settings_page(const SiteDataset& entry) { return dataset::has_axes(entry.data); }

std::string settings_path(const SiteDataset& entry) { return "settings/" + entry.slug + ".html"; }

// Every skip reason of the dataset with how many cells it skipped, so a reader without a mouse reads
// what the cells' hover text says; false when nothing was skipped.
Data skip_reasons(const Dataset& data)
{
  std::vector<std::pair<std::string, int64_t>> counts;
  for (const auto& cell : data.results) {
    if (cell.status != dataset::CellStatus::skipped) {
      continue;
    }
    const auto found = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == cell.skip_reason; });
    if (found == counts.end()) {
      counts.emplace_back(cell.skip_reason, 1);
    } else {
      ++found->second;
    }
  }
  if (counts.empty()) {
    return Data(false);
  }
  Data reasons = list();
  for (const auto& [reason, count] : counts) {
    reasons.push_back(labelled(reason.empty() ? std::string("no reason recorded") : reader_prose(reason),
                               util::format_thousands(count) + (count == 1 ? " cell" : " cells")));
  }
  Data view = object();
  view.set("reasons", reasons);
  return view;
}

PageSpec settings_page(const SiteDataset& entry, Data base)
{
  const Dataset& data = entry.data;
  Data inference = list();
  Data training = list();
  for (int batch : batch_sizes(data)) {
    inference.push_back(settings_table(data, batch, false));
    training.push_back(settings_table(data, batch, true));
  }
  base.set("dataset", dataset_summary(entry, "../"));
  base.set("least_change", util::format_fixed(k_least_change * 100, 0) + "%");
  base.set("inference", inference);
  base.set("training", training);
  base.set("has_training", Data(!declared_corners(data, true).empty()));
  base.set("skip_reasons", skip_reasons(data));
  base.set("axes_text", data.methodology && !data.methodology->axes_text.empty() ? Data(data.methodology->axes_text)
                                                                                 : Data(false));
  return {"settings", settings_path(entry), std::move(base), ""};
}

Data settings_answer(const SiteData& site)
{
  const SiteDataset* chosen = has_settings_page(site.datasets[site.featured]) ? &site.datasets[site.featured] : nullptr;
  for (const auto& entry : site.datasets) {
    if (!chosen && has_settings_page(entry)) {
      chosen = &entry;
    }
  }
  if (!chosen) {
    return Data(false);
  }
  const auto batches = batch_sizes(chosen->data);
  if (batches.empty()) {
    return Data(false);
  }
  const int batch = batches.back();
  Data rows = list();
  for (const auto& layer : chosen->data.layers) {
    const auto best = best_setting(chosen->data, layer.name, batch);
    if (!best) {
      continue;
    }
    Data row = object();
    row.set("layer", layer.name);
    row.set("setting", best_setting_text(*best));
    rows.push_back(row);
  }
  Data answer = object();
  answer.set("dataset", dataset_label(*chosen));
  answer.set("href", settings_path(*chosen));
  answer.set("batch", std::to_string(batch));
  answer.set("rows", rows);
  return answer;
}

} // namespace layerbench::site
