// SPDX-License-Identifier: MIT
#pragma once

// The mark on a figure of a published reference that the site finds inconsistent (issue 39): the
// inconsistencies files (data/reference/*-inconsistencies.json) say which figure of which layer is
// wrong; the tables that print that figure carry a mark with a one-line reason and a link to the
// inconsistency on the one page that lists them all.

#include "site/site_data.hpp"
#include "site/template_check.hpp"
#include "site/view_model.hpp"

#include <string>

namespace layerbench::site {

// The figure of a table that an inconsistency is about.
enum class FlaggedFigure { params, flops, time, memory };

// The page that lists every inconsistency, from the site's root.
inline constexpr const char* k_inconsistencies_page = "inconsistencies.html";

// Why the site finds it inconsistent, in one line of a reader's words with both numbers.
std::string issue_reason(const dataset::Inconsistency& item);

// The mark of (layer, figure) of the dataset `dataset_id`, at `batch` for a time or a memory figure:
// {reason, href}, the reasons of every inconsistency about that figure joined and the first one's place
// on the inconsistencies page (from `root`); false where none is about it, or the dataset is not a
// published reference. A claim of the text against the table marks no figure: it is on that page only.
Data figure_flag(const SiteData& site, const dataset::Dataset& data, const std::string& layer, FlaggedFigure figure, int batch,
                 const std::string& root);

// time_cell of (layer, batch) with its "flag" (figure_flag, or false).
Data flagged_time_cell(const SiteData& site, const dataset::Dataset& data, const std::string& layer, int batch, const std::string& root);

// The page the marks link to: every inconsistency of every reference, once (k_inconsistencies_page).
PageSpec inconsistencies_page(const SiteData& site, Data base);

} // namespace layerbench::site
