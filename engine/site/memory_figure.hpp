// SPDX-License-Identifier: MIT
#pragma once

// Peak memory as the pages show it. A dataset whose memory figures an erratum withdrew (catalog.json's
// errata) shows none of them: each is replaced by "withdrawn, see erratum" with a link to the erratum on
// the dataset's own page, never by a figure corrected by arithmetic. Every page that shows peak memory goes
// through here.

#include "dataset/dataset.hpp"
#include "site/site_data.hpp"
#include "site/template_check.hpp"

#include <string>

namespace layerbench::site {

inline constexpr const char* k_withdrawn_text = "withdrawn, see erratum";

// "erratum-<slug>-peak_memory_bytes", "erratum-<slug>-environment-peaks-compute-fp32": the erratum's
// anchor on the dataset's page.
std::string erratum_anchor(const SiteDataset& entry, const dataset::Erratum& erratum);
// Its address from a page `root` below the site's root ("", "../").
std::string erratum_href(const SiteDataset& entry, const dataset::Erratum& erratum, const std::string& root);

// Sets "memory" on `row`: the cell's peak (with `suffix`, " at BS=8"), "—" where it has none, or
// k_withdrawn_text; and "memory_erratum": the erratum's address from a page `root` below the site's
// root ("", "../"), or false.
void set_memory(Data& row, const SiteDataset& entry, const dataset::Cell* cell, const std::string& root,
                const std::string& suffix = "");

// The errata of `entry` for its own page and its row of the datasets index: {anchor, field, consequence, date,
// reason, fixed_by}.
Data errata_view(const SiteDataset& entry);

} // namespace layerbench::site
