// SPDX-License-Identifier: MIT
#include "site/sweep_section.hpp"

#include "dataset/precision.hpp"
#include "site/cell_whisker.hpp"
#include "site/svg.hpp"
#include "site/view_common.hpp"
#include "site/view_model.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace layerbench::site {

namespace {

using dataset::LayerParameters;
using namespace svg;

// Whether two shapes hold the same parameters with the same values, `parameter` left out.
bool same_but(const LayerParameters& a, const LayerParameters& b, const std::string& parameter)
{
  if (a.values.size() != b.values.size()) {
    return false;
  }
  for (const auto& [name, value] : a.values) {
    const auto other = b.value(name);
    if (!other || (name != parameter && *other != value)) {
      return false;
    }
  }
  return true;
}

// The sweeps of `parameter` among the layers of one base: one per set of values of the other parameters.
void sweeps_of(const std::vector<const dataset::Layer*>& group, const std::string& parameter, std::vector<Sweep>& out)
{
  std::vector<std::pair<const LayerParameters*, Sweep>> found;
  for (const auto* layer : group) {
    const auto value = layer->shape->value(parameter);
    if (!value || !(*value > 0)) {
      continue; // a log axis cannot place it
    }
    auto it = std::find_if(found.begin(), found.end(),
                           [&](const auto& entry) { return same_but(*entry.first, *layer->shape, parameter); });
    if (it == found.end()) {
      Sweep sweep{layer->shape->layer, parameter, {}, {}};
      for (const auto& [name, fixed] : layer->shape->values) {
        if (name != parameter) {
          sweep.fixed.emplace_back(name, fixed);
        }
      }
      found.emplace_back(&*layer->shape, std::move(sweep));
      it = std::prev(found.end());
    }
    auto& points = it->second.points;
    if (std::none_of(points.begin(), points.end(), [&](const SweepPoint& point) { return point.value == *value; })) {
      points.push_back({*value, layer->name});
    }
  }
  for (auto& [shape, sweep] : found) {
    if (sweep.points.size() >= k_sweep_min_points) {
      std::sort(sweep.points.begin(), sweep.points.end(), [](const SweepPoint& a, const SweepPoint& b) { return a.value < b.value; });
      out.push_back(std::move(sweep));
    }
  }
}

double slope_between(double x1, double y1, double x2, double y2) { return std::log(y2 / y1) / std::log(x2 / x1); }

// Two decimals, as the sentence claims no more; "-0.00" reads as a sign the data does not show.
std::string slope_text(double slope)
{
  const std::string text = util::format_fixed(slope, 2);
  return text == "-0.00" ? "0.00" : text;
}

// A parameter's value as the canonical names write it: 128, 0.5.
std::string value_text(double value) { return trimmed_significant(value, 6); }

std::string power_text(const std::string& parameter, double slope) { return parameter + "^" + slope_text(slope); }

} // namespace

double PowerFit::at(double x) const { return std::exp(intercept + slope * std::log(x)); }

std::vector<Sweep> find_sweeps(const dataset::Dataset& data)
{
  std::vector<std::string> bases;
  for (const auto& layer : data.layers) {
    if (layer.shape && std::find(bases.begin(), bases.end(), layer.shape->layer) == bases.end()) {
      bases.push_back(layer.shape->layer);
    }
  }
  std::vector<Sweep> sweeps;
  for (const auto& base : bases) {
    std::vector<const dataset::Layer*> group;
    std::vector<std::string> parameters;
    for (const auto& layer : data.layers) {
      if (!layer.shape || layer.shape->layer != base) {
        continue;
      }
      group.push_back(&layer);
      for (const auto& [name, value] : layer.shape->values) {
        if (std::find(parameters.begin(), parameters.end(), name) == parameters.end()) {
          parameters.push_back(name);
        }
      }
    }
    for (const auto& parameter : parameters) {
      sweeps_of(group, parameter, sweeps);
    }
  }
  return sweeps;
}

std::optional<PowerFit> fit_power(const std::vector<std::pair<double, double>>& points)
{
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [x, y] : points) {
    if (!(x > 0) || !(y > 0)) {
      continue;
    }
    const double lx = std::log(x);
    const double ly = std::log(y);
    n += 1;
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  const double spread = n * sxx - sx * sx;
  if (n < 2 || !(spread > 0)) {
    return std::nullopt;
  }
  PowerFit fit;
  fit.slope = (n * sxy - sx * sy) / spread;
  fit.intercept = (sy - fit.slope * sx) / n;
  return fit;
}

