// SPDX-License-Identifier: MIT
#include "site/release_chart.hpp"

#include "site/cell_whisker.hpp"
#include "site/chart.hpp"
#include "site/model_answers.hpp"
#include "site/setting_words.hpp"
#include "site/view_common.hpp"
#include "site/view_pages.hpp"

#include <algorithm>
#include <set>

namespace layerbench::site {

namespace {

using dataset::Cell;
using dataset::Compiled;
using dataset::Precision;

// The corner a figure's bar is: training, this precision and compiled form, every other axis at its
// reference value (a channels-last cell is another figure's question).
dataset::Axes training_axes(Precision precision, Compiled compiled)
{
  dataset::Axes axes;
  axes.set(dataset::k_mode, dataset::GradMode::train);
  axes.set(dataset::k_precision, precision);
  axes.set(dataset::k_compiled, compiled);
  return axes;
}

bool is_figure_cell(const Cell& cell, const std::string& model)
{
  return cell.layer == model && cell.axes[dataset::k_mode] == dataset::GradMode::train
         && cell.axes == training_axes(cell.axes[dataset::k_precision], cell.axes[dataset::k_compiled]);
}

// The bars of one release: each setting's newest timed cell among the release's datasets, else its
// newest skipped one. A device's releases measured together (bench/versions/measure.sh, the rounds
// taken in turns) are its newest dataset of each release, so the eager bars compare that series, not
// an older single run that happens to hold a compiled cell too. Between datasets created at the same
// moment, one with every setting timed comes first, so that a compiled bar and its eager one are of one
// run. The table under the chart names each bar's dataset.
std::vector<ReleaseBar> release_bars(const DeviceModels& device, const ReleaseFigure& figure, const std::string& release)
{
  const auto cell_in = [&](const SiteDataset* entry, Compiled compiled) {
    return dataset::find_cell(entry->data, figure.model, figure.batch, training_axes(figure.precision, compiled));
  };
  const auto has_every_setting = [&](const SiteDataset* entry) {
    return std::all_of(figure.settings.begin(), figure.settings.end(), [&](Compiled c) { return is_timed(cell_in(entry, c)); });
  };
  std::vector<const SiteDataset*> entries;
  for (const SiteDataset* entry : device.entries) {
    if (entry->data.environment->torch_version == release) {
      entries.push_back(entry);
    }
  }
  std::stable_sort(entries.begin(), entries.end(), [&](const SiteDataset* a, const SiteDataset* b) {
    if (a->data.created != b->data.created) {
      return a->data.created > b->data.created;
    }
    return has_every_setting(a) && !has_every_setting(b);
  });
  std::vector<ReleaseBar> bars;
  for (Compiled compiled : figure.settings) {
    ReleaseBar found;
    for (const SiteDataset* entry : entries) {
      const Cell* cell = cell_in(entry, compiled);
      if (cell && (is_timed(cell) || !found.cell)) {
        found = {entry, cell};
      }
      if (is_timed(cell)) {
        break;
      }
    }
    bars.push_back(found);
  }
  return bars;
}

// The figures of one model on one device: one per precision with a timed training cell.
std::vector<ReleaseFigure> device_figures(const DeviceModels& device, const dataset::Layer& model)
{
  std::set<Precision> precisions;
  std::set<std::pair<Precision, Compiled>> measured;
  for (const SiteDataset* entry : device.entries) {
    for (const auto& cell : entry->data.results) {
      if (is_figure_cell(cell, model.name)) {
        measured.insert({cell.axes[dataset::k_precision], cell.axes[dataset::k_compiled]});
        if (is_timed(&cell)) {
          precisions.insert(cell.axes[dataset::k_precision]);
        }
      }
    }
  }
  std::vector<ReleaseFigure> figures;
  for (Precision precision : precisions) {
    ReleaseFigure figure;
    figure.device = device_words(device);
    figure.model = model.name;
    figure.unit = model_sample_unit(model);
    figure.precision = precision;
    for (const auto& [p, compiled] : measured) {
      if (p == precision) {
        figure.settings.push_back(compiled);
      }
    }
    // eager is the enum's first value: the set's order puts it first.
    for (const SiteDataset* entry : device.entries) {
      for (const auto& cell : entry->data.results) {
        if (is_figure_cell(cell, model.name) && cell.axes[dataset::k_precision] == precision && is_timed(&cell)) {
          figure.batch = std::max(figure.batch, cell.batch_size);
        }
      }
    }
    for (const auto& release : device.releases) {
      figure.releases.push_back(release);
      figure.bars.push_back(release_bars(device, figure, release));
    }
    figures.push_back(std::move(figure));
  }
  return figures;
}

std::string precision_words(Precision precision) { return value_words("precision", dataset::to_string(precision)); }

std::string compiled_words(Compiled compiled) { return value_words("compiled", dataset::to_string(compiled)); }

// Why a bar is not drawn: its cell's skip reason, else that it was not measured.
std::string missing_text(const ReleaseFigure& figure, const ReleaseBar& bar)
{
  if (bar.cell && bar.cell->status == dataset::CellStatus::skipped) {
    return "skipped: " + reader_prose(bar.cell->skip_reason);
  }
  return "not measured at batch size " + std::to_string(figure.batch);
}

std::string whisker_label(const ReleaseFigure& figure)
{
  std::set<IntervalSource> sources;
  for (const auto& release : figure.bars) {
    for (const auto& bar : release) {
      if (is_timed(bar.cell)) {
        sources.insert(interval_source(bar.cell));
      }
    }
  }
  sources.erase(IntervalSource::none);
  if (sources.size() > 1) {
    return "Whiskers: 95% interval, or quartiles";
  }
  return sources.count(IntervalSource::rounds) ? "Whiskers: 95% interval of the rounds" : k_quartile_whisker_label;
}

std::string heading(const ReleaseFigure& figure)
{
  return figure.model + ", " + precision_words(figure.precision) + " training on " + figure.device;
}

// The figures in words for a screen reader: every bar's number, or why it has none.
std::string described(const ReleaseFigure& figure)
{
  std::string text = "Training throughput of " + figure.model + " in " + precision_words(figure.precision) + " on " + figure.device
                     + " at batch size " + std::to_string(figure.batch) + ", in " + figure.unit + ", per torch release:";
  for (size_t r = 0; r < figure.releases.size(); ++r) {
    text += (r == 0 ? " " : "; ") + figure.releases[r] + ":";
    for (size_t s = 0; s < figure.settings.size(); ++s) {
      const ReleaseBar& bar = figure.bars[r][s];
      const std::string value = is_timed(bar.cell) ? cell_throughput_text(bar.entry->data, bar.cell) : missing_text(figure, bar);
      text += (s == 0 ? " " : ", ") + compiled_words(figure.settings[s]) + " " + value;
    }
  }
  return text + ". A table under the charts gives the same figures.";
}

Data table_rows(const ReleaseFigure& figure, const std::string& root)
{
  Data rows = list();
  for (size_t r = 0; r < figure.releases.size(); ++r) {
    for (size_t s = 0; s < figure.settings.size(); ++s) {
      const ReleaseBar& bar = figure.bars[r][s];
      Data row = object();
      row.set("release", figure.releases[r]);
      row.set("setting", compiled_words(figure.settings[s]));
      row.set("batch", std::to_string(figure.batch));
      const bool timed = is_timed(bar.cell);
      row.set("timed", Data(timed));
      row.set("throughput", timed ? cell_throughput_text(bar.entry->data, bar.cell) : std::string(""));
      const auto interval = timed ? throughput_interval(bar.cell, figure.unit) : std::nullopt;
      row.set("interval", interval ? interval->text : std::string(k_missing));
      row.set("missing", timed ? std::string("") : missing_text(figure, bar));
      row.set("dataset", bar.entry ? Data(link(root + dataset_path(*bar.entry), dataset_label(*bar.entry))) : Data(false));
      rows.push_back(row);
    }
  }
  return rows;
}

std::string caption(const ReleaseFigure& figure)
{
  std::string text = "Median " + figure.unit + " of one training step at batch size " + std::to_string(figure.batch)
                     + ", the largest this device trained " + figure.model + " at in " + precision_words(figure.precision)
                     + ", one group of bars per torch release.";
  if (figure.settings.size() > 1) {
    text += " Each bar is its setting's newest measurement on that release; the table names the dataset of each.";
  }
  return text;
}

} // namespace

std::vector<ReleaseFigure> release_figures(const SiteData& site, const std::string& model)
{
  std::vector<ReleaseFigure> figures;
  for (const auto& device : models_by_device(site)) {
    for (const auto& name : model_names(site)) {
      if (!model.empty() && name != model) {
        continue;
      }
      const dataset::Layer* found = nullptr;
      for (const SiteDataset* entry : device.entries) {
        found = found ? found : dataset::find_layer(entry->data, name);
      }
      if (!found) {
        continue;
      }
      for (auto& figure : device_figures(device, *found)) {
        figures.push_back(std::move(figure));
      }
    }
  }
  return figures;
}

std::string release_chart(const ReleaseFigure& figure, const std::string& id)
{
  GroupedBarChart chart;
  chart.id = id;
  chart.title = heading(figure) + ": " + figure.unit + " per torch release";
  chart.description = described(figure);
  chart.value_label = figure.unit + " at batch size " + std::to_string(figure.batch);
  chart.whisker_label = whisker_label(figure);
  for (Compiled compiled : figure.settings) {
    chart.series.push_back(compiled_words(compiled));
  }
  for (size_t r = 0; r < figure.releases.size(); ++r) {
    BarGroup group;
    group.label = "torch " + figure.releases[r];
    for (size_t s = 0; s < figure.settings.size(); ++s) {
      const ReleaseBar& bar = figure.bars[r][s];
      const std::string name = group.label + ", " + compiled_words(figure.settings[s]);
      if (!is_timed(bar.cell)) {
        group.bars.push_back({name, 0, bar.cell ? "skipped" : "not measured", std::nullopt});
        continue;
      }
      group.bars.push_back({name, *samples_per_second(*bar.cell), cell_throughput_text(bar.entry->data, bar.cell),
                            throughput_interval(bar.cell, figure.unit)});
    }
    chart.groups.push_back(group);
  }
  return render_svg(chart);
}

Data release_chart_section(const SiteData& site, const std::string& model, const std::string& root)
{
  Data devices = list();
  std::string current;
  Data figures = list();
  const auto flush = [&]() {
    if (current.empty()) {
      return;
    }
    Data device = object();
    device.set("device", current);
    device.set("anchor", "releases-" + std::to_string(devices.list_value().size() + 1));
    device.set("figures", figures);
    devices.push_back(device);
    figures = list();
  };
  for (const auto& figure : release_figures(site, model)) {
    if (figure.device != current) {
      flush();
      current = figure.device;
    }
    const std::string id = "releases-" + std::to_string(devices.list_value().size() + 1) + "-" + figure.model + "-"
                           + dataset::to_string(figure.precision);
    Data view = object();
    view.set("id", id);
    view.set("heading", heading(figure));
    view.set("href", root + model_path(figure.model));
    view.set("chart", release_chart(figure, id));
    view.set("caption", caption(figure));
    view.set("unit", figure.unit);
    view.set("rows", table_rows(figure, root));
    figures.push_back(view);
  }
  flush();
  if (devices.is_empty_list()) {
    return Data(false);
  }
  Data section = object();
  section.set("devices", devices);
  return section;
}

} // namespace layerbench::site
