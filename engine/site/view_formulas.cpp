// SPDX-License-Identifier: MIT
// The formulas page: every layer's parameter and FLOP formula on one page, with a note on what the
// formula leaves out and figures computed from the featured dataset.

#include "catalog/catalog.hpp"
#include "dataset/batch_sizes.hpp"
#include "site/figure_flag.hpp"
#include "site/view_common.hpp"
#include "site/view_pages.hpp"
#include "site/view_roofline.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <optional>

namespace layerbench::site {

namespace {

using dataset::Dataset;

using bench::LayerNote;
using bench::NoteClaim;

// LayerBench's note on a layer (catalog/catalog.cpp), or nullptr for a layer without one.
const LayerNote* note_of(const std::string& layer)
{
  const auto* entry = bench::find_entry(layer);
  return entry && !entry->note.text.empty() ? &entry->note : nullptr;
}

bool ran_operator(const Dataset& data, const std::string& layer, int batch, const std::string& name)
{
  const dataset::Cell* cell = dataset::find_cell(data, layer, batch);
  return cell && std::any_of(cell->operators.begin(), cell->operators.end(),
                             [&](const dataset::Operator& op) { return op.name == name; });
}

bool has_operators(const Dataset& data, const std::string& layer, int batch)
{
  const dataset::Cell* cell = dataset::find_cell(data, layer, batch);
  return cell && !cell->operators.empty();
}

// "At batch size 32: 3.81 ms, 1.23 GFLOP/s; 2.1× Conv2d's time, with 89% of its parameters."
std::string computed_text(const Dataset& data, const dataset::Layer& layer, const LayerNote* note)
{
  const int batch = dataset::reference_batch(data);
  const auto ms = median_ms(data, layer.name, batch);
  if (!ms) {
    return "";
  }
  std::string text = "At batch size " + std::to_string(batch) + ": " + median_text(data, layer.name, batch) + " ms";
  if (layer.flops_per_sample && *layer.flops_per_sample > 0) {
    text += ", " + util::format_rate(*layer.flops_per_sample * batch / (*ms / 1000.0), "FLOP/s");
  }
  if (layer.mode == dataset::LayerMode::train) {
    text += ", timed in train mode";
  }
  const dataset::Layer* other = note && !note->compare_to.empty() ? dataset::find_layer(data, note->compare_to) : nullptr;
  const auto other_ms = other ? median_ms(data, other->name, batch) : std::nullopt;
  if (other_ms) {
    text += "; " + ratio_text(*ms / *other_ms) + " " + other->name + "'s time";
    if (layer.params && other->params && *other->params > 0) {
      text += ", with " + trimmed_significant(100.0 * static_cast<double>(*layer.params) / static_cast<double>(*other->params), 3)
              + "% of its parameters";
    }
  }
  if (note && !note->operator_name.empty() && has_operators(data, layer.name, batch)) {
    text += std::string("; its recorded operators ") + (ran_operator(data, layer.name, batch, note->operator_name) ? "include " : "do not include ")
            + note->operator_name;
  }
  return text + ".";
}

// " At batch size 1 it is bound by memory bandwidth (...) and reached 61% of that roof: reading memory
// sets its time." Only while the cell at the smallest batch size is memory-bound and near its roof; above
// the roof (faster than the run's measured bandwidth) its bytes came from a cache, and it says so instead.
std::string memory_bound_text(const SiteData& site, const SiteDataset& entry, const dataset::Layer& layer)
{
  const auto batches = batch_sizes(entry.data);
  const auto roofs = roofs_of(site, entry);
  const dataset::Cell* cell = batches.empty() ? nullptr : dataset::find_cell(entry.data, layer.name, batches.front());
  const auto roofline = cell && roofs ? roofline_of(site, entry, *cell) : std::nullopt;
  if (!roofline || roofline->bound_by != dataset::Resource::memory || roofline->fraction < k_near_roof) {
    return "";
  }
  const std::string bound = " At batch size " + std::to_string(batches.front()) + " it is bound by memory bandwidth (its intensity, "
                            + intensity_text(roofline->intensity) + ", is below the ridge at "
                            + intensity_text(dataset::ridge_intensity(*roofs)) + ") and reached " + fraction_text(roofline->fraction)
                            + " of that roof";
  return bound + (roofline->fraction > 1.0 ? ", faster than this run measured memory to deliver, so its bytes came from a cache."
                                           : ": reading memory sets its time.");
}

std::string claim_text(const SiteData& site, const SiteDataset& entry, const dataset::Layer& layer, const LayerNote* note)
{
  switch (note ? note->claim : NoteClaim::none) {
  case NoteClaim::none:
    return "";
  case NoteClaim::memory_bound_at_smallest_batch:
    return memory_bound_text(site, entry, layer);
  }
  return "";
}

// The figure of every published reference that the site finds inconsistent for this layer, beside the
// dataset's own: {label, value, flag}; the dataset's own figure carries its mark itself (own_flag).
Data reference_figures(const SiteData& site, const SiteDataset& shown, const std::string& layer, FlaggedFigure figure)
{
  Data figures = list();
  for (const auto& entry : site.datasets) {
    const dataset::Layer* other = &entry == &shown ? nullptr : dataset::find_layer(entry.data, layer);
    Data flag = other ? figure_flag(site, entry.data, layer, figure, 0, "") : Data(false);
    if (flag.is_false()) {
      continue;
    }
    const bool params = figure == FlaggedFigure::params;
    std::string value = k_missing;
    if (params && other->params) {
      value = util::format_thousands(*other->params);
    } else if (!params && other->flops_per_sample) {
      value = util::format_si(*other->flops_per_sample);
    }
    flag.set("label", dataset_label(entry));
    flag.set("value", value);
    figures.push_back(flag);
  }
  return figures;
}

Data formula_row(const SiteData& site, const SiteDataset& entry, const dataset::Layer& layer)
{
  const Dataset& data = entry.data;
  const LayerNote* note = note_of(layer.name);
  Data row = object();
  row.set("name", layer.name);
  row.set("href", layer_path(layer.name));
  row.set("config", layer.config);
  row.set("params_formula", layer.params_formula.empty() ? std::string(k_missing) : layer.params_formula);
  row.set("params", layer.params ? util::format_thousands(*layer.params) : k_missing);
  row.set("flops_formula", layer.flops_formula.empty() ? std::string(k_missing) : layer.flops_formula);
  row.set("flops", layer.flops_per_sample ? util::format_si(*layer.flops_per_sample) : k_missing);
  row.set("params_flag", figure_flag(site, data, layer.name, FlaggedFigure::params, 0, ""));
  row.set("flops_flag", figure_flag(site, data, layer.name, FlaggedFigure::flops, 0, ""));
  row.set("reference_params", reference_figures(site, entry, layer.name, FlaggedFigure::params));
  row.set("reference_flops", reference_figures(site, entry, layer.name, FlaggedFigure::flops));
  row.set("note", note ? note->text : std::string(""));
  row.set("computed", computed_text(data, layer, note) + claim_text(site, entry, layer, note));
  return row;
}

} // namespace

PageSpec formulas_page(const SiteData& site, Data base)
{
  const SiteDataset& featured = site.datasets[site.featured];
  Data rows = list();
  for (const auto& layer : featured.data.layers) {
    rows.push_back(formula_row(site, featured, layer));
  }
  base.set("rows", rows);
  base.set("inconsistencies_href", std::string(k_inconsistencies_page));
  base.set("flop_convention", featured.data.methodology ? Data(featured.data.methodology->flop_convention) : Data(false));
  return {"formulas", "formulas.html", std::move(base), ""};
}

} // namespace layerbench::site
