// SPDX-License-Identifier: MIT
#pragma once

// The builders of each kind of page; `base` carries what every page has (root, navigation).

#include "site/site_data.hpp"
#include "site/view_model.hpp"

#include <string>
#include <utility>
#include <vector>

namespace layerbench::site {

PageSpec layer_page(const SiteData& site, const std::string& layer, Data base);
PageSpec faq_page(const SiteData& site, Data base);
PageSpec methodology_page(const SiteData& site, Data base, const std::string& base_url);
PageSpec formulas_page(const SiteData& site, Data base);
// How to measure this dataset again: {commit_note, lines} (shell lines), or the way to measure its
// matrix yourself for a transcribed reference.
Data reproduce_steps(const SiteDataset& entry);
// The datasets index: one table per device, a row per dataset in release and date order (groups).
PageSpec datasets_page(const SiteData& site, Data base);
// A dataset's own page (dataset_path): downloads, checksum, licence, methodology, provenance, citation.
PageSpec dataset_page(const SiteData& site, const SiteDataset& entry, Data base, const std::string& base_url);

// The settings page of a dataset that measured corners of the performance-setting cube.
bool has_settings_page(const SiteDataset& entry);
std::string settings_path(const SiteDataset& entry); // "settings/<slug>.html"
PageSpec settings_page(const SiteDataset& entry, Data base);
// For the FAQ: per layer, the inference setting with the largest speedup at the largest batch size, in
// the featured dataset or else the first with settings; false when no dataset has any.
Data settings_answer(const SiteData& site);
// For a layer page: every corner each dataset measured of `layer` (an empty list when none did).
Data corner_blocks(const SiteData& site, const std::string& layer);

// Every unordered pair of datasets, as (base, other): the reference is always the base.
std::vector<std::pair<size_t, size_t>> compare_pairs(const SiteData& site);
std::string compare_path(const SiteData& site, size_t base, size_t other);
std::string compare_title(const SiteData& site, size_t base, size_t other);
PageSpec compare_index_page(const SiteData& site, Data base);
PageSpec compare_page(const SiteData& site, size_t base, size_t other, Data view, const std::string& path);
// The totals of one comparison page: {compared, other_faster, other_slower, unchanged, rule, geomean}.
Data compare_totals(const SiteData& site, size_t base, size_t other);

// Whole models (issue 25's pages): the index, and one page per model name across the datasets.
std::string model_path(const std::string& model); // "models/ResNet50.html"
std::vector<std::string> model_names(const SiteData& site);
PageSpec models_page(const SiteData& site, Data base);
PageSpec model_page(const SiteData& site, const std::string& name, Data base);
// "inference mode, fp32", "training, bf16": a model cell's setting as the model pages name it.
std::string model_setting_label(const dataset::Axes& axes);
// The model against the sum of its layers, one block per layer-sum dataset that measured it (an empty
// list when none did; site/view_layer_sum.cpp).
Data layer_sum_blocks(const SiteData& site, const std::string& model);

// Over every model measured against the sum of its layers: the smallest and largest ratio of the model's
// median to that sum, each with its model, setting and batch size ({low, low_where, high, high_where,
// href}), or false when no dataset has a complete one (the home page's "Why it matters").
Data layer_sum_extremes(const SiteData& site);

// The version history (issue 26): one machine's datasets of layers across torch releases, oldest first;
// a series exists where two releases or more were measured on the same device with the same threads.
struct ReleaseDataset
{
  std::string torch_version; // "2.7.1"
  const SiteDataset* entry = nullptr;
};
struct VersionSeries
{
  std::string device;
  int threads = 0;
  std::string slug;
  std::vector<ReleaseDataset> releases;
};
std::vector<VersionSeries> version_series(const SiteData& site);
std::string versions_path(const VersionSeries& series); // "versions/<device>.html"
PageSpec versions_page(const SiteData& site, const VersionSeries& series, Data base);
// For the FAQ's "did upgrading PyTorch make my layer faster?": false where no machine has two releases.
Data versions_answer(const SiteData& site);

} // namespace layerbench::site
