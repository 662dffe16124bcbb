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
PageSpec datasets_page(const SiteData& site, Data base, const std::string& base_url);

// Every unordered pair of datasets, as (base, other): the reference is always the base.
std::vector<std::pair<size_t, size_t>> compare_pairs(const SiteData& site);
std::string compare_path(const SiteData& site, size_t base, size_t other);
std::string compare_title(const SiteData& site, size_t base, size_t other);
PageSpec compare_index_page(const SiteData& site, Data base);
PageSpec compare_page(const SiteData& site, size_t base, size_t other, Data view, const std::string& path);

} // namespace layerbench::site
