// SPDX-License-Identifier: MIT
// The formulas page: every layer's parameter and FLOP formula on one page, with a note on what the
// formula leaves out and figures computed from the featured dataset.

#include "dataset/batch_sizes.hpp"
#include "site/view_common.hpp"
#include "site/view_pages.hpp"
#include "site/view_roofline.hpp"
#include "util/format.hpp"

#include <algorithm>

namespace layerbench::site {

namespace {

using dataset::Dataset;

// A claim a note may make about the data, said only where the featured dataset bears it out.
enum class NoteClaim
{
  none,
  memory_bound_at_smallest_batch, // "at batch size 1 reading memory sets its time"
};

// LayerBench's own remarks on each layer of the catalog, in words only, and true of the layer's
// definition whatever a run measures: every figure and every claim about times beside them is
// computed from the dataset. `compare_to` names the layer that a remark sets this one against.
struct FormulaNote
{
  const char* layer;
  const char* text;
  const char* compare_to;   // nullptr for none
  const char* operator_name; // an operator whose presence in the recorded operators the note reports
  NoteClaim claim = NoteClaim::none;
};

constexpr FormulaNote k_notes[] = {
  {"Conv2d", "The convolution library (cuDNN on a GPU, oneDNN on the CPU) picks an algorithm for each shape, so the time "
             "need not follow the FLOP count.", nullptr, nullptr},
  {"Conv1d", "Runs the same aten::convolution operator as Conv2d, with one spatial dimension.", "Conv2d", nullptr},
  {"ConvTranspose2d", "The gradient of a convolution, run forward: its FLOPs count every input position (H_in × W_in), "
                      "not the output's.", "Conv2d", nullptr},
  {"Linear", "One matrix product and a bias add. The whole weight matrix is read whatever the batch size, so the "
             "fewer the samples, the fewer FLOPs per byte read.", nullptr, nullptr, NoteClaim::memory_bound_at_smallest_batch},
  {"LSTM", "Each time step needs the previous step's hidden state, so the steps of a sequence run one after another; "
           "the matrix products of one step are small.", nullptr, nullptr},
  {"GRU", "Three gates where the LSTM has four. In this catalog the LSTM is bidirectional and the GRU is not.", "LSTM",
          nullptr},
  {"TransformerEncoder", "Self-attention and a feed-forward block, each with a residual add and a LayerNorm; the "
                         "attention scores grow with the square of the sequence length.", "MultiheadAttention", nullptr},
  {"MultiheadAttention", "Whether a fused attention kernel (flash or memory-efficient) runs depends on the device, the "
                         "data type and whether the attention weights are returned; the operators recorded for each "
                         "cell show which ran.", nullptr, nullptr},
  {"BatchNorm2d", "In eval mode it applies the stored running mean and variance: two buffers of one value per "
                  "feature each, which are not parameters.", nullptr, nullptr},
  {"LayerNorm", "Computes a mean and a variance over each position's features at run time, where eval-mode "
                "BatchNorm2d reads stored ones.", "BatchNorm2d", nullptr},
  {"Embedding", "A row lookup: no arithmetic, so 0 FLOPs by convention and no point on a FLOP/s roofline.", nullptr,
                nullptr},
  {"MaxPool2d", "The positions of the maxima are needed only by a backward pass; whether the forward stores them "
                "shows in its operators.", nullptr, "aten::max_pool2d_with_indices"},
  {"AvgPool2d", "Averages each window and keeps no positions.", "MaxPool2d", nullptr},
  {"Dropout", "The identity in eval mode. In train mode it draws a random mask and scales the values it keeps; the "
              "random numbers are not counted as FLOPs.", nullptr, nullptr},
};

const FormulaNote* note_of(const std::string& layer)
{
  for (const auto& note : k_notes) {
    if (layer == note.layer) {
      return &note;
    }
  }
  return nullptr;
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
std::string computed_text(const Dataset& data, const dataset::Layer& layer, const FormulaNote* note)
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
  const dataset::Layer* other = note && note->compare_to ? dataset::find_layer(data, note->compare_to) : nullptr;
  const auto other_ms = other ? median_ms(data, other->name, batch) : std::nullopt;
  if (other_ms) {
    text += "; " + ratio_text(*ms / *other_ms) + " " + other->name + "'s time";
    if (layer.params && other->params && *other->params > 0) {
      text += ", with " + trimmed_significant(100.0 * static_cast<double>(*layer.params) / static_cast<double>(*other->params), 3)
              + "% of its parameters";
    }
  }
  if (note && note->operator_name && has_operators(data, layer.name, batch)) {
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

std::string claim_text(const SiteData& site, const SiteDataset& entry, const dataset::Layer& layer, const FormulaNote* note)
{
  switch (note ? note->claim : NoteClaim::none) {
  case NoteClaim::none:
    return "";
  case NoteClaim::memory_bound_at_smallest_batch:
    return memory_bound_text(site, entry, layer);
  }
  return "";
}

Data formula_row(const SiteData& site, const SiteDataset& entry, const dataset::Layer& layer)
{
  const Dataset& data = entry.data;
  const FormulaNote* note = note_of(layer.name);
  Data row = object();
  row.set("name", layer.name);
  row.set("href", layer_path(layer.name));
  row.set("config", layer.config);
  row.set("params_formula", layer.params_formula.empty() ? std::string(k_missing) : layer.params_formula);
  row.set("params", layer.params ? util::format_thousands(*layer.params) : k_missing);
  row.set("flops_formula", layer.flops_formula.empty() ? std::string(k_missing) : layer.flops_formula);
  row.set("flops", layer.flops_per_sample ? util::format_si(*layer.flops_per_sample) : k_missing);
  row.set("note", note ? std::string(note->text) : std::string(""));
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
  base.set("flop_convention", featured.data.methodology ? Data(featured.data.methodology->flop_convention) : Data(false));
  return {"formulas", "formulas.html", std::move(base), ""};
}

} // namespace layerbench::site
