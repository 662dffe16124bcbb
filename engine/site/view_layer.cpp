// SPDX-License-Identifier: MIT
// The page of one layer: its definition, formulas, checks, charts and every dataset's figures.

#include "dataset/batch_sizes.hpp"
#include "site/cell_whisker.hpp"
#include "site/chart.hpp"
#include "site/device_datasets.hpp"
#include "site/figure_flag.hpp"
#include "site/memory_figure.hpp"
#include "site/sweep_section.hpp"
#include "site/view_common.hpp"
#include "site/view_pages.hpp"
#include "site/view_roofline.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <cmath>

namespace layerbench::site {

namespace {

using dataset::Dataset;

const dataset::Layer* definition(const SiteData& site, const std::string& name, const SiteDataset** owner)
{
  const dataset::Layer* layer = dataset::find_layer(site.datasets[site.featured].data, name);
  *owner = &site.datasets[site.featured];
  for (size_t i = 0; !layer && i < site.datasets.size(); ++i) {
    layer = dataset::find_layer(site.datasets[i].data, name);
    *owner = &site.datasets[i];
  }
  return layer;
}

std::string optional_count_text(std::optional<double> value)
{
  if (!value) {
    return k_missing;
  }
  return util::format_thousands(static_cast<int64_t>(*value)) + " (" + util::format_si(*value) + ")";
}

Data params_check(const SiteData& site, const SiteDataset& entry, const dataset::Layer& layer)
{
  Data row = object();
  row.set("dataset", dataset_label(entry));
  row.set("formula", layer.params ? util::format_thousands(*layer.params) : k_missing);
  row.set("flag", figure_flag(site, entry.data, layer.name, FlaggedFigure::params, 0, "../"));
  row.set("counted", layer.params_counted ? util::format_thousands(*layer.params_counted) : k_missing);
  std::string verdict = "not counted in this dataset";
  if (layer.params && layer.params_counted) {
    const int64_t difference = *layer.params_counted - *layer.params;
    verdict = difference == 0 ? "match" : "differ by " + util::format_thousands(difference);
  }
  row.set("verdict", verdict);
  return row;
}

enum class Measure { time, throughput };

LineChart layer_chart(const SiteData& site, const std::string& name, Measure measure)
{
  const bool throughput = measure == Measure::throughput;
  LineChart chart;
  chart.id = throughput ? "chart-throughput" : "chart-time";
  chart.title = name + (throughput ? ": throughput against batch size" : ": forward time against batch size");
  chart.description = throughput
    ? "Samples per second (batch size divided by the median time) at each batch size for one device (the dataset that stands for it, as in the table above), log-log axes shared by every panel; the other devices are the faint lines."
    : "Median milliseconds per forward pass of one batch at each batch size for one device (the dataset that stands for it, as in the table above), log-log axes shared by every panel; the other devices are the faint lines.";
  // Short enough for a phone-sized panel: the rotated label spans the plot's height only.
  chart.x_label = "batch size (log scale)";
  chart.y_label = throughput ? "samples/s (log scale)" : "ms per batch (log scale)";
  chart.whisker_label = k_quartile_whisker_label;
  for (size_t index : featured_per_device(site)) {
    const SiteDataset& entry = site.datasets[index];
    const bool reference = entry.data.kind == dataset::Kind::published_reference;
    ChartSeries series{dataset_label(entry), {}, reference ? Stroke::dashed : Stroke::solid};
    for (int batch : batch_sizes(entry.data)) {
      const auto ms = median_ms(entry.data, name, batch);
      if (ms && *ms > 0) {
        const dataset::Cell* cell = dataset::find_cell(entry.data, name, batch);
        series.points.push_back({static_cast<double>(batch), throughput ? batch * 1000.0 / *ms : *ms,
                                 throughput ? throughput_whisker(cell) : time_whisker(cell)});
      }
    }
    if (!series.points.empty()) {
      chart.series.push_back(std::move(series));
    }
  }
  return chart;
}

// One row per dataset of `shown` that has the layer.
Data dataset_rows(const SiteData& site, const std::string& name, const std::vector<int>& batches, const std::vector<size_t>& shown)
{
  const int headed_batch = dataset::reference_batch(site.datasets[site.featured].data);
  Data rows = list();
  for (size_t index : shown) {
    const SiteDataset& entry = site.datasets[index];
    const dataset::Layer* layer = dataset::find_layer(entry.data, name);
    if (!layer) {
      continue;
    }
    Data row = object();
    row.set("dataset", dataset_label(entry));
    row.set("heading", dataset_label(entry));
    row.set("href", "../" + dataset_path(entry));
    Data times = list();
    for (int batch : batches) {
      times.push_back(flagged_time_cell(site, entry.data, name, batch, "../"));
    }
    row.set("times", times);
    Data misses = noise_miss_note(entry.data, name);
    if (!misses.is_false()) {
      misses.set("dataset", dataset_label(entry));
    }
    row.set("noise_misses", misses);
    // The columns are headed with the featured dataset's batch size; a dataset that did not measure it
    // gives its own, and says so in the cell.
    const int batch = dataset::reference_batch(entry.data);
    const std::string other_batch = batch == headed_batch ? "" : " at BS=" + std::to_string(batch);
    const dataset::Cell* at_batch = dataset::find_cell(entry.data, name, batch);
    set_memory(row, entry, at_batch, "../", other_batch);
    row.set("memory_flag", figure_flag(site, entry.data, name, FlaggedFigure::memory, batch, "../"));
    row.set("throughput", at_batch && at_batch->throughput_samples_per_s ? util::format_rate(*at_batch->throughput_samples_per_s, "samples/s") + other_batch : k_missing);
    row.set("speed", speed_class_text(entry.data, *layer));
    rows.push_back(row);
  }
  return rows;
}

// A CUDA cell's variants (schema 1.3.0) in words: "0.31×" or why there is none.
std::string variant_text(const std::optional<double>& ratio, const std::string& skip_reason)
{
  if (ratio) {
    return ratio_text(*ratio);
  }
  return skip_reason.empty() ? k_missing : "none: " + skip_reason;
}

std::string clock_text(const dataset::CudaClocks& clocks)
{
  if (!clocks.sm_mean_mhz) {
    return clocks.unavailable_reason.empty() ? k_missing : "not read: " + clocks.unavailable_reason;
  }
  std::string text = util::format_thousands(std::llround(*clocks.sm_mean_mhz)) + " MHz";
  if (clocks.sm_default_mhz) {
    text += " of " + util::format_thousands(*clocks.sm_default_mhz);
  }
  if (clocks.dropped_samples > 0) {
    text += ", " + std::to_string(clocks.dropped_samples) + (clocks.dropped_samples == 1 ? " slow sample" : " slow samples")
            + " dropped";
  }
  for (const auto& reason : clocks.event_reasons) {
    text += ", " + reason;
  }
  return text;
}

// "a CPU", "a CUDA GPU": what a block of operators stands for.
std::string device_type_text(const Dataset& data)
{
  const std::string type = data.environment ? data.environment->device.type : "";
  if (type == "cuda") {
    return "a CUDA GPU";
  }
  return type.empty() ? "an unnamed device" : "a " + (type == "cpu" ? std::string("CPU") : type);
}

// The operators that ran in each cell of one dataset, the page faults where they are not ~0, and the
// CUDA variants and clocks where recorded; false when the dataset profiled nothing (files older than 1.2.0).
Data operators_block(const SiteDataset& entry, const std::string& name)
{
  Data cells = list();
  bool faults = false;
  bool cuda = false;
  for (const auto& cell : entry.data.results) {
    // The reference corner's: a dataset of settings would list each operator set once per corner.
    if (cell.layer != name || cell.operators.empty() || !cell.axes.is_reference()) {
      continue;
    }
    const double per_iteration = cell.page_faults_per_iteration.value_or(0);
    faults = faults || per_iteration >= k_page_faults_shown;
    Data view = object();
    view.set("batch", std::to_string(cell.batch_size));
    view.set("operators", operator_items(cell));
    view.set("page_faults", per_iteration >= k_page_faults_shown ? util::format_thousands(static_cast<int64_t>(std::llround(per_iteration))) : std::string("~0"));
    if (cell.cuda) {
      cuda = true;
      view.set("graph", variant_text(cell.cuda->graph_over_eager, cell.cuda->graph_skip_reason));
      view.set("cold", variant_text(cell.cuda->cold_over_hot, cell.cuda->cold_skip_reason));
      view.set("clock", clock_text(cell.cuda->clocks));
    }
    cells.push_back(view);
  }
  if (cells.is_empty_list()) {
    return Data(false);
  }
  Data block = object();
  block.set("dataset", dataset_label(entry));
  block.set("device_type", device_type_text(entry.data));
  block.set("anchor", "operators-" + entry.slug); // one block per dataset: ids must differ
  block.set("cells", cells);
  block.set("has_page_faults", Data(faults));
  block.set("has_cuda", Data(cuda));
  const dataset::Layer* layer = dataset::find_layer(entry.data, name);
  block.set("dispatch", layer && !layer->dispatch.empty() ? Data(layer->dispatch) : Data(false));
  return block;
}

// The operators that ran are the same on every dataset of one device type, so a page lists them
// once per type: from the featured dataset where it has them, else from the newest that has.
Data operator_blocks(const SiteData& site, const std::string& name)
{
  std::vector<size_t> order(site.datasets.size());
  for (size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if ((a == site.featured) != (b == site.featured)) {
      return a == site.featured;
    }
    return site.datasets[a].data.created > site.datasets[b].data.created;
  });
  Data blocks = list();
  std::vector<std::string> types;
  for (size_t index : order) {
    const SiteDataset& entry = site.datasets[index];
    const std::string type = device_type_text(entry.data);
    if (std::find(types.begin(), types.end(), type) != types.end()) {
      continue;
    }
    Data block = operators_block(entry, name);
    if (!block.is_false()) {
      types.push_back(type);
      blocks.push_back(block);
    }
  }
  return blocks;
}

std::vector<size_t> every_dataset(const SiteData& site)
{
  std::vector<size_t> all(site.datasets.size());
  for (size_t i = 0; i < all.size(); ++i) {
    all[i] = i;
  }
  return all;
}

} // namespace

