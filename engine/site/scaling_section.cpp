// SPDX-License-Identifier: MIT
#include "site/scaling_section.hpp"

#include "dataset/scaling.hpp"
#include "site/model_answers.hpp"
#include "site/view_common.hpp"
#include "site/view_pages.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace layerbench::site {

namespace {

using dataset::Cell;

std::string factor_text(double factor) { return trimmed_significant(factor, 3); }

std::string factor_range_text(double low, double high) { return factor_text(low) + "–" + factor_text(high); }

// A range a source states ("0.90–0.95"), at the two figures it is given in.
std::string stated_range_text(double low, double high)
{
  return util::format_significant(low, 2) + "–" + util::format_significant(high, 2);
}

std::string rate_text(double samples_per_s) { return trimmed_significant(samples_per_s, 3); }

// Where the ranks shared one CPU, the row is a test of the path on its cores, not a figure for GPUs.
Data cpu_test(bool cpu, int cores)
{
  if (!cpu) {
    return Data(false);
  }
  return Data(cores > 0 ? util::format_count(cores, "core") : std::string("one CPU"));
}

Data measured_row(const std::string& model, const dataset::Axes& axes, const std::string& device, int world_size, int batch,
                  double one, double all, const std::string& factor, const std::string& range, double all_reduce_ms)
{
  Data row = object();
  row.set("model", model);
  row.set("href", model_path(model));
  row.set("setting", model_setting_label(axes));
  row.set("device", device);
  row.set("world_size", std::to_string(world_size));
  row.set("batch", std::to_string(batch));
  row.set("one", rate_text(one));
  row.set("all", rate_text(all));
  row.set("factor", factor);
  row.set("range", range);
  row.set("all_reduce", trimmed_significant(all_reduce_ms, 3));
  return row;
}

bool is_data_parallel(const Cell& cell) { return cell.data_parallel && cell.data_parallel->world_size > 1; }

// The published measured model datasets by device and torch release: a factor compares the runs of one.
std::map<std::pair<std::string, std::string>, std::vector<const SiteDataset*>> by_setup(const SiteData& site)
{
  std::map<std::pair<std::string, std::string>, std::vector<const SiteDataset*>> groups;
  for (const auto& entry : site.models) {
    if (entry.data.kind == dataset::Kind::measured && entry.data.environment && !replaced_on_site(site, entry)) {
      groups[{device_text(entry.data), entry.data.environment->torch_version}].push_back(&entry);
    }
  }
  return groups;
}

// Whether a data-parallel cell of the group has a one-process twin there, so that dataset::scaling has
// a row to give (it refuses files where nothing pairs).
bool pairs_in(const std::vector<const SiteDataset*>& group)
{
  for (const SiteDataset* entry : group) {
    for (const auto& cell : entry->data.results) {
      if (!is_data_parallel(cell)) {
        continue;
      }
      for (const SiteDataset* other : group) {
        const Cell* twin = dataset::find_cell(other->data, cell.layer, cell.batch_size, cell.axes);
        if (twin && !is_data_parallel(*twin) && samples_per_second(*twin)) {
          return true;
        }
      }
    }
  }
  return false;
}

// Factors computed from the published datasets, as `layerbench scaling` computes them.
void rows_from_datasets(const SiteData& site, Data& rows, bool& gpu)
{
  for (const auto& [setup, group] : by_setup(site)) {
    if (!pairs_in(group)) {
      continue;
    }
    std::vector<dataset::NamedDataset> named;
    std::string sources;
    for (const SiteDataset* entry : group) {
      named.push_back({dataset_label(*entry), &entry->data});
      sources += (sources.empty() ? "" : ", ") + dataset_label(*entry);
    }
    const SiteDataset& first = *group.front();
    const bool cuda = on_cuda(first.data);
    gpu = gpu || cuda;
    for (const auto& row : dataset::scaling(named)) {
      Data view = measured_row(row.layer, row.axes, setup.first, row.world_size, row.batch_per_rank, row.single_throughput,
                               row.ranks_throughput, factor_text(row.factor), factor_range_text(row.factor_low, row.factor_high),
                               row.all_reduce_median_ms);
      view.set("cpu_test", cpu_test(!cuda, first.data.environment->logical_cores));
      view.set("datasets", sources);
      view.set("command", Data(false));
      view.set("note", Data(false));
      rows.push_back(view);
    }
  }
}

void rows_from_file(const dataset::ScalingReference& file, Data& rows, bool& gpu)
{
  for (const auto& row : file.measured) {
    const bool cuda = row.device_type == "cuda";
    gpu = gpu || cuda;
    Data view = measured_row(row.model, row.axes, row.device, row.world_size, row.batch_per_rank, row.one_process_samples_per_s,
                             row.all_ranks_samples_per_s, factor_text(row.factor), factor_range_text(row.factor_low, row.factor_high),
                             row.all_reduce_ms);
    view.set("cpu_test", cpu_test(!cuda, row.cores));
    view.set("datasets", Data(false));
    Data command = object();
    command.set("date", row.date);
    command.set("line", row.command);
    view.set("command", command);
    view.set("note", Data(row.note));
    rows.push_back(view);
  }
}

Data source_view(const dataset::ScalingSource& source)
{
  Data view = object();
  view.set("title", source.title);
  view.set("url", source.url.empty() ? Data(false) : Data(source.url));
  view.set("note", source.note.empty() ? Data(false) : Data(source.note));
  return view;
}

Data published_rows(const dataset::ScalingReference& file)
{
  Data rows = list();
  for (const auto& row : file.published) {
    Data view = object();
    view.set("model", row.model);
    view.set("setting", row.setting);
    view.set("device", row.device);
    if (row.one_samples_per_s && row.all_samples_per_s) {
      view.set("devices", std::to_string(row.devices));
      view.set("factor", factor_text(*row.all_samples_per_s / (row.devices * *row.one_samples_per_s)));
      view.set("how", util::format_thousands(static_cast<int64_t>(*row.all_samples_per_s)) + " samples/s on "
                        + std::to_string(row.devices) + " against " + util::format_thousands(static_cast<int64_t>(*row.one_samples_per_s))
                        + " on one");
    } else {
      view.set("devices", std::string(k_missing));
      view.set("factor", stated_range_text(*row.factor_low, *row.factor_high));
      view.set("how", std::string("as the source states it"));
    }
    view.set("source", source_view(row.source));
    rows.push_back(view);
  }
  return rows;
}

// Each source's note once: rows from one table share it.
Data published_notes(const dataset::ScalingReference& file)
{
  Data notes = list();
  std::vector<std::pair<std::string, std::string>> seen;
  for (const auto& row : file.published) {
    const std::pair<std::string, std::string> key{row.source.title, row.source.note};
    if (row.source.note.empty() || std::find(seen.begin(), seen.end(), key) != seen.end()) {
      continue;
    }
    seen.push_back(key);
    Data note = object();
    note.set("title", key.first);
    note.set("note", key.second);
    notes.push_back(note);
  }
  return notes;
}

// The model's parameter count, from the first dataset that gives it.
std::optional<int64_t> parameters_of(const SiteData& site, const std::string& model)
{
  for (const auto& entry : site.models) {
    const auto* layer = dataset::find_layer(entry.data, model);
    if (layer && layer->params) {
      return layer->params;
    }
  }
  return std::nullopt;
}

// docs/scale.md's model: a ring all-reduce of S bytes over N devices moves 2(N-1)/N x S each way
// through each device's link, so without overlap a step of T takes T + t, and the factor is T / (T + t).
// The steps are a transcribed reference's training cells of the model: {columns, rows, ...}; false
// where the site lacks the parameters or a step.
Data all_reduce_model(const SiteData& site, const dataset::AllReduceModel& model)
{
  const auto parameters = parameters_of(site, model.model);
  std::vector<std::pair<const SiteDataset*, const Cell*>> steps;
  for (const auto& entry : site.models) {
    if (entry.data.kind != dataset::Kind::published_reference) {
      continue;
    }
    for (const auto& cell : entry.data.results) {
      if (cell.layer == model.model && cell.axes[dataset::k_mode] == dataset::GradMode::train && samples_per_second(cell)) {
        steps.emplace_back(&entry, &cell);
      }
    }
  }
  if (!parameters || steps.empty() || model.links.empty()) {
    return Data(false);
  }
  const double bytes = static_cast<double>(*parameters) * model.gradient_bytes_per_parameter;
  const double moved = 2.0 * (model.devices - 1) / model.devices * bytes;
  Data columns = list();
  for (const auto& [entry, cell] : steps) {
    columns.push_back(Data(dataset_label(*entry) + ": " + model_setting_label(cell->axes) + ", batch " + std::to_string(cell->batch_size)
                           + ", " + trimmed_significant(cell->stats->median_ms, 4) + " ms per step"));
  }
  Data rows = list();
  Data sources = list();
  for (const auto& link : model.links) {
    const double seconds = moved / (link.bidirectional_bytes_per_s / 2);
    Data factors = list();
    for (const auto& [entry, cell] : steps) {
      const double step = cell->stats->median_ms / 1000.0;
      factors.push_back(Data(factor_text(step / (step + seconds))));
    }
    Data row = object();
    row.set("link", link.name);
    row.set("per_direction", util::format_rate(link.bidirectional_bytes_per_s / 2, "B/s"));
    row.set("time", trimmed_significant(seconds * 1000.0, 3) + " ms");
    row.set("factors", factors);
    rows.push_back(row);
    Data source = source_view(link.source);
    source.set("link", link.name);
    sources.push_back(source);
  }
  Data view = object();
  view.set("model", model.model);
  view.set("href", model_path(model.model));
  view.set("devices", std::to_string(model.devices));
  view.set("parameters", util::format_thousands(*parameters));
  view.set("gradients", util::format_rate(bytes, "B"));
  view.set("moved", util::format_rate(moved, "B"));
  view.set("share", trimmed_significant(2.0 * (model.devices - 1) / model.devices, 3));
  view.set("columns", columns);
  view.set("rows", rows);
  view.set("sources", sources);
  return view;
}

} // namespace

Data scaling_section(const SiteData& site)
{
  Data measured = list();
  bool gpu = false;
  rows_from_datasets(site, measured, gpu);
  if (site.scaling_reference) {
    rows_from_file(*site.scaling_reference, measured, gpu);
  }
  if (measured.is_empty_list() && !site.scaling_reference) {
    return Data(false);
  }
  Data view = object();
  view.set("measured", measured);
  view.set("has_measured", Data(!measured.is_empty_list()));
  view.set("has_gpu", Data(gpu));
  const Data published = site.scaling_reference ? published_rows(*site.scaling_reference) : list();
  view.set("has_published", Data(!published.is_empty_list()));
  view.set("published", published);
  view.set("published_notes", site.scaling_reference ? published_notes(*site.scaling_reference) : list());
  const auto* model = site.scaling_reference && site.scaling_reference->all_reduce_model ? &*site.scaling_reference->all_reduce_model
                                                                                          : nullptr;
  view.set("model", model ? all_reduce_model(site, *model) : Data(false));
  return view;
}

} // namespace layerbench::site
