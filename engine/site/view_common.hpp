// SPDX-License-Identifier: MIT
#pragma once

// Helpers that the page builders share: lookups in a dataset and the text forms of its figures.

#include "site/site_data.hpp"
#include "site/template_check.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace layerbench::site {

Data object();
Data list();
Data link(const std::string& href, const std::string& label);
Data labelled(const std::string& label, const std::string& value); // {label, value}

std::string layer_path(const std::string& layer); // "layers/Conv2d.html"

// The median of an ok cell; nullopt for a skipped or absent cell.
std::optional<double> median_ms(const dataset::Dataset& data, const std::string& layer, int batch);
// "0.0244" (milliseconds, three significant digits), "skipped" or "—".
std::string cell_median_text(const dataset::Cell* cell);
// "p25 0.0241 ms · p75 0.0250 ms · 31 samples", or why there is none.
std::string cell_quartile_text(const dataset::Cell* cell);
std::string ms_text(std::optional<double> ms);
// format_significant without trailing zeros: 0.5 -> "0.5", 2.00 -> "2".
std::string trimmed_significant(double value, int digits);
std::string ratio_text(double ratio); // "1,243×" / "12.3×" / "0.812×"

// The batch sizes of the declared matrix, or those of the cells when there is no methodology block.
std::vector<int> batch_sizes(const dataset::Dataset& data);
// Every layer of every dataset, featured dataset's order first.
std::vector<std::string> layer_order(const SiteData& site);

// "H100 (2026-11-22) · v1": one line that tells datasets apart.
std::string dataset_label(const SiteDataset& entry);
std::string device_text(const dataset::Dataset& data);
// id, version, title, kind, device, torch, created, counts, sha256, downloads, licence, citation.
Data dataset_summary(const SiteDataset& entry, const std::string& root);

// The reference's known inconsistencies, for one dataset id and one layer (empty: all), as
// {items, conventions, has_conventions}; false when there are none.
Data known_issues(const SiteData& site, const std::string& dataset_id, const std::string& layer);
// known_issues of every published reference (that has `layer`, unless empty), each with its "dataset" label.
Data reference_issue_blocks(const SiteData& site, const std::string& layer);

// Headline facts of one dataset (fastest and slowest layer at the focus batch, their ratio).
Data featured_facts(const dataset::Dataset& data);

} // namespace layerbench::site
