// SPDX-License-Identifier: MIT
#include "site/device_datasets.hpp"

#include "site/view_common.hpp"

#include <algorithm>
#include <cctype>

namespace layerbench::site {

namespace {

// How well a dataset stands for its device, best first: what it is, then how much it measured, then age.
struct Standing
{
  int kind = 0; // 0 the featured dataset, 1 a plain dataset, 2 a settings or shapes dataset, 3 a release
  size_t batches = 0;
  std::string created;

  bool better_than(const Standing& other) const
  {
    if (kind != other.kind) {
      return kind < other.kind;
    }
    if (batches != other.batches) {
      return batches > other.batches;
    }
    return created > other.created;
  }
};

Standing standing_of(const SiteData& site, size_t index)
{
  const SiteDataset& entry = site.datasets[index];
  const int kind = index == site.featured        ? 0
                   : is_release_dataset(entry)  ? 3
                   : is_settings_dataset(entry) || is_shapes_dataset(entry) ? 2
                                                                           : 1;
  return {kind, batch_sizes(entry.data).size(), entry.data.created};
}

} // namespace

bool is_release_dataset(const SiteDataset& entry)
{
  const std::string& id = entry.data.id;
  const std::string marker = "-torch-";
  const size_t at = id.rfind(marker);
  if (at == std::string::npos || at + marker.size() == id.size()) {
    return false;
  }
  // "-torch-2-7-1": digits and dashes only after the marker, as measure.sh writes the release.
  return std::all_of(id.begin() + static_cast<std::ptrdiff_t>(at + marker.size()), id.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '-'; });
}

bool is_settings_dataset(const SiteDataset& entry) { return dataset::has_axes(entry.data); }

bool is_shapes_dataset(const SiteDataset& entry)
{
  return std::any_of(entry.data.layers.begin(), entry.data.layers.end(),
                     [](const dataset::Layer& layer) { return layer.shape && layer.shape->layer != layer.name; });
}

std::vector<size_t> featured_per_device(const SiteData& site)
{
  std::vector<size_t> chosen;
  for (size_t i = 0; i < site.datasets.size(); ++i) {
    const SiteDataset& entry = site.datasets[i];
    if (i != site.featured && entry.origin == DatasetOrigin::published && replaced_on_site(site, entry)) {
      continue;
    }
    const auto same_device = std::find_if(chosen.begin(), chosen.end(), [&](size_t j) {
      return site.datasets[j].origin == entry.origin && device_text(site.datasets[j].data) == device_text(entry.data);
    });
    if (same_device == chosen.end()) {
      chosen.push_back(i);
    } else if (standing_of(site, i).better_than(standing_of(site, *same_device))) {
      *same_device = i;
    }
  }
  return chosen;
}

} // namespace layerbench::site