std::vector<SweepSeries> sweep_series(const dataset::Dataset& data, const Sweep& sweep)
{
  std::vector<SweepSeries> out;
  for (int batch : batch_sizes(data)) {
    SweepSeries series;
    series.batch = batch;
    std::vector<std::pair<double, double>> times;
    std::vector<std::pair<double, double>> flops;
    for (const auto& point : sweep.points) {
      const dataset::Cell* cell = dataset::find_cell(data, point.layer, batch);
      if (!is_timed(cell)) {
        continue;
      }
      const dataset::Layer* layer = dataset::find_layer(data, point.layer);
      series.cells.push_back(cell);
      series.values.push_back(point.value);
      series.flops.push_back(layer ? layer->flops_per_sample : std::nullopt);
      times.emplace_back(point.value, cell->stats->median_ms);
      flops.emplace_back(point.value, series.flops.back().value_or(0));
      series.noise_misses += noise_miss_reason(data, cell).empty() ? 0 : 1;
    }
    if (series.cells.size() < k_sweep_min_points) {
      continue;
    }
    series.time = *fit_power(times);
    const size_t n = times.size();
    series.time_top = slope_between(times[n - 2].first, times[n - 2].second, times[n - 1].first, times[n - 1].second);
    // The formula's growth only where every point has a count: a fit over some of them compares
    // nothing with the time's.
    if (std::all_of(flops.begin(), flops.end(), [](const auto& point) { return point.second > 0; })) {
      series.flop = fit_power(flops);
      series.flop_top = slope_between(flops[n - 2].first, flops[n - 2].second, flops[n - 1].first, flops[n - 1].second);
    }
    out.push_back(std::move(series));
  }
  return out;
}

std::string sweep_sentence(const Sweep& sweep, const SweepSeries& series)
{
  const std::string& p = sweep.parameter;
  std::string text = "At batch size " + std::to_string(series.batch) + ", time grows as " + power_text(p, series.time.slope)
                     + " over " + value_text(series.values.front()) + "–" + value_text(series.values.back()) + " ("
                     + power_text(p, series.time_top) + " between the two largest); ";
  if (series.flop && series.flop_top) {
    text += "the FLOP formula grows as " + power_text(p, series.flop->slope) + " and " + power_text(p, *series.flop_top)
            + " over the same points.";
  } else {
    text += "the dataset gives no FLOP count for some of these points, so the formula's growth is not computed.";
  }
  if (series.noise_misses > 0) {
    text += " " + std::to_string(series.noise_misses) + " of its " + std::to_string(series.cells.size())
            + " points missed their noise target.";
  }
  return text;
}

namespace {

// 352 px wide, a phone's width, as the roofline chart: the text keeps its size on a 390 px screen.
struct SweepFrame
{
  double left = 72; // "0.0001" beside the rotated axis label
  double top = 20;
  double width = 260;
  double height = 220;
  double right = 20;
};

// Batch sizes are ordered, so their series are one hue from light (the smallest) to dark (the largest);
// every other fitted line is dashed, so neighbours differ in more than lightness. The lightest keeps 3:1
// on white.
std::string shade(size_t index, size_t count)
{
  const double t = count > 1 ? static_cast<double>(index) / static_cast<double>(count - 1) : 1.0;
  const auto channel = [t](double light, double dark) { return static_cast<int>(std::lround(light + (dark - light) * t)); };
  char text[32];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", channel(80, 10), channel(125, 38), channel(190, 92));
  return text;
}

std::string dash(size_t index) { return index % 2 == 0 ? "" : " stroke-dasharray=\"6 4\""; }

std::string dot(double x, double y, const std::string& color, const std::string& tooltip)
{
  return "<circle cx=\"" + px(x) + "\" cy=\"" + px(y) + "\" r=\"4\" fill=\"" + color + "\"><title>" + escape(tooltip) + "</title></circle>\n";
}

// Where values land: log-log, a tenth of the plot's width each side so that the end points stay off
// the axes, and whole decades of milliseconds.
struct Plot
{
  SweepFrame frame;
  double x_low = 0;  // log of the smallest value
  double x_span = 1; // log of the largest over it
  LogRange y_range;

