// SPDX-License-Identifier: MIT
// Shared by the site's view tests: one hand-made dataset rendered into its pages' view models, with
// peaks and per-layer figures planted so that a claim's condition holds or fails. Test inputs, not
// measurements.
#pragma once

#include "site/view_model.hpp"

#include "test_dataset_fixture.hpp"
#include "test_text.hpp"

#include <doctest/doctest.h>

#include <string>

namespace layerbench::test {

// The data folder of the site's fixture (tests/fixtures/site/data).
inline const std::filesystem::path k_site_fixture_data = k_source / "tests/fixtures/site/data";

// The text a view holds at `key`; the test fails where there is none, or it is not a text.
inline std::string string_at(const site::Data& view, const std::string& key)
{
  const site::Data* value = view.get(key);
  REQUIRE(value != nullptr);
  REQUIRE(value->is_string());
  return value->string_value();
}

// Roofs of 100 GFLOP/s and 10 GB/s: the ridge is at 10 FLOP/byte.
inline void set_peaks(dataset::Dataset& d)
{
  dataset::Peaks peaks;
  peaks.compute.push_back({"fp32", "matrix product", 1, 1, 100e9, std::nullopt, std::nullopt, std::nullopt});
  peaks.memory = dataset::PeakRate{"triad", "triad", 1, 1, 10e9, std::nullopt, std::nullopt, std::nullopt};
  d.environment->peaks = peaks;
}

// A layer's counts per sample, and its cell's median at `batch`.
inline void set_layer(dataset::Dataset& d, const std::string& name, int64_t params, double flops, double bytes, double ms,
                      int batch = 32)
{
  for (auto& layer : d.layers) {
    if (layer.name == name) {
      layer.params = params;
      layer.flops_per_sample = flops;
      layer.bytes_fixed = 0;
      layer.bytes_per_sample = bytes;
    }
  }
  cell_of(d, name, batch).stats = quartiles(ms, ms * 0.99, ms * 1.01);
}

// The view model of one page of the site that holds only `d`.
// The view of the page at `path` of a site holding `data`.
inline site::Data page_of(const site::SiteData& data, const std::string& path)
{
  for (auto& page : site::build_pages(data)) {
    if (page.path == path) {
      return page.view;
    }
  }
  FAIL("no page " << path);
  return site::Data(false);
}

inline site::Data page_view(const dataset::Dataset& d, const std::string& path)
{
  site::SiteData data;
  site::SiteDataset entry;
  entry.slug = d.id + "-v1";
  entry.data = d;
  data.datasets.push_back(entry);
  return page_of(data, path);
}

} // namespace layerbench::test