PageSpec layer_page(const SiteData& site, const std::string& name, Data base)
{
  const SiteDataset* owner = nullptr;
  const dataset::Layer& layer = *definition(site, name, &owner);
  Data view = std::move(base);
  view.set("name", layer.name);
  view.set("module", layer.module.empty() ? k_missing : layer.module);
  view.set("config", layer.config.empty() ? k_missing : layer.config);
  view.set("input_shape", layer.input_shape.empty() ? k_missing : layer.input_shape);
  view.set("mode", dataset::to_string(layer.mode));
  view.set("definition_from", dataset_label(*owner));
  view.set("params_formula", layer.params_formula.empty() ? k_missing : layer.params_formula);
  view.set("params", layer.params ? util::format_thousands(*layer.params) : k_missing);
  view.set("flops_formula", layer.flops_formula.empty() ? k_missing : layer.flops_formula);
  view.set("flops", optional_count_text(layer.flops_per_sample));
  view.set("params_flag", figure_flag(site, owner->data, name, FlaggedFigure::params, 0, "../"));
  view.set("flops_flag", figure_flag(site, owner->data, name, FlaggedFigure::flops, 0, "../"));
  view.set("matmul_flops", optional_count_text(layer.matmul_flops_per_sample));
  view.set("bytes_formula", layer.bytes_formula.empty() ? k_missing : layer.bytes_formula);
  view.set("bytes_per_sample", layer.bytes_per_sample ? util::format_bytes(*layer.bytes_per_sample) : k_missing);
  view.set("bytes_fixed", layer.bytes_fixed ? util::format_bytes(*layer.bytes_fixed) : k_missing);
  Data roofline = layer_roofline_blocks(site, name);
  view.set("has_roofline", Data(!roofline.is_empty_list()));
  view.set("roofline_blocks", roofline);
  Data checks = list();
  for (const auto& entry : site.datasets) {
    if (const dataset::Layer* other = dataset::find_layer(entry.data, name)) {
      checks.push_back(params_check(site, entry, *other));
    }
  }
  view.set("checks", checks);
  view.set("time_chart", render_svg(layer_chart(site, name, Measure::time)));
  view.set("throughput_chart", render_svg(layer_chart(site, name, Measure::throughput)));
  const auto batches = batch_sizes(site.datasets[site.featured].data);
  Data headers = list();
  for (int batch : batches) {
    headers.push_back(Data(std::to_string(batch)));
  }
  view.set("batch_sizes", headers);
  // The answer: one row per device, the dataset that stands for it; every version of every dataset is folded below.
  view.set("answer_rows", dataset_rows(site, name, batches, featured_per_device(site)));
  view.set("rows", dataset_rows(site, name, batches, every_dataset(site)));
  view.set("row_heading", std::string("Dataset"));
  view.set("speed_rule", speed_rule_text(dataset::reference_batch(site.datasets[site.featured].data)));
  view.set("references", reference_issue_blocks(site, name));
  view.set("inconsistencies_href", std::string(k_inconsistencies_page));
  view.set("operator_blocks", operator_blocks(site, name));
  view.set("corner_blocks", corner_blocks(site, name));
  view.set("sweeps", sweep_blocks(site, name));
  return {"layer", layer_path(name), std::move(view), ""};
}

} // namespace layerbench::site