  double x_of(double x) const { return frame.left + (0.1 + 0.8 * (std::log(x) - x_low) / x_span) * frame.width; }
  double y_of(double y) const { return frame.top + (1.0 - y_range.position(y)) * frame.height; }
  double bottom() const { return frame.top + frame.height; }
  double total_width() const { return frame.left + frame.width + frame.right; }
  double legend_top() const { return bottom() + 78; }
};

// Every value of the sweep keeps its place on the axis, timed or not; the times' range takes in the
// whiskers and the ends of the fitted lines.
Plot plot_of(const Sweep& sweep, const std::vector<SweepSeries>& series)
{
  Plot plot;
  plot.x_low = std::log(sweep.points.front().value);
  plot.x_span = std::log(sweep.points.back().value) - plot.x_low;
  double low = HUGE_VAL;
  double high = 0;
  const auto add = [&](double value) {
    low = std::min(low, value);
    high = std::max(high, value);
  };
  for (const auto& one : series) {
    for (const auto* cell : one.cells) {
      add(cell->stats->median_ms);
      if (const auto whisker = time_whisker(cell)) {
        add(whisker->low);
        add(whisker->high);
      }
    }
    add(one.time.at(one.values.front()));
    add(one.time.at(one.values.back()));
  }
  plot.y_range = decades(low, high);
  return plot;
}

std::string axes_svg(const Plot& plot, const Sweep& sweep)
{
  const SweepFrame& frame = plot.frame;
  const double bottom = plot.bottom();
  std::string svg;
  for (int decade = plot.y_range.first; decade <= plot.y_range.last; ++decade) {
    const double y = plot.y_of(std::pow(10.0, decade));
    svg += line(frame.left, y, frame.left + frame.width, y, "grid");
    svg += text_at(frame.left - 6, y + 4, "end", tick_label(decade));
  }
  // A value's label is left out where it would touch the one before; its grid line stays.
  double last_label = -HUGE_VAL;
  for (const auto& point : sweep.points) {
    const double x = plot.x_of(point.value);
    svg += line(x, frame.top, x, bottom, "grid");
    if (x - last_label >= 34) {
      svg += text_at(x, bottom + 18, "middle", value_text(point.value));
      last_label = x;
    }
  }
  svg += line(frame.left, bottom, frame.left + frame.width, bottom, "axis");
  svg += line(frame.left, frame.top, frame.left, bottom, "axis");
  svg += text_at(frame.left + frame.width / 2, bottom + 40, "middle", sweep.parameter + " (log scale)", " class=\"label\"");
  svg += text_at(16, frame.top + frame.height / 2, "middle", "ms per batch (log scale)",
                 " class=\"label\" transform=\"rotate(-90 16 " + px(frame.top + frame.height / 2) + ")\"");
  svg += text_at(plot.total_width() / 2, bottom + 58, "middle", k_quartile_whisker_label, " class=\"label\"");
  return svg;
}

// One batch size: its fitted line, its points with their whiskers, and its legend entry.
std::string series_svg(const Plot& plot, const dataset::Dataset& data, const Sweep& sweep, const SweepSeries& one, size_t index,
                       size_t count)
{
  const std::string color = shade(index, count);
  const double first = one.values.front();
  const double last = one.values.back();
  std::string svg = "<path class=\"fit\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\"" + dash(index) + " d=\"M"
                    + px(plot.x_of(first)) + "," + px(plot.y_of(one.time.at(first))) + "L" + px(plot.x_of(last)) + ","
                    + px(plot.y_of(one.time.at(last))) + "\"><title>"
                    + escape("batch size " + std::to_string(one.batch) + ": least-squares line, slope " + slope_text(one.time.slope))
                    + "</title></path>\n";
  for (size_t i = 0; i < one.cells.size(); ++i) {
    const double x = plot.x_of(one.values[i]);
    if (const auto whisker = time_whisker(one.cells[i])) {
      svg += "<line class=\"whisker\" x1=\"" + px(x) + "\" y1=\"" + px(plot.y_of(whisker->low)) + "\" x2=\"" + px(x) + "\" y2=\""
             + px(plot.y_of(whisker->high)) + "\" stroke=\"" + color + "\" stroke-width=\"1.5\"><title>" + escape(whisker->text)
             + "</title></line>\n";
    }
    svg += dot(x, plot.y_of(one.cells[i]->stats->median_ms), color,
               sweep.parameter + " " + value_text(one.values[i]) + ", batch size " + std::to_string(one.batch) + ": "
                 + cell_median_text(data, one.cells[i]) + " ms");
  }
  // One entry a row: "batch 1024: slope 1.62" does not fit half of a phone-wide chart.
  const double x = plot.frame.left;
  const double y = plot.legend_top() + 20.0 * static_cast<double>(index);
  svg += "<line x1=\"" + px(x) + "\" y1=\"" + px(y - 4) + "\" x2=\"" + px(x + 24) + "\" y2=\"" + px(y - 4) + "\" stroke=\"" + color
         + "\" stroke-width=\"2\"" + dash(index) + "/>\n";
  return svg + text_at(x + 30, y, "start", "batch " + std::to_string(one.batch) + ": slope " + slope_text(one.time.slope));
}

} // namespace

