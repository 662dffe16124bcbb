// SPDX-License-Identifier: MIT
#pragma once

// Findings (data/findings/, dataset/finding.hpp) on the site: the section of a versions page that says
// why a cell's time differs between releases, and the FAQ's answer. Times come from the datasets the
// finding names; the finding gives the kernel path, the cause and the sources.

#include "site/site_data.hpp"
#include "site/view_model.hpp"
#include "site/view_pages.hpp"

#include <optional>
#include <string>
#include <vector>

namespace layerbench::site {

// The published dataset a finding names as "id@N"; nullptr where the site does not have it.
const SiteDataset* finding_dataset(const SiteData& site, const std::string& reference);

// The finding that explains `layer` on this series (one of its releases' datasets is one the finding
// names), or nullptr.
const dataset::Finding* finding_for(const SiteData& site, const VersionSeries& series, const std::string& layer);

// The finding that explains `layer`'s change from torch `from` to `to` on this series: it covers the
// cell and puts the two releases on different kernel paths; nullptr otherwise.
const dataset::Finding* finding_between(const SiteData& site, const VersionSeries& series, const std::string& layer,
                                        const std::string& from, const std::string& to);

std::string finding_anchor(const dataset::Finding& finding); // "finding-<id>"

// The sections of a versions page: one per finding that explains a cell of the series (a list, empty
// where none does).
Data finding_sections(const SiteData& site, const VersionSeries& series);

// The finding's cell at `batch` on its slowest kernel path over its fastest, from the datasets: the
// smallest and largest ratio over every pair of releases, one on each path. nullopt where a path has no
// release with a timed cell.
struct PathRatio
{
  double low = 0;
  double high = 0;
  std::string fast_path;
  std::string slow_path;
  std::vector<std::string> fast_releases; // in the finding's order
  std::vector<std::string> slow_releases;
  double fast_low_ms = 0, fast_high_ms = 0, slow_low_ms = 0, slow_high_ms = 0;
};
std::optional<PathRatio> path_ratio(const SiteData& site, const dataset::Finding& finding, int batch);

// For the FAQ: "why is <layer> N× faster on <releases>?", answered from the first finding whose
// releases the site has at batch 32; false where there is none.
Data finding_answer(const SiteData& site);

} // namespace layerbench::site
