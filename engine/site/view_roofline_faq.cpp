// SPDX-License-Identifier: MIT
// The FAQ's two roofline answers, every figure from one dataset with measured peaks: why time does
// not follow TFLOP/s, and why two convolutions with similar FLOPs take different times.

#include "dataset/speed_class.hpp"
#include "site/view_common.hpp"
#include "site/view_roofline.hpp"
#include "util/format.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <cmath>

namespace layerbench::site {

namespace {

using dataset::CellRoofline;
using dataset::Resource;

struct Point
{
  const dataset::Layer* layer;
  const dataset::Cell* cell;
  CellRoofline roofline;
};

// The cells at one batch size that have a roofline, in the dataset's layer order.
std::vector<Point> points_at(const SiteData& site, const SiteDataset& entry, int batch)
{
  std::vector<Point> points;
  for (const auto& layer : entry.data.layers) {
    const dataset::Cell* cell = dataset::find_cell(entry.data, layer.name, batch);
    if (!cell) {
      continue;
    }
    if (const auto roofline = roofline_of(site, entry, *cell)) {
      points.push_back({&layer, cell, *roofline});
    }
  }
  return points;
}

Data point_view(const Point& point)
{
  Data view = object();
  view.set("layer", point.layer->name);
  view.set("href", layer_path(point.layer->name));
  view.set("flop", util::format_si(point.roofline.flop));
  view.set("ms", ms_text(point.cell->stats->median_ms));
  view.set("intensity", intensity_text(point.roofline.intensity));
  view.set("bound", flop_rate_text(point.roofline.bound_flop_per_s));
  view.set("bound_by", dataset::to_string(point.roofline.bound_by));
  view.set("achieved", flop_rate_text(point.roofline.achieved_flop_per_s));
  view.set("fraction", fraction_text(point.roofline.fraction));
  return view;
}

// The operators that took most of the forward's own time, largest first, as Markdown for the prose's
// {{{operators}}}: "`aten::mkldnn_convolution` (81%) and `aten::empty` (2%)"; "" when the cell was not
// profiled. Each name is a code span that shows it as it is, whatever it holds.
std::string top_operators(const dataset::Cell& cell, size_t count)
{
  std::vector<const dataset::Operator*> operators;
  for (const auto& op : cell.operators) {
    operators.push_back(&op);
  }
  const auto share = [](const dataset::Operator* op) { return op->self_device_fraction.value_or(op->self_cpu_fraction); };
  std::stable_sort(operators.begin(), operators.end(), [&](auto* a, auto* b) { return share(a) > share(b); });
  std::string text;
  const size_t shown = std::min(count, operators.size());
  for (size_t i = 0; i < shown; ++i) {
    text += (i == 0 ? "" : i + 1 == shown ? " and " : ", ") + util::markdown_code(operators[i]->name) + " ("
            + fraction_text(share(operators[i])) + ")";
  }
  return text;
}

// A memory-bound cell against a compute-bound one that does more FLOPs: the memory-bound one with
// the most FLOPs, and the compute-bound one with the fewest FLOPs above those (else the fewest at all).
Data tflops_answer(const std::vector<Point>& points, const dataset::Roofs& roofs)
{
  const Point* memory = nullptr;
  for (const auto& point : points) {
    if (point.roofline.bound_by == Resource::memory && (!memory || point.roofline.flop > memory->roofline.flop)) {
      memory = &point;
    }
  }
  const Point* compute = nullptr;
  const auto better = [&](const Point& candidate) {
    if (!compute) {
      return true;
    }
    const bool above = candidate.roofline.flop > memory->roofline.flop;
    const bool current_above = compute->roofline.flop > memory->roofline.flop;
    if (above != current_above) {
      return above;
    }
    return candidate.roofline.flop < compute->roofline.flop;
  };
  for (const auto& point : points) {
    if (memory && point.roofline.bound_by == Resource::compute && better(point)) {
      compute = &point;
    }
  }
  if (!memory || !compute) {
    return Data(false);
  }
  Data answer = object();
  const auto memory_bound = std::count_if(points.begin(), points.end(), [](const Point& p) { return p.roofline.bound_by == Resource::memory; });
  answer.set("memory_bound", std::to_string(memory_bound));
  answer.set("cells", std::to_string(points.size()));
  answer.set("ridge", intensity_text(dataset::ridge_intensity(roofs)));
  answer.set("low", point_view(*memory));
  answer.set("high", point_view(*compute));
  answer.set("flop_ratio", ratio_text(compute->roofline.flop / memory->roofline.flop));
  answer.set("time_ratio", ratio_text(compute->cell->stats->median_ms / memory->cell->stats->median_ms));
  return answer;
}

// Of the convolutions at this batch size, the two whose FLOPs are closest (within 2x).
Data convolutions_answer(const std::vector<Point>& points)
{
  std::vector<const Point*> convolutions;
  for (const auto& point : points) {
    if (point.layer->name.find("Conv") != std::string::npos) {
      convolutions.push_back(&point);
    }
  }
  const Point* first = nullptr;
  const Point* second = nullptr;
  double best = 2.0;
  for (size_t i = 0; i < convolutions.size(); ++i) {
    for (size_t j = i + 1; j < convolutions.size(); ++j) {
      const double a = convolutions[i]->roofline.flop, b = convolutions[j]->roofline.flop;
      const double ratio = std::max(a, b) / std::min(a, b);
      if (ratio <= best) {
        best = ratio;
        first = convolutions[i];
        second = convolutions[j];
      }
    }
  }
  if (!first) {
    return Data(false);
  }
  if (first->cell->stats->median_ms > second->cell->stats->median_ms) {
    std::swap(first, second);
  }
  Data answer = object();
  Data faster = point_view(*first);
  faster.set("operators", top_operators(*first->cell, 2));
  Data slower = point_view(*second);
  slower.set("operators", top_operators(*second->cell, 2));
  answer.set("faster", faster);
  answer.set("slower", slower);
  answer.set("flop_ratio", ratio_text(second->roofline.flop / first->roofline.flop));
  answer.set("time_ratio", ratio_text(second->cell->stats->median_ms / first->cell->stats->median_ms));
  answer.set("has_operators", Data(!first->cell->operators.empty() && !second->cell->operators.empty()));
  return answer;
}

// The featured dataset when it has measured peaks, else the first that has.
const SiteDataset* answering_dataset(const SiteData& site)
{
  const auto measured_with_roofs = [&](const SiteDataset& entry) {
    return entry.data.kind == dataset::Kind::measured && roofs_of(site, entry).has_value();
  };
  if (measured_with_roofs(site.datasets[site.featured])) {
    return &site.datasets[site.featured];
  }
  for (const auto& entry : site.datasets) {
    if (measured_with_roofs(entry)) {
      return &entry;
    }
  }
  return nullptr;
}

} // namespace

Data roofline_faq(const SiteData& site)
{
  Data view = object();
  const SiteDataset* entry = answering_dataset(site);
  if (!entry) {
    view.set("tflops", Data(false));
    view.set("convolutions", Data(false));
    return view;
  }
  const int batch = dataset::reference_batch(entry->data);
  const auto roofs = *roofs_of(site, *entry);
  const auto points = points_at(site, *entry, batch);
  const auto common = [&](Data answer) {
    if (!answer.is_false()) {
      answer.set("dataset", dataset_label(*entry));
      answer.set("roofline_href", roofline_path(*entry));
      answer.set("batch", std::to_string(batch));
      answer.set("peak", flop_rate_text(roofs.compute_flop_per_s));
      answer.set("bandwidth", bandwidth_text(roofs.memory_bytes_per_s));
    }
    return answer;
  };
  view.set("tflops", common(tflops_answer(points, roofs)));
  view.set("convolutions", common(convolutions_answer(points)));
  return view;
}

} // namespace layerbench::site
