// SPDX-License-Identifier: MIT
#pragma once

// Peaks and rooflines on the site (docs/roofline.md): the datasheet table and each dataset's peaks
// (roofline.html), one roofline chart per measured dataset (roofline/<slug>.html), each cell's bound
// and fraction on the layer pages, and the two FAQ answers the roofline explains.

#include "dataset/roofline.hpp"
#include "site/site_data.hpp"
#include "site/view_model.hpp"

#include <optional>
#include <string>

namespace layerbench::site {

std::string roofline_path(const SiteDataset& entry); // "roofline/<slug>.html"

// A cell "is set by" a resource, and a faster device "speeds it up", only when it reached at least
// this share of that resource's roof: a cell far below its roof is held back by something else.
inline constexpr double k_near_roof = 0.5;

std::string flop_rate_text(double flop_per_s); // "1.23 TFLOP/s"
std::string bandwidth_text(double bytes_per_s); // "21.3 GB/s"
std::string intensity_text(double flop_per_byte); // "12.3 FLOP/byte"
std::string fraction_text(double fraction);       // 0.123 -> "12.3%"

PageSpec roofline_index_page(const SiteData& site, Data base);
PageSpec roofline_page(const SiteData& site, size_t index, Data base);

// The roofs a dataset's cells are held against: its own measured fp32 peaks; for a transcribed
// reference, its device's datasheet (we did not run it). nullopt when it has neither, or when an
// erratum withdrew its fp32 peak: then no page gives a cell's bound or share.
std::optional<dataset::Roofs> roofs_of(const SiteData& site, const SiteDataset& entry);

// Whether a measured dataset has a roofline page (it measured its peaks). A withdrawn fp32 peak keeps the
// page, which then says so and draws the memory roofs alone.
bool has_roofline_page(const SiteDataset& entry);

// The roofline of one cell: a dataset's own FLOPs and bytes; a reference, which has no bytes and
// whose printed FLOPs are often not PyTorch's, takes both from the newest measured dataset with the
// same layer and configuration. nullopt when there is nothing to compute it from.
std::optional<dataset::CellRoofline> roofline_of(const SiteData& site, const SiteDataset& entry, const dataset::Cell& cell);

// For a layer page: per dataset with roofs, each cell's intensity, bound, bound resource and fraction.
Data layer_roofline_blocks(const SiteData& site, const std::string& layer);

// {tflops, convolutions}: the FAQ's two answers from the first dataset (featured first) with peaks;
// each false when the data cannot give it.
Data roofline_faq(const SiteData& site);

} // namespace layerbench::site
