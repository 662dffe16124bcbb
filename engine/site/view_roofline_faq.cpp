// SPDX-License-Identifier: MIT
// The FAQ's two roofline answers, every figure from one dataset with measured peaks: why time does
// not follow TFLOP/s, and why two convolutions with similar FLOPs take different times.

#include "dataset/batch_sizes.hpp"
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

// Two times "differ" when one is at least this many times the other (well beyond a cell's noise).
constexpr double k_clear_difference = 1.2;
// Two cells' FLOPs are "similar" when the larger is at most this many times the smaller; the FAQ's
// question says "similar", and its answer says whether the pair it found is.
constexpr double k_similar_flops = 1.25;
// One operator "took the time" of a forward when its own share is at least this.
constexpr double k_dominant_share = 0.9;

struct Point
{
  const dataset::Layer* layer;
  const dataset::Cell* cell;
  CellRoofline roofline;
  const dataset::Dataset* data; // the cell's dataset, for the precision its figures carry
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
      points.push_back({&layer, cell, *roofline, &entry.data});
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
  view.set("ms", median_text(*point.data, point.layer->name, point.cell->batch_size));
  view.set("intensity", intensity_text(point.roofline.intensity));
  view.set("bound", flop_rate_text(point.roofline.bound_flop_per_s));
  view.set("bound_by", dataset::to_string(point.roofline.bound_by));
  view.set("achieved", flop_rate_text(point.roofline.achieved_flop_per_s));
  view.set("fraction", fraction_text(point.roofline.fraction));
  return view;
}

double own_share(const dataset::Operator& op) { return op.self_device_fraction.value_or(op.self_cpu_fraction); }

// The operators that took most of the forward's own time, largest first, most first.
std::vector<const dataset::Operator*> by_share(const dataset::Cell& cell)
{
  std::vector<const dataset::Operator*> operators;
  for (const auto& op : cell.operators) {
    operators.push_back(&op);
  }
  std::stable_sort(operators.begin(), operators.end(), [](auto* a, auto* b) { return own_share(*a) > own_share(*b); });
  return operators;
}

// As Markdown for the prose's {{{operators}}}: "`aten::mkldnn_convolution` (81%) and `aten::empty` (2%)";
// "" when the cell was not profiled. Each name is a code span that shows it as it is, whatever it holds.
std::string top_operators(const dataset::Cell& cell, size_t count)
{
  const auto operators = by_share(cell);
  std::string text;
  const size_t shown = std::min(count, operators.size());
  for (size_t i = 0; i < shown; ++i) {
    text += (i == 0 ? "" : i + 1 == shown ? " and " : ", ") + util::markdown_code(operators[i]->name) + " ("
            + fraction_text(own_share(*operators[i])) + ")";
  }
  return text;
}

std::string top_operator_name(const dataset::Cell& cell)
{
  const auto operators = by_share(cell);
  return operators.empty() ? "" : operators.front()->name;
}

// "Time follows FLOPs among the compute-bound cells" holds when, of every two compute-bound cells,
// the one with more FLOPs took more time; {count} then, else false.
Data time_follows_flops(const std::vector<Point>& points)
{
  std::vector<const Point*> compute;
  for (const auto& point : points) {
    if (point.roofline.bound_by == Resource::compute) {
      compute.push_back(&point);
    }
  }
  for (const Point* a : compute) {
    for (const Point* b : compute) {
      if (a->roofline.flop > b->roofline.flop && !(a->cell->stats->median_ms > b->cell->stats->median_ms)) {
        return Data(false);
      }
    }
  }
  if (compute.size() < 2) {
    return Data(false);
  }
  Data view = object();
  view.set("count", std::to_string(compute.size()));
  return view;
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
  answer.set("time_ratio", ratio_text(*compute->data, compute->layer->name, compute->cell->batch_size, memory->layer->name, memory->cell->batch_size));
  answer.set("most_memory_bound", Data(2 * static_cast<size_t>(memory_bound) > points.size()));
  answer.set("follows_flops", time_follows_flops(points));
  // Which roof a faster device would lift holds only for cells that are near their roof.
  answer.set("near_roofs", Data(memory->roofline.fraction >= k_near_roof && compute->roofline.fraction >= k_near_roof));
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
      const double ms_a = convolutions[i]->cell->stats->median_ms, ms_b = convolutions[j]->cell->stats->median_ms;
      // The question is why their times differ: a pair that takes about the same time does not answer it.
      if (ratio <= best && std::max(ms_a, ms_b) / std::min(ms_a, ms_b) >= k_clear_difference) {
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
  answer.set("time_ratio", ratio_text(*second->data, second->layer->name, second->cell->batch_size, first->layer->name, first->cell->batch_size));
  answer.set("similar", Data(best <= k_similar_flops));
  answer.set("similar_within", ratio_text(k_similar_flops));
  const bool profiled = !first->cell->operators.empty() && !second->cell->operators.empty();
  // "The difference lies in how one operator runs each shape" needs that operator to take nearly all of both.
  const auto dominant = [](const dataset::Cell& cell) {
    const auto operators = by_share(cell);
    return operators.empty() || own_share(*operators.front()) < k_dominant_share ? std::string() : operators.front()->name;
  };
  const bool same_top = profiled && top_operator_name(*first->cell) == top_operator_name(*second->cell);
  const std::string same_dominant = profiled && dominant(*first->cell) == dominant(*second->cell) ? dominant(*first->cell) : "";
  answer.set("operators_differ", Data(profiled && !same_top));
  answer.set("same_operator", same_dominant.empty() ? Data(false) : Data(util::markdown_code(same_dominant)));
  answer.set("intensities_differ", Data(std::max(first->roofline.intensity, second->roofline.intensity)
                                          / std::min(first->roofline.intensity, second->roofline.intensity) >= k_clear_difference));
  // "The slower one uses the arithmetic units less well" only when its share of its roof is smaller.
  answer.set("slower_less_efficient", Data(second->roofline.fraction < first->roofline.fraction));
  return answer;
}

// "Layers without parameters are set by memory" holds when every one of them that has a roofline is
// memory-bound and near its memory roof: {layers, low, high} then, else false.
Data parameter_free_answer(const std::vector<Point>& points)
{
  std::vector<const Point*> free;
  for (const auto& point : points) {
    if (point.layer->params && *point.layer->params == 0) {
      free.push_back(&point);
    }
  }
  if (free.empty()) {
    return Data(false);
  }
  double low = HUGE_VAL;
  double high = 0;
  std::string layers;
  for (size_t i = 0; i < free.size(); ++i) {
    const CellRoofline& roofline = free[i]->roofline;
    if (roofline.bound_by != Resource::memory || roofline.fraction < k_near_roof) {
      return Data(false);
    }
    low = std::min(low, roofline.fraction);
    high = std::max(high, roofline.fraction);
    layers += (i == 0 ? "" : i + 1 == free.size() ? " and " : ", ") + free[i]->layer->name;
  }
  Data answer = object();
  answer.set("layers", layers);
  answer.set("low", fraction_text(low));
  answer.set("high", fraction_text(high));
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
    view.set("parameter_free", Data(false));
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
  view.set("parameter_free", common(parameter_free_answer(points)));
  return view;
}

} // namespace layerbench::site
