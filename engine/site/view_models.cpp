// SPDX-License-Identifier: MIT
// The models pages: whole models (ResNet-50, BERT) measured beside the layers. The index lists each
// model; a model's page gives its throughput by setting in each dataset that measured it, the skipped
// cells with their reasons, the operators that dominate its profiled cells, its inventory of layers and
// its train step, with published figures beside them as labelled references, never mixed in.

#include "site/cell_whisker.hpp"
#include "site/chart.hpp"
#include "site/memory_figure.hpp"
#include "site/model_answers.hpp"
#include "site/reference_beside.hpp"
#include "site/release_chart.hpp"
#include "site/scaling_section.hpp"
#include "site/setting_words.hpp"
#include "site/view_common.hpp"
#include "site/view_pages.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <set>

namespace layerbench::site {

namespace {

using dataset::Axes;
using dataset::Cell;
using dataset::Dataset;

std::string sample_unit(const dataset::Layer& model) { return model_sample_unit(model); }

std::string setting_label(const Axes& axes) { return model_setting_label(axes); }

bool is_train(const Axes& axes) { return axes[dataset::k_mode] == dataset::GradMode::train; }

std::string unit_of_work(const Axes& axes) { return is_train(axes) ? "step" : "forward"; }

std::vector<const Cell*> model_cells(const Dataset& data, const std::string& model)
{
  std::vector<const Cell*> cells;
  for (const auto& cell : data.results) {
    if (cell.layer == model) {
      cells.push_back(&cell);
    }
  }
  return cells;
}

// The settings measured, inference before training, then in the cube's order.
std::vector<Axes> settings_of(const std::vector<const Cell*>& cells)
{
  std::vector<Axes> settings;
  for (const Cell* cell : cells) {
    if (std::find(settings.begin(), settings.end(), cell->axes) == settings.end()) {
      settings.push_back(cell->axes);
    }
  }
  std::sort(settings.begin(), settings.end(), [](const Axes& a, const Axes& b) {
    return a[dataset::k_mode] != b[dataset::k_mode] ? a[dataset::k_mode] < b[dataset::k_mode] : a < b;
  });
  return settings;
}

std::vector<int> batches_of(const std::vector<const Cell*>& cells)
{
  std::set<int> batches;
  for (const Cell* cell : cells) {
    batches.insert(cell->batch_size);
  }
  return {batches.begin(), batches.end()};
}

Data setting_headers(const std::vector<Axes>& settings)
{
  Data headers = list();
  for (const auto& axes : settings) {
    headers.push_back(Data(setting_label(axes)));
  }
  return headers;
}

// One table cell: {throughput, median, skipped}.
Data throughput_cell(const Dataset& data, const Cell* cell)
{
  Data view = object();
  view.set("skipped", Data(cell && cell->status == dataset::CellStatus::skipped));
  view.set("throughput", cell_throughput_text(data, cell));
  const bool timed = cell && cell->status == dataset::CellStatus::ok && cell->stats;
  view.set("median", timed ? cell_median_text(data, cell) + " ms per " + unit_of_work(cell->axes) : std::string(""));
  return view;
}

// A cell that the Python worker measured (compiled=torch_compile), labelled with what ran it.
std::string runtime_text(const dataset::WorkerRuntime& runtime)
{
  std::string text = "measured by LayerBench's Python worker (Python " + runtime.python + ", PyTorch " + runtime.torch;
  if (runtime.compile_seconds) {
    text += "; compiling took " + trimmed_significant(*runtime.compile_seconds, 3) + " s, outside the timed steps";
  }
  return text + ")";
}

// What the table has no room for, per timed cell: {label, spread, memory, runtime}.
Data cell_details(const SiteDataset& entry, const std::vector<const Cell*>& cells)
{
  const Dataset& data = entry.data;
  Data items = list();
  for (const Cell* cell : cells) {
    if (cell->status != dataset::CellStatus::ok || !cell->stats) {
      continue;
    }
    Data item = object();
    item.set("label", setting_label(cell->axes) + " at batch " + std::to_string(cell->batch_size));
    item.set("median", cell_median_text(data, cell) + " ms per " + unit_of_work(cell->axes));
    item.set("spread", cell_spread_text(data, cell));
    set_memory(item, entry, cell, "../");
    item.set("runtime", cell->runtime ? Data(runtime_text(*cell->runtime)) : Data(false));
    items.push_back(item);
  }
  return items;
}

Data throughput_rows(const Dataset& data, const std::string& model, const std::vector<Axes>& settings, const std::vector<int>& batches)
{
  Data rows = list();
  for (int batch : batches) {
    Data cells = list();
    for (const auto& axes : settings) {
      cells.push_back(throughput_cell(data, dataset::find_cell(data, model, batch, axes)));
    }
    Data row = object();
    row.set("batch", std::to_string(batch));
    row.set("cells", cells);
    rows.push_back(row);
  }
  return rows;
}

Data skipped_items(const std::vector<const Cell*>& cells)
{
  Data items = list();
  for (const Cell* cell : cells) {
    if (cell->status == dataset::CellStatus::skipped) {
      items.push_back(labelled(setting_label(cell->axes) + " at batch " + std::to_string(cell->batch_size), reader_prose(cell->skip_reason)));
    }
  }
  return items;
}

// Every setting against the one that differs from it in a single axis (not the mode) set to its
// reference value, at each batch where both cells were timed: "bf16 is 1.8× (1.7–1.9×) the fp32
// throughput for training at batch 8". No sentence where either cell is skipped or missing.
Data comparisons(const Dataset& data, const std::string& model, const std::vector<Axes>& settings, const std::vector<int>& batches)
{
  Data sentences = list();
  for (const auto& axes : settings) {
    for (const auto& axis : dataset::axis_table()) {
      Axes base = axes;
      dataset::set_axis(base, axis.name, axis.values.front());
      if (axis.name == "mode" || base == axes || std::find(settings.begin(), settings.end(), base) == settings.end()) {
        continue;
      }
      for (int batch : batches) {
        const Cell* a = dataset::find_cell(data, model, batch, base);
        const Cell* b = dataset::find_cell(data, model, batch, axes);
        const std::string ratio = ratio_text(data, a, b); // base time over this one's: the throughput ratio
        if (ratio == k_missing) {
          continue;
        }
        const std::string mode = is_train(axes) ? "training" : "inference";
        sentences.push_back(Data(value_words(axis.name, dataset::axis_value(axes, axis.name)) + " is " + ratio + " the "
                                 + value_words(axis.name, dataset::axis_value(base, axis.name)) + " throughput for " + mode + " at batch "
                                 + std::to_string(batch) + " (" + setting_label(base) + " against " + setting_label(axes)
                                 + ")."));
      }
    }
  }
  return sentences;
}

// The profiled cells' heads: each cell's operators by their own share of the host's time, most first.
Data profile_items(const std::vector<const Cell*>& cells)
{
  Data items = list();
  for (const Cell* cell : cells) {
    if (cell->status != dataset::CellStatus::ok || cell->operators.empty()) {
      continue;
    }
    Cell head = *cell;
    std::stable_sort(head.operators.begin(), head.operators.end(),
                     [](const auto& a, const auto& b) { return a.self_cpu_fraction > b.self_cpu_fraction; });
    std::stable_sort(head.kernels.begin(), head.kernels.end(),
                     [](const auto& a, const auto& b) { return a.device_fraction > b.device_fraction; });
    head.operators.resize(std::min(head.operators.size(), k_top_operators));
    head.kernels.resize(std::min(head.kernels.size(), k_top_operators));
    Data item = object();
    item.set("setting", setting_label(cell->axes));
    item.set("batch", std::to_string(cell->batch_size));
    item.set("work", unit_of_work(cell->axes));
    item.set("operators", operator_items(head));
    items.push_back(item);
  }
  return items;
}

// Each setting's throughput at the largest batch size measured, as bars with their quartile whiskers:
// the table's answer at a glance. A setting without a time there has no bar, and the description says
// the table holds the rest.
std::string throughput_chart(const SiteDataset& entry, const dataset::Layer& model, const std::vector<Axes>& settings,
                             int batch)
{
  const Dataset& data = entry.data;
  BarChart chart;
  chart.id = "chart-" + entry.slug;
  chart.title = model.name + ": throughput of each setting at batch size " + std::to_string(batch);
  chart.description = "Throughput in " + sample_unit(model) + " of each setting at batch size " + std::to_string(batch) + " in "
                      + dataset_title(entry) + ", on a logarithmic scale; the table gives every batch size.";
  chart.value_label = sample_unit(model) + " (log scale)";
  chart.whisker_label = k_quartile_whisker_label;
  for (const auto& axes : settings) {
    const Cell* cell = dataset::find_cell(data, model.name, batch, axes);
    if (!cell || cell->status != dataset::CellStatus::ok || !cell->stats || !(cell->stats->median_ms > 0)) {
      continue;
    }
    chart.bars.push_back({setting_label(axes), *samples_per_second(*cell), cell_throughput_text(data, cell), throughput_whisker(cell)});
  }
  return render_svg(chart);
}

Data measured_block(const SiteDataset& entry, const dataset::Layer& model)
{
  const Dataset& data = entry.data;
  const auto cells = model_cells(data, model.name);
  const auto settings = settings_of(cells);
  const auto batches = batches_of(cells);
  Data block = dataset_summary(entry, "../");
  block.set("unit", sample_unit(model));
  block.set("headers", setting_headers(settings));
  block.set("rows", throughput_rows(data, model.name, settings, batches));
  block.set("chart", batches.empty() ? std::string("") : throughput_chart(entry, model, settings, batches.back()));
  block.set("details", cell_details(entry, cells));
  Data skipped = skipped_items(cells);
  block.set("has_skipped", Data(!skipped.is_empty_list()));
  block.set("skipped_cells", skipped);
  Data sentences = comparisons(data, model.name, settings, batches);
  block.set("has_comparisons", Data(!sentences.is_empty_list()));
  block.set("comparisons", sentences);
  Data profiles = profile_items(cells);
  block.set("has_profiles", Data(!profiles.is_empty_list()));
  block.set("profiles", profiles);
  block.set("top_operators", std::to_string(k_top_operators));
  block.set("commit", public_commit(data.provenance.git_commit));
  block.set("command", public_command(data.provenance.command_line));
  return block;
}

Data reference_rows(const Dataset& data, const std::string& model)
{
  Data rows = list();
  for (const Cell* cell : model_cells(data, model)) {
    Data row = object();
    row.set("setting", setting_label(cell->axes));
    row.set("batch", std::to_string(cell->batch_size));
    row.set("throughput", cell->status == dataset::CellStatus::skipped ? reader_prose(cell->skip_reason) : cell_throughput_text(data, cell));
    row.set("median", cell->status == dataset::CellStatus::ok ? cell_median_text(data, cell) : std::string(k_missing));
    rows.push_back(row);
  }
  return rows;
}

Data reference_block(const SiteDataset& entry, const dataset::Layer& model)
{
  const Dataset& data = entry.data;
  Data block = dataset_summary(entry, "../");
  block.set("unit", sample_unit(model));
  block.set("rows", reference_rows(data, model.name));
  const auto& source = data.provenance.source;
  block.set("source_title", source ? source->title : std::string(k_missing));
  block.set("source_address", source ? dataset::source_address(*source) : std::string(k_missing));
  block.set("source_url", source && !source->url.empty() ? Data(source->url) : Data(false));
  block.set("source_device", source && !source->device.empty() ? source->device : std::string(k_missing));
  block.set("source_software", source && !source->software.empty() ? source->software : std::string(k_missing));
  Data notes = list();
  for (const auto& note : source ? source->notes : std::vector<std::string>{}) {
    notes.push_back(Data(reader_prose(note)));
  }
  block.set("notes", notes);
  return block;
}

// The model's layers with their counts and share of its FLOPs per sample: from the first dataset that
// lists them, the measured ones first.
Data inventory(const std::vector<const dataset::Layer*>& definitions)
{
  const auto with = std::find_if(definitions.begin(), definitions.end(), [](const auto* layer) { return !layer->contains.empty(); });
  if (with == definitions.end()) {
    return Data(false);
  }
  double total = 0;
  for (const auto& use : (*with)->contains) {
    total += use.count * (use.matmul_flops_per_sample + use.elementwise_flops_per_sample);
  }
  Data rows = list();
  for (const auto& use : (*with)->contains) {
    const double flops = use.count * (use.matmul_flops_per_sample + use.elementwise_flops_per_sample);
    Data row = object();
    // An operation the catalog has no layer for is named by its ATen function
    // ("scaled_dot_product_attention"): a heading reads it in words.
    std::string operation = use.layer;
    std::replace(operation.begin(), operation.end(), '_', ' ');
    row.set("layer", operation);
    row.set("config", use.config);
    row.set("count", util::format_thousands(use.count));
    row.set("flops", util::format_si(flops));
    row.set("share", total > 0 ? percent_text(flops / total) : std::string(k_missing));
    rows.push_back(row);
  }
  Data view = object();
  view.set("rows", rows);
  view.set("total_flops", util::format_si(total));
  return view;
}

// The model's definition in each dataset that holds it, measured datasets first.
std::vector<const dataset::Layer*> definitions(const SiteData& site, const std::string& name)
{
  std::vector<const dataset::Layer*> found;
  for (const bool reference : {false, true}) {
    for (const auto& entry : site.models) {
      const auto* layer = dataset::find_layer(entry.data, name);
      if (layer && is_reference(entry) == reference) {
        found.push_back(layer);
      }
    }
  }
  return found;
}

Data describe(const dataset::Layer& model)
{
  Data view = object();
  view.set("name", model.name);
  view.set("href", model_path(model.name));
  view.set("module", model.module.empty() ? k_missing : model.module);
  view.set("config", model.config.empty() ? k_missing : model.config);
  view.set("input_shape", model.input_shape.empty() ? k_missing : model.input_shape);
  view.set("params", model.params ? util::format_thousands(*model.params) : k_missing);
  view.set("flops", model.flops_per_sample ? util::format_si(*model.flops_per_sample) : k_missing);
  view.set("unit", sample_unit(model));
  return view;
}

// The largest batch size at which any of `entries` timed (model, setting), and there the first such
// cell in the order of `entries`; {nullptr, nullptr} where none did.
std::pair<const SiteDataset*, const Cell*> largest_timed(const std::vector<const SiteDataset*>& entries, const std::string& model,
                                                         const Axes& axes)
{
  std::pair<const SiteDataset*, const Cell*> found{nullptr, nullptr};
  for (const SiteDataset* entry : entries) {
    for (const Cell* cell : model_cells(entry->data, model)) {
      if (cell->axes == axes && is_timed(cell) && (!found.second || cell->batch_size > found.second->batch_size)) {
        found = {entry, cell};
      }
    }
  }
  return found;
}

// One device's table at a glance: its newest torch release's model datasets, a row per model and a
// column per setting timed there, each cell at the largest batch size timed for it.
Data glance_table(const SiteData& site, const DeviceModels& device)
{
  const std::string release = *device.releases.rbegin();
  std::vector<const SiteDataset*> entries;
  std::vector<const Cell*> timed;
  for (const SiteDataset* entry : device.entries) {
    if (entry->data.environment->torch_version != release) {
      continue;
    }
    entries.push_back(entry);
    for (const auto& cell : entry->data.results) {
      if (is_timed(&cell)) {
        timed.push_back(&cell);
      }
    }
  }
  const auto settings = settings_of(timed);
  Data rows = list();
  // Each dataset the table draws on, with the columns it fills: a phone has no pointer to rest on a cell.
  std::vector<std::pair<const SiteDataset*, std::vector<std::string>>> sources;
  for (const auto& name : model_names(site)) {
    Data cells = list();
    const dataset::Layer* model = nullptr;
    for (const auto& axes : settings) {
      const auto found = largest_timed(entries, name, axes);
      const SiteDataset* entry = found.first;
      const Cell* cell = found.second;
      Data view = object();
      view.set("throughput", cell ? cell_throughput_text(entry->data, cell) : std::string(k_missing));
      view.set("batch", cell ? Data(std::to_string(cell->batch_size)) : Data(false));
      cells.push_back(view);
      if (!entry) {
        continue;
      }
      model = dataset::find_layer(entry->data, name);
      auto source = std::find_if(sources.begin(), sources.end(), [&](const auto& s) { return s.first == entry; });
      if (source == sources.end()) {
        sources.push_back({entry, {}});
        source = sources.end() - 1;
      }
      if (std::find(source->second.begin(), source->second.end(), setting_label(axes)) == source->second.end()) {
        source->second.push_back(setting_label(axes));
      }
    }
    if (!model) {
      continue;
    }
    Data row = object();
    row.set("name", name);
    row.set("href", model_path(name));
    row.set("unit", sample_unit(*model));
    row.set("cells", cells);
    rows.push_back(row);
  }
  Data links = list();
  for (const auto& [entry, columns] : sources) {
    Data item = link(dataset_path(*entry), dataset_label(*entry));
    std::string text;
    for (const auto& column : columns) {
      text += (text.empty() ? "" : "; ") + column; // a label holds commas
    }
    item.set("columns", text);
    links.push_back(item);
  }
  Data table = object();
  table.set("device", device_words(device));
  table.set("release", release);
  table.set("headers", setting_headers(settings));
  table.set("rows", rows);
  table.set("sources", links);
  return table;
}

// The numbers the models page opens with (issue 38): for each device, samples per second of each model
// and setting on its newest torch release, so a reader sees throughput before any list of files.
// Measured datasets only, none that a newer version replaces; a reference's figures have their own
// table and conditions.
Data glance_tables(const SiteData& site)
{
  Data tables = list();
  for (const auto& device : models_by_device(site)) {
    Data table = glance_table(site, device);
    if (!table.get("rows")->is_empty_list()) {
      tables.push_back(table);
    }
  }
  return tables;
}

} // namespace

// The mode and precision always, any other axis where it is not the reference value, so a compiled
// value shows whatever it is called ("inference mode, fp32, AOTInductor").
std::string model_setting_label(const Axes& axes)
{
  std::string text = value_words("mode", dataset::axis_value(axes, "mode"));
  for (const auto& axis : dataset::axis_table()) {
    const std::string value = dataset::axis_value(axes, axis.name);
    if (axis.name == "precision" || (axis.name != "mode" && value != axis.values.front())) {
      text += ", " + value_words(axis.name, value);
    }
  }
  return text;
}

std::string model_path(const std::string& model) { return "models/" + model + ".html"; }

std::vector<std::string> model_names(const SiteData& site)
{
  std::vector<std::string> names;
  for (const auto& entry : site.models) {
    for (const auto& layer : entry.data.layers) {
      if (std::find(names.begin(), names.end(), layer.name) == names.end()) {
        names.push_back(layer.name);
      }
    }
  }
  return names;
}

PageSpec model_page(const SiteData& site, const std::string& name, Data base)
{
  const auto defined = definitions(site, name);
  base.set("model", describe(*defined.front()));
  Data measured = list();
  Data references = list();
  for (const auto& entry : site.models) {
    const auto* model = dataset::find_layer(entry.data, name);
    if (model && is_reference(entry)) {
      references.push_back(reference_block(entry, *model));
    } else if (model) {
      measured.push_back(measured_block(entry, *model));
    }
  }
  base.set("has_measured", Data(!measured.is_empty_list()));
  base.set("measured", measured);
  base.set("has_references", Data(!references.is_empty_list()));
  base.set("references", references);
  base.set("inventory", inventory(defined));
  const auto with_step = std::find_if(defined.begin(), defined.end(), [](const auto* layer) { return !layer->train_step.empty(); });
  base.set("train_step", with_step == defined.end() ? Data(false) : Data((*with_step)->train_step));
  // The template closes this section with an empty inverted one on the same line: the mustache library
  // prints the line after a false section, and the committed site has no such blank line.
  Data sums = layer_sum_blocks(site, name);
  base.set("has_layer_sums", Data(!sums.is_empty_list()));
  base.set("layer_sums", sums);
  base.set("beside_reference", reference_beside(site, name));
  base.set("answers", model_answers(site, name));
  base.set("releases", release_chart_section(site, name, "../"));
  return {"model", model_path(name), std::move(base), ""};
}

PageSpec models_page(const SiteData& site, Data base)
{
  Data measured = list();
  Data references = list();
  for (const auto& entry : site.models) {
    for (const auto& model : entry.data.layers) {
      // What was timed: a setting or batch size whose every cell was skipped is left out of the summary.
      auto cells = model_cells(entry.data, model.name);
      cells.erase(std::remove_if(cells.begin(), cells.end(), [](const Cell* cell) { return cell->status != dataset::CellStatus::ok; }),
                  cells.end());
      Data row = describe(model);
      row.set("dataset", dataset_label(entry));
      row.set("dataset_href", dataset_path(entry));
      row.set("device", device_text(entry.data));
      std::string settings;
      for (const auto& axes : settings_of(cells)) {
        settings += (settings.empty() ? "" : "; ") + setting_label(axes); // a label holds commas
      }
      std::string batches;
      for (int batch : batches_of(cells)) {
        batches += (batches.empty() ? "" : ", ") + std::to_string(batch);
      }
      row.set("settings", settings.empty() ? std::string(k_missing) : settings);
      row.set("batches", batches.empty() ? std::string(k_missing) : batches);
      (is_reference(entry) ? references : measured).push_back(row);
    }
  }
  base.set("has_measured", Data(!measured.is_empty_list()));
  base.set("measured", measured);
  base.set("glance", glance_tables(site));
  base.set("releases", release_chart_section(site, "", ""));
  base.set("has_references", Data(!references.is_empty_list()));
  base.set("references", references);
  base.set("beside_reference", reference_beside(site, ""));
  base.set("scaling", scaling_section(site));
  return {"models", "models.html", std::move(base), ""};
}

} // namespace layerbench::site
