// SPDX-License-Identifier: MIT
#pragma once

// Seed 001's figure on the site (issue 38 item 2, docs/site.md "A model across torch releases"): a whole
// model's training throughput on one device, one group of bars per torch release in release order
// (2.11.0 after 2.9.1), each compiled bar beside its eager one, each with its interval as a whisker.
// One figure per device, model and precision: a device's figure never mixes in another device's cells.
// The table under it gives every number, and says why a bar is missing.

#include "dataset/dataset.hpp"
#include "site/site_data.hpp"
#include "site/template_check.hpp"

#include <string>
#include <vector>

namespace layerbench::site {

// One bar's cell: timed, or skipped with its reason; no cell where none of the release's datasets
// has one at the figure's batch size.
struct ReleaseBar
{
  const SiteDataset* entry = nullptr;
  const dataset::Cell* cell = nullptr;
};

struct ReleaseFigure
{
  std::string device; // "AMD EPYC with 2 threads", a GPU's name alone
  std::string model;
  std::string unit;   // "images/s"
  dataset::Precision precision = dataset::Precision::fp32;
  // The largest batch size this device trained the model at in this precision: a training step is
  // most representative where the batch fills the device.
  int batch = 0;
  std::vector<std::string> releases;          // release order
  std::vector<dataset::Compiled> settings;    // eager, then each compiled form measured
  std::vector<std::vector<ReleaseBar>> bars;  // [release][setting]
};

// The figures of `model` (empty: every model), by device (the version history's grouping, datasets that
// a newer version replaces left out), then model, then precision. Training cells at the reference values
// of the other axes only; a precision without a timed cell on a device has no figure there.
std::vector<ReleaseFigure> release_figures(const SiteData& site, const std::string& model);

// The bar chart of one figure; `id` is unique on its page.
std::string release_chart(const ReleaseFigure& figure, const std::string& id);

// What the partial release_chart.mustache shows: {devices: [{device, anchor, figures: [{id, heading,
// chart, caption, unit, rows}]}]}, or false where no device trained the model. `root` climbs to the
// site's root from the page.
Data release_chart_section(const SiteData& site, const std::string& model, const std::string& root);

} // namespace layerbench::site
