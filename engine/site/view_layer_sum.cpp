// SPDX-License-Identifier: MIT
// A model measured against the sum of its layers (issue 25 item 3, docs/models.md "The layer sum"): in a
// dataset that measured a model and each of its layers at its own shapes (layers of kind model_layer),
// per setting and batch size the model's median beside the sum over its layers of count x median, their
// ratio with the range the spreads allow, the layers that dominate the sum, and the part of the gap that
// the profiles can account for. What the data cannot show is said to be not established.

#include "site/view_common.hpp"
#include "site/view_pages.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace layerbench::site {

namespace {

using dataset::Axes;
using dataset::Cell;
using dataset::Dataset;

// The most layers named as dominating one sum (the operators named as glue: k_top_operators).
constexpr size_t k_top_layers = 5;

struct Part
{
  const dataset::Layer* layer = nullptr;
  const Cell* cell = nullptr; // null where the dataset has no cell of it at this setting
};

// A cell's spread: its 95% interval over rounds where measured in rounds, else its sample quartiles.
std::optional<std::pair<double, double>> spread(const Cell& cell)
{
  if (cell.round_spread) {
    return std::make_pair(cell.round_spread->ci95_low_ms, cell.round_spread->ci95_high_ms);
  }
  if (cell.stats && cell.stats->p25_ms && cell.stats->p75_ms) {
    return std::make_pair(*cell.stats->p25_ms, *cell.stats->p75_ms);
  }
  return std::nullopt;
}

std::vector<const dataset::Layer*> parts_of(const Dataset& data, const std::string& model)
{
  std::vector<const dataset::Layer*> parts;
  for (const auto& layer : data.layers) {
    if (layer.kind == dataset::LayerKind::model_layer && layer.part_of && layer.part_of->model == model) {
      parts.push_back(&layer);
    }
  }
  return parts;
}

std::string ms(double value)
{
  return (value >= 1000 ? util::format_thousands(std::llround(value)) : trimmed_significant(value, 3)) + " ms";
}

// The layers with the largest count x median, most first, with their share of the sum.
Data dominant(const std::vector<Part>& parts, double sum)
{
  std::vector<std::pair<double, const dataset::Layer*>> shares;
  for (const auto& part : parts) {
    shares.emplace_back(part.layer->part_of->count * part.cell->stats->median_ms, part.layer);
  }
  std::stable_sort(shares.begin(), shares.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  Data items = list();
  for (size_t i = 0; i < std::min(shares.size(), k_top_layers); ++i) {
    const auto& [time, layer] = shares[i];
    items.push_back(labelled(layer->config + " ×" + std::to_string(layer->part_of->count),
                             ms(time) + ", " + percent_text(time / sum) + " of the sum"));
  }
  return items;
}

// Operator calls per name: the model's, and its layers' (count x each layer cell's calls).
std::map<std::string, double> calls_by_name(const std::vector<dataset::Operator>& operators, double times)
{
  std::map<std::string, double> calls;
  for (const auto& op : operators) {
    calls[op.name] += times * static_cast<double>(op.calls);
  }
  return calls;
}

// "aten::view ×10, aten::relu_ ×3": the first few names with their call counts, most first.
std::string calls_text(std::vector<std::pair<double, std::string>> calls)
{
  std::stable_sort(calls.begin(), calls.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string text;
  for (size_t i = 0; i < std::min(calls.size(), k_top_operators); ++i) {
    text += (text.empty() ? "" : ", ") + calls[i].second + " ×" + util::format_thousands(static_cast<int64_t>(calls[i].first));
  }
  return text + (calls.size() > k_top_operators ? ", …" : "");
}

// What the profiles show of the gap: the operator calls the model makes beyond its layers' (the views
// and reshapes between layers; in a training step the loss and the optimizer), with the share of its
// host time they took at its own mean time per call of each; and the calls its layers make beyond the
// model's, which fusion would explain but so would a layer cell's own handling of its input, so that
// fusion is established only where there are none. Not established where a profile is missing.
Data operator_conditions(const Cell& model, const std::vector<Part>& parts, double model_ms)
{
  Data sentences = list();
  if (model.operators.empty()
      || std::any_of(parts.begin(), parts.end(), [](const Part& part) { return part.cell->operators.empty(); })) {
    sentences.push_back(Data(std::string("Operator calls: not established (a profile of the model or of a layer is missing).")));
    return sentences;
  }
  std::map<std::string, double> layer_calls;
  for (const auto& part : parts) {
    for (const auto& [name, calls] : calls_by_name(part.cell->operators, part.layer->part_of->count)) {
      layer_calls[name] += calls;
    }
  }
  const auto model_calls = calls_by_name(model.operators, 1);
  double model_total = 0, layer_total = 0, extra_share = 0;
  std::vector<std::pair<double, std::string>> extra, fewer;
  for (const auto& op : model.operators) {
    const double beyond = static_cast<double>(op.calls) - layer_calls[op.name];
    if (beyond > 0) {
      extra_share += op.self_cpu_fraction * beyond / static_cast<double>(op.calls);
      extra.emplace_back(beyond, op.name);
    }
  }
  for (const auto& [name, calls] : model_calls) {
    model_total += calls;
  }
  for (const auto& [name, calls] : layer_calls) {
    layer_total += calls;
    const auto in_model = model_calls.find(name);
    const double beyond = calls - (in_model == model_calls.end() ? 0.0 : in_model->second);
    if (beyond > 0) {
      fewer.emplace_back(beyond, name);
    }
  }
  sentences.push_back(Data("Operator calls (profiles): the model makes " + util::format_thousands(static_cast<int64_t>(model_total))
                           + ", its layers " + util::format_thousands(static_cast<int64_t>(layer_total)) + " summed."));
  if (!extra.empty()) {
    sentences.push_back(Data("Calls the model makes beyond its layers: " + calls_text(extra)
                             + "; at the model's own mean time per call of each, " + percent_text(extra_share)
                             + " of its profiled host time, about " + ms(extra_share * model_ms) + "."));
  }
  sentences.push_back(Data(fewer.empty() ? std::string("Fusion: none; every operator call of the layers appears in the model's profile as often.")
                                         : "Calls the layers make beyond the model's: " + calls_text(fewer)
                                             + "; fusion: not established (a layer cell's own handling of its input would "
                                               "show the same)."));
  return sentences;
}

// A model cell's layers at its setting and batch size: those timed, and the names of those not.
struct LayerSum
{
  std::vector<Part> parts;
  std::vector<std::string> untimed;
  double sum = 0;
  bool complete = false; // the model and every layer timed
};

LayerSum layer_sum(const Dataset& data, const Cell& model, const std::vector<const dataset::Layer*>& layers)
{
  LayerSum result;
  for (const auto* layer : layers) {
    const Cell* cell = dataset::find_cell(data, layer->name, model.batch_size, model.axes);
    if (!is_timed(cell)) {
      result.untimed.push_back(layer->name);
      continue;
    }
    result.parts.push_back({layer, cell});
    result.sum += layer->part_of->count * cell->stats->median_ms;
  }
  result.complete = is_timed(&model) && result.untimed.empty() && !result.parts.empty();
  return result;
}

// One setting and batch size: {setting, batch, model, sum, ratio, range, complete, dominant, conditions}.
Data comparison_row(const Dataset& data, const Cell& model, const std::vector<const dataset::Layer*>& layers, const std::string& setting)
{
  Data row = object();
  row.set("setting", setting);
  row.set("batch", std::to_string(model.batch_size));
  row.set("model", is_timed(&model) ? cell_median_text(data, &model) + " ms" : std::string(k_missing));
  const LayerSum summed = layer_sum(data, model, layers);
  row.set("complete", Data(summed.complete));
  row.set("missing", util::format_count(static_cast<int64_t>(summed.untimed.size()), "layer") + " of "
                         + std::to_string(layers.size()) + (is_timed(&model) ? "" : " and the model") + " not timed");
  if (!summed.complete) {
    return row;
  }
  double low = 0, high = 0;
  const auto model_range = spread(model);
  bool spreads = model_range.has_value();
  for (const auto& part : summed.parts) {
    const int count = part.layer->part_of->count;
    const auto range = spread(*part.cell);
    spreads = spreads && range;
    if (range) {
      low += count * range->first;
      high += count * range->second;
    }
  }
  const double model_ms = model.stats->median_ms;
  const double sum = summed.sum;
  row.set("sum", ms(sum));
  row.set("ratio", ratio_text(model_ms / sum));
  row.set("range", spreads ? ratio_text(model_range->first / high) + "–" + ratio_text(model_range->second / low) : std::string(k_missing));
  row.set("gap", ms(std::abs(model_ms - sum)) + (model_ms >= sum ? " more" : " less"));
  row.set("dominant", dominant(summed.parts, sum));
  row.set("conditions", operator_conditions(model, summed.parts, model_ms));
  return row;
}

std::vector<const Cell*> cells_of(const Dataset& data, const std::string& model)
{
  std::vector<const Cell*> cells;
  for (const auto& cell : data.results) {
    if (cell.layer == model) {
      cells.push_back(&cell);
    }
  }
  // Inference before training, then in the cube's order, then by batch size.
  std::stable_sort(cells.begin(), cells.end(), [](const Cell* a, const Cell* b) {
    const auto mode = [](const Cell* c) { return c->axes[dataset::k_mode]; };
    if (mode(a) != mode(b)) {
      return mode(a) < mode(b);
    }
    return a->axes != b->axes ? a->axes < b->axes : a->batch_size < b->batch_size;
  });
  return cells;
}

Data layer_sum_block(const SiteDataset& entry, const std::string& model)
{
  const Dataset& data = entry.data;
  const auto layers = parts_of(data, model);
  Data block = dataset_summary(entry, "../");
  block.set("layers", std::to_string(layers.size()));
  block.set("spread_source", !data.rounds ? std::string("the cells' sample quartiles")
                                                 : std::string("the cells' 95% intervals over rounds"));
  Data rows = list();
  for (const Cell* cell : cells_of(data, model)) {
    rows.push_back(comparison_row(data, *cell, layers, model_setting_label(cell->axes)));
  }
  block.set("rows", rows);
  const bool cpu = data.environment && data.environment->device.type == "cpu";
  block.set("launch", cpu ? std::string("none on the CPU: no kernels are launched, and each operator call's dispatch is inside both "
                                        "the model's time and its layers'")
                          : std::string("not established: this comparison does not time the launches apart"));
  return block;
}

} // namespace

Data layer_sum_blocks(const SiteData& site, const std::string& model)
{
  Data blocks = list();
  for (const auto& entry : site.layer_sums) {
    if (dataset::find_layer(entry.data, model) && !parts_of(entry.data, model).empty()) {
      blocks.push_back(layer_sum_block(entry, model));
    }
  }
  return blocks;
}

Data layer_sum_extremes(const SiteData& site)
{
  struct Extreme
  {
    double ratio = 0;
    std::string where;
    std::string href;
  };
  std::optional<Extreme> low, high;
  for (const auto& entry : site.layer_sums) {
    for (const auto& layer : entry.data.layers) {
      const auto parts = layer.kind == dataset::LayerKind::model ? parts_of(entry.data, layer.name)
                                                                 : std::vector<const dataset::Layer*>{};
      if (parts.empty()) {
        continue;
      }
      for (const Cell* cell : cells_of(entry.data, layer.name)) {
        const LayerSum summed = layer_sum(entry.data, *cell, parts);
        if (!summed.complete) {
          continue;
        }
        const Extreme here{cell->stats->median_ms / summed.sum,
                           layer.name + ", " + model_setting_label(cell->axes) + " at batch " + std::to_string(cell->batch_size),
                           "models/" + layer.name + ".html#layer-sum"};
        if (!low || here.ratio < low->ratio) {
          low = here;
        }
        if (!high || here.ratio > high->ratio) {
          high = here;
        }
      }
    }
  }
  if (!low) {
    return Data(false);
  }
  Data facts = object();
  facts.set("low", ratio_text(low->ratio));
  facts.set("low_where", low->where);
  facts.set("high", ratio_text(high->ratio));
  facts.set("high_where", high->where);
  facts.set("href", low->href);
  return facts;
}

} // namespace layerbench::site
