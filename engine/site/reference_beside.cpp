// SPDX-License-Identifier: MIT
#include "site/reference_beside.hpp"

#include "site/model_answers.hpp"
#include "site/setting_words.hpp"
#include "site/view_common.hpp"
#include "site/view_pages.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

namespace layerbench::site {

namespace {

using dataset::Axes;
using dataset::Cell;
using dataset::Precision;

bool mixed(Precision precision) { return precision == Precision::bf16 || precision == Precision::fp16; }

bool alike(const Axes& ours, const Axes& theirs)
{
  return ours[dataset::k_mode] == theirs[dataset::k_mode] && ours[dataset::k_compiled] == theirs[dataset::k_compiled]
         && mixed(ours[dataset::k_precision]) == mixed(theirs[dataset::k_precision]);
}

struct Ours
{
  const SiteDataset* entry = nullptr;
  const Cell* cell = nullptr;
};

// Our cell for one reference cell on each device, in the order the devices first appear: of the alike
// cells of every dataset of that device, the same precision first, then the same memory format, then the
// reference's batch size, then the largest; the first dataset's on a tie. One row per device, so that
// a device's several datasets of the same cell do not repeat it.
std::vector<Ours> our_cells(const SiteData& site, const Cell& theirs)
{
  const auto rank = [&theirs](const Cell& cell) {
    return std::make_tuple(cell.axes[dataset::k_precision] == theirs.axes[dataset::k_precision],
                           cell.axes[dataset::k_memory_format] == theirs.axes[dataset::k_memory_format],
                           cell.batch_size == theirs.batch_size, cell.batch_size);
  };
  std::vector<Ours> best;
  for (const auto& entry : site.models) {
    if (entry.data.kind != dataset::Kind::measured || replaced_on_site(site, entry)) {
      continue;
    }
    const std::string device = device_text(entry.data);
    auto found = std::find_if(best.begin(), best.end(), [&](const Ours& o) { return device_text(o.entry->data) == device; });
    for (const auto& cell : entry.data.results) {
      if (cell.layer != theirs.layer || !samples_per_second(cell) || !alike(cell.axes, theirs.axes)) {
        continue;
      }
      if (found == best.end()) {
        best.push_back({&entry, &cell});
        found = best.end() - 1;
      } else if (rank(cell) > rank(*found->cell)) {
        *found = {&entry, &cell};
      }
    }
  }
  return best;
}

// The precision as a reader names it, with TF32's state where a CUDA run records it off.
std::string precision_words(const SiteDataset& entry, const Axes& axes)
{
  const std::string words = value_words("precision", dataset::axis_value(axes, "precision"));
  const auto& environment = entry.data.environment;
  if (axes[dataset::k_precision] == Precision::fp32 && on_cuda(entry.data) && !environment->matmul_allow_tf32
      && !environment->cudnn_allow_tf32) {
    return words + " with TF32 off";
  }
  return words;
}

// What differs between the two cells besides the device and software, ours first: "different batch
// sizes: 512 against 256; ...", or "" where nothing does.
std::string differences(const SiteDataset& ours, const Cell& mine, const SiteDataset& reference, const Cell& theirs)
{
  std::vector<std::string> items;
  if (mine.batch_size != theirs.batch_size) {
    items.push_back("different batch sizes: " + std::to_string(mine.batch_size) + " against " + std::to_string(theirs.batch_size));
  }
  if (mine.axes[dataset::k_precision] != theirs.axes[dataset::k_precision]) {
    items.push_back("precision: " + precision_words(ours, mine.axes) + " against " + precision_words(reference, theirs.axes));
  }
  const auto format_words = [](const Axes& axes) { return value_words("memory_format", dataset::axis_value(axes, "memory_format")); };
  if (mine.axes[dataset::k_memory_format] != theirs.axes[dataset::k_memory_format]) {
    items.push_back("memory format: " + format_words(mine.axes) + " against " + format_words(theirs.axes));
  }
  std::string text;
  for (const auto& item : items) {
    text += (text.empty() ? "" : "; ") + item;
  }
  return text;
}

Data row_of(const SiteDataset& ours, const Cell& mine, const SiteDataset& reference, const Cell& theirs)
{
  const auto* model = dataset::find_layer(ours.data, mine.layer);
  Data row = object();
  row.set("model", mine.layer);
  row.set("href", model_path(mine.layer));
  row.set("mode", value_words("mode", dataset::axis_value(mine.axes, "mode")));
  row.set("dataset", dataset_label(ours));
  row.set("dataset_href", dataset_path(ours));
  row.set("setting", model_setting_label(mine.axes));
  row.set("batch", std::to_string(mine.batch_size));
  row.set("throughput", cell_throughput_text(ours.data, &mine));
  row.set("unit", model ? model_sample_unit(*model) : std::string("samples/s"));
  row.set("reference", dataset_label(reference));
  row.set("reference_href", dataset_path(reference));
  row.set("reference_setting", model_setting_label(theirs.axes));
  row.set("reference_batch", std::to_string(theirs.batch_size));
  row.set("reference_throughput", cell_throughput_text(reference.data, &theirs));
  row.set("ratio", ratio_text(*samples_per_second(mine) / *samples_per_second(theirs)));
  row.set("batches_differ", Data(mine.batch_size != theirs.batch_size));
  const std::string differ = differences(ours, mine, reference, theirs);
  row.set("differences", differ.empty() ? Data(false) : Data(differ));
  return row;
}

// {label, href, title, url, device}: where a reference's figures come from, as its file records it.
Data source_of(const SiteDataset& reference)
{
  const auto& source = reference.data.provenance.source;
  Data item = object();
  item.set("label", dataset_label(reference));
  item.set("href", dataset_path(reference));
  item.set("title", source ? source->title : std::string(k_missing));
  item.set("url", source && !source->url.empty() ? Data(source->url) : Data(false));
  item.set("address", source ? dataset::source_address(*source) : std::string(k_missing));
  item.set("device", source && !source->device.empty() ? source->device : std::string(k_missing));
  return item;
}

} // namespace

Data reference_beside(const SiteData& site, const std::string& model)
{
  Data rows = list();
  Data sources = list();
  for (const auto& reference : site.models) {
    if (reference.data.kind != dataset::Kind::published_reference || replaced_on_site(site, reference)) {
      continue;
    }
    const size_t count = rows.list_value().size();
    for (const auto& theirs : reference.data.results) {
      if ((!model.empty() && theirs.layer != model) || !samples_per_second(theirs)) {
        continue;
      }
      for (const auto& ours : our_cells(site, theirs)) {
        rows.push_back(row_of(*ours.entry, *ours.cell, reference, theirs));
      }
    }
    if (rows.list_value().size() > count) {
      sources.push_back(source_of(reference));
    }
  }
  if (rows.is_empty_list()) {
    return Data(false);
  }
  Data view = object();
  view.set("rows", rows);
  view.set("sources", sources);
  return view;
}

} // namespace layerbench::site
