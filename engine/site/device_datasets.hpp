// SPDX-License-Identifier: MIT
#pragma once

// Which dataset stands for each device wherever the site shows a device's layer times (the home page's
// tables, the layer pages' answer and charts, the FAQ): one choice, made here, so that a cell reads the
// same on every page that shows it.

#include "site/site_data.hpp"

#include <vector>

namespace layerbench::site {

// One release of a version series (bench/versions/measure.sh publishes them as "<prefix>-torch-X-Y-Z"):
// shown on the versions page, the datasets page and the comparisons, never standing for its device.
bool is_release_dataset(const SiteDataset& entry);

// A dataset that measured corners of the settings cube beside the reference one (the cube, AOTInductor):
// its own settings page shows it.
bool is_settings_dataset(const SiteDataset& entry);

// A dataset that measured a layer at parameters other than the reference's (layers[].shape, a sweep or a
// suite of the user's shapes): its layers' pages and sweep sections show it.
bool is_shapes_dataset(const SiteDataset& entry);

// One dataset per device, in site order. The site's featured dataset stands for its device. Any other
// device is stood for by its dataset that is not replaced by a newer version, not a release of a version
// series and not a settings or shapes dataset, of those the one with the most batch sizes, then the newest; a device
// with nothing else falls back to those, so that it is still shown. A local run is never merged with a
// published one.
std::vector<size_t> featured_per_device(const SiteData& site);

} // namespace layerbench::site