std::string sweep_chart(const std::string& id, const dataset::Dataset& data, const Sweep& sweep, const std::vector<SweepSeries>& series)
{
  if (series.empty()) {
    return "";
  }
  const Plot plot = plot_of(sweep, series);
  const double height = plot.legend_top() + 20.0 * static_cast<double>(series.size()) - 8;
  std::string svg = open_svg(id, plot.total_width(), height, sweep.layer + ": forward time against " + sweep.parameter,
                             "Median milliseconds per forward pass of one batch at each value of " + sweep.parameter
                               + ", log-log axes, one series per batch size with its least-squares line. "
                               + k_quartile_whisker_label + ".");
  svg += axes_svg(plot, sweep);
  for (size_t i = 0; i < series.size(); ++i) {
    svg += series_svg(plot, data, sweep, series[i], i, series.size());
  }
  return svg + "</svg>";
}

namespace {

// "0.12 (0.12–0.13)": the median and its interquartile range, both at the figures the spread supports:
// a quartile carries no more digits than the median beside it.
Data time_entry(const dataset::Dataset& data, const dataset::Cell* cell)
{
  Data entry = time_cell(data, cell);
  const auto whisker = time_whisker(cell);
  if (!whisker) {
    entry.set("iqr", Data(false));
    return entry;
  }
  const int figures = dataset::supported_figures(data, *cell);
  entry.set("iqr", Data(figures_text(whisker->low, figures) + "–" + figures_text(whisker->high, figures)));
  return entry;
}

Data sweep_rows(const dataset::Dataset& data, const Sweep& sweep, const std::vector<int>& batches)
{
  Data rows = list();
  for (const auto& point : sweep.points) {
    Data row = object();
    row.set("value", value_text(point.value));
    row.set("layer", point.layer);
    row.set("href", "../" + layer_path(point.layer));
    Data times = list();
    for (int batch : batches) {
      times.push_back(time_entry(data, dataset::find_cell(data, point.layer, batch)));
    }
    row.set("times", times);
    const dataset::Layer* layer = dataset::find_layer(data, point.layer);
    row.set("flops", layer && layer->flops_per_sample ? util::format_si(*layer->flops_per_sample) : std::string(k_missing));
    rows.push_back(row);
  }
  return rows;
}

std::string fixed_text(const Sweep& sweep)
{
  std::string text;
  for (const auto& [name, value] : sweep.fixed) {
    text += (text.empty() ? "" : ", ") + name + " = " + value_text(value);
  }
  return text;
}

Data sweep_block(const SiteDataset& entry, const Sweep& sweep, size_t index)
{
  const auto series = sweep_series(entry.data, sweep);
  Data block = object();
  const std::string anchor = "sweep-" + entry.slug + "-" + std::to_string(index + 1);
  block.set("anchor", anchor);
  block.set("parameter", sweep.parameter);
  const std::string fixed = fixed_text(sweep);
  block.set("fixed", fixed.empty() ? Data(false) : Data(fixed));
  block.set("dataset", dataset_label(entry));
  block.set("href", "../" + dataset_path(entry));
  Data sentences = list();
  for (const auto& one : series) {
    sentences.push_back(Data(sweep_sentence(sweep, one)));
  }
  block.set("sentences", sentences);
  block.set("has_fit", Data(!series.empty()));
  block.set("chart", sweep_chart(anchor + "-chart", entry.data, sweep, series));
  const auto batches = batch_sizes(entry.data);
  Data headers = list();
  for (int batch : batches) {
    headers.push_back(Data(std::to_string(batch)));
  }
  block.set("batches", headers);
  block.set("rows", sweep_rows(entry.data, sweep, batches));
  return block;
}

} // namespace

Data sweep_blocks(const SiteData& site, const std::string& layer)
{
  Data blocks = list();
  for (const auto& entry : site.datasets) {
    if (replaced_on_site(site, entry)) {
      continue;
    }
    const auto sweeps = find_sweeps(entry.data);
    for (size_t i = 0; i < sweeps.size(); ++i) {
      if (sweeps[i].layer == layer) {
        blocks.push_back(sweep_block(entry, sweeps[i], i));
      }
    }
  }
  return blocks;
}

} // namespace layerbench::site
