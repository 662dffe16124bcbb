// SPDX-License-Identifier: MIT
#pragma once

// Sweeps on the site (issue 37 item 5, docs/site.md "Sweeps"): where a dataset measured one catalog
// layer at several values of one parameter, the others held, the base layer's page shows time against
// that parameter on log-log axes with the fitted slope, beside the slope of the FLOP formula over the
// same points. "O(seq^2)" is then checked against what the time and the formula do at those sizes.

#include "dataset/dataset.hpp"
#include "site/site_data.hpp"
#include "site/template_check.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace layerbench::site {

// A sweep needs this many distinct values of its parameter, and a fit this many timed points: two
// points always lie on a line.
inline constexpr size_t k_sweep_min_points = 3;

struct SweepPoint
{
  double value = 0;  // of the swept parameter, > 0
  std::string layer; // the dataset's layer there, "MultiheadAttention(seq=128)"
};

// Layers of one base whose recorded parameters (layers[].shape) are equal but for `parameter`.
struct Sweep
{
  std::string layer;     // the base, "MultiheadAttention"
  std::string parameter; // "seq"
  std::vector<std::pair<std::string, double>> fixed; // the other parameters, in the shape's order
  std::vector<SweepPoint> points;                     // value ascending
};

// Every sweep of one dataset: base layers in the dataset's order, then parameters in the shape's order.
// Layers without a shape never join one.
std::vector<Sweep> find_sweeps(const dataset::Dataset& data);

// log y = a + b log x by least squares over points with x, y > 0.
struct PowerFit
{
  double slope = 0;
  double intercept = 0; // natural logarithms
  double at(double x) const;
};
std::optional<PowerFit> fit_power(const std::vector<std::pair<double, double>>& points);

// One batch size of a sweep: its timed points at the reference corner and what they grow as.
struct SweepSeries
{
  int batch = 0;
  std::vector<const dataset::Cell*> cells; // ok cells, by value ascending
  std::vector<double> values;              // the cells' parameter values
  std::vector<std::optional<double>> flops; // layers[].flops_per_sample at each value
  PowerFit time;
  double time_top = 0; // the slope between the two largest values
  std::optional<PowerFit> flop;
  std::optional<double> flop_top;
  int noise_misses = 0; // cells that missed their noise target
};

// The series of each batch size of the dataset that has at least k_sweep_min_points timed points.
std::vector<SweepSeries> sweep_series(const dataset::Dataset& data, const Sweep& sweep);

// "At batch size 32, time grows as seq^1.62 over 128–4096 (seq^1.91 between the two largest); the FLOP
// formula grows as seq^1.37 and seq^1.80 over the same points." and how many points missed their noise
// target.
std::string sweep_sentence(const Sweep& sweep, const SweepSeries& series);

// The log-log chart: a point per value with its interquartile whisker, and the fitted line, for each
// batch size; "" without series. The series' cells are `data`'s.
std::string sweep_chart(const std::string& id, const dataset::Dataset& data, const Sweep& sweep,
                        const std::vector<SweepSeries>& series);

// The sections of the page of `layer`: one per sweep of that base in each dataset the site shows
// (not those a newer version replaces), each {anchor, parameter, fixed, dataset, href, sentences, has_fit,
// chart, batches, rows}; an empty list where there is none.
Data sweep_blocks(const SiteData& site, const std::string& layer);

} // namespace layerbench::site
