// SPDX-License-Identifier: MIT
#pragma once

// A site of hand-made datasets, each published as "<id>-v1" under its id as label: for the pages
// (versions, compare) whose views take the whole site.

#include "site/site_data.hpp"

#include "test_dataset_fixture.hpp"

#include <vector>

namespace layerbench::test {

inline site::SiteData site_of(const std::vector<dataset::Dataset>& datasets)
{
  site::SiteData data;
  for (const auto& d : datasets) {
    site::SiteDataset entry;
    entry.slug = d.id + "-v1";
    entry.label = d.id;
    entry.data = d;
    data.datasets.push_back(entry);
  }
  return data;
}

// The datasets as the site's models, beside one dataset of layers.
inline site::SiteData model_site(const std::vector<dataset::Dataset>& sets)
{
  auto data = site_of({measured()});
  data.models = site_of(sets).datasets;
  return data;
}

} // namespace layerbench::test
