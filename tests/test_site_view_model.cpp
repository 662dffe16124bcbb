// SPDX-License-Identifier: MIT
// The home page's view: its list of datasets in an order a reader can follow, and what it says of GPUs
// (hand-made datasets; the numbers are test inputs, not measurements).
#include "site/view_model.hpp"

#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using layerbench::site::Data;
namespace dataset = layerbench::dataset;
namespace site = layerbench::site;
namespace test = layerbench::test;

namespace {

site::SiteDataset versioned_entry(dataset::Dataset d, int version = 1)
{
  site::SiteDataset entry;
  entry.slug = d.id + "-v" + std::to_string(version);
  entry.data = std::move(d);
  return entry;
}

dataset::Dataset release_dataset(const std::string& torch, const std::string& created)
{
  dataset::Dataset d = test::measured();
  d.id = "cpu-torch-" + torch;
  d.environment->torch_version = torch;
  d.created = created;
  return d;
}

dataset::Dataset reference()
{
  dataset::Dataset d = test::measured();
  d.id = "gpu-reference";
  d.kind = dataset::Kind::published_reference;
  d.environment.reset();
  return d;
}

Data home_view(const site::SiteData& data)
{
  for (auto& page : site::build_pages(data)) {
    if (page.path == "index.html") {
      return page.view;
    }
  }
  FAIL("no home page");
  return Data(false);
}

std::vector<std::string> listed_ids(const Data& view)
{
  std::vector<std::string> ids;
  for (const auto& item : view.get("datasets")->list_value()) {
    ids.push_back(item.get("id")->string_value());
  }
  return ids;
}

} // namespace

TEST_CASE("site::home_page")
{
  site::SiteData data;
  data.datasets.push_back(versioned_entry(release_dataset("2.7.1", "2026-11-20T00:00:00Z")));
  data.datasets.push_back(versioned_entry(release_dataset("2.11.0", "2026-11-21T00:00:00Z")));
  data.datasets.push_back(versioned_entry(release_dataset("2.9.1", "2026-11-22T00:00:00Z")));
  data.datasets.push_back(versioned_entry(release_dataset("2.7.1+cpu", "2026-11-19T00:00:00Z"), 2));
  data.datasets.back().data.id = "cpu-torch-2.7.1-older";
  data.datasets.push_back(versioned_entry(reference()));

  SUBCASE("the reference first, then releases as numbers, the older of one release first")
  {
    const Data view = home_view(data);
    CHECK(listed_ids(view)
          == std::vector<std::string>{"gpu-reference", "cpu-torch-2.7.1-older", "cpu-torch-2.7.1", "cpu-torch-2.9.1", "cpu-torch-2.11.0"});
  }
  SUBCASE("no measured dataset on a GPU: the note says so, and that the GPU figures are the reference's")
  {
    const Data view = home_view(data);
    const Data* note = view.get("gpu_note");
    REQUIRE(note != nullptr);
    REQUIRE(note->is_object());
    CHECK(note->get("has_reference")->is_true());
  }
  SUBCASE("a measured dataset on CUDA: no note")
  {
    dataset::Dataset gpu = release_dataset("2.11.0", "2026-11-23T00:00:00Z");
    gpu.id = "cuda-run";
    gpu.environment->device.type = "cuda";
    data.datasets.push_back(versioned_entry(gpu));
    const Data view = home_view(data);
    CHECK(view.get("gpu_note")->is_false());
  }
  SUBCASE("a measured dataset featured: its totals against the reference and the link to their comparison page")
  {
    data.featured = 1; // 2.11.0
    const Data view = home_view(data);
    const Data* against = view.get("against_reference");
    REQUIRE(against != nullptr);
    REQUIRE(against->is_object());
    CHECK(against->get("href")->string_value() == "compare/gpu-reference-v1--cpu-torch-2.11.0-v1.html");
    CHECK(!against->get("compared")->string_value().empty());
    CHECK(!against->get("geomean")->string_value().empty());
  }
  SUBCASE("the reference featured: nothing to set against it")
  {
    data.featured = 4;
    CHECK(home_view(data).get("against_reference")->is_false());
  }
}
