// SPDX-License-Identifier: MIT
// The compare index (issue 39): every pair grouped by the devices of its two datasets for a reader
// without a script, and the picker's datasets grouped by device. The numbers are test inputs.
#include "site/view_pages.hpp"

#include "test_site_fixture.hpp"
#include "test_site_sites.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using layerbench::site::Data;
namespace dataset = layerbench::dataset;
namespace site = layerbench::site;
namespace test = layerbench::test;

namespace {

dataset::Dataset on(const std::string& id, const std::string& device)
{
  auto d = test::measured({"Linear"}, {1});
  d.id = id;
  d.environment->device.name = device;
  return d;
}

} // namespace

TEST_CASE("site::compare_index_page")
{
  // The second device's datasets come both before and after the first's: a pair must land in one group
  // whichever dataset is its base.
  const auto data = test::site_of({on("xeon-a", "Xeon"), on("epyc-a", "EPYC"), on("xeon-b", "Xeon"), on("epyc-b", "EPYC")});
  const auto page = site::compare_index_page(data, Data(Data::type::object));
  SUBCASE("pairs on one device come first, then each pair of devices once, in the site's order of devices")
  {
    const auto& groups = page.view.get("groups")->list_value();
    REQUIRE(groups.size() == 3);
    CHECK(test::string_at(groups[0], "heading") == "Both on Xeon");
    CHECK(test::string_at(groups[1], "heading") == "Both on EPYC");
    CHECK(test::string_at(groups[2], "heading") == "Xeon and EPYC");
    CHECK(groups[0].get("pairs")->list_value().size() == 1);
    CHECK(groups[1].get("pairs")->list_value().size() == 1);
    // xeon-a/epyc-a, xeon-a/epyc-b, epyc-a/xeon-b (its base on EPYC) and xeon-b/epyc-b.
    CHECK(groups[2].get("pairs")->list_value().size() == 4);
  }
  SUBCASE("each link carries its two slugs, for the picker to find it")
  {
    const auto& pair = page.view.get("groups")->list_value()[0].get("pairs")->list_value()[0];
    CHECK(test::string_at(pair, "href") == "compare/xeon-a-v1--xeon-b-v1.html");
    CHECK(test::string_at(pair, "base_slug") == "xeon-a-v1");
    CHECK(test::string_at(pair, "other_slug") == "xeon-b-v1");
  }
  SUBCASE("the picker offers every dataset, grouped by device")
  {
    const auto& devices = page.view.get("devices")->list_value();
    REQUIRE(devices.size() == 2);
    CHECK(test::string_at(devices[0], "device") == "Xeon");
    const auto& options = devices[0].get("datasets")->list_value();
    REQUIRE(options.size() == 2);
    CHECK(test::string_at(options[1], "slug") == "xeon-b-v1");
    CHECK(test::string_at(options[1], "label") == "xeon-b");
  }
}

TEST_CASE("site::compare_index_page long groups")
{
  // Six EPYC datasets make 15 pairs on one device, more than a reader scans: the group is folded by
  // dataset, each pair under both of its datasets, named by the other. Two on the Xeon stay one list.
  std::vector<dataset::Dataset> datasets;
  for (const char* id : {"epyc-a", "epyc-b", "epyc-c", "epyc-d", "epyc-e", "epyc-f"}) {
    datasets.push_back(on(id, "EPYC"));
  }
  datasets.push_back(on("xeon-a", "Xeon"));
  datasets.push_back(on("xeon-b", "Xeon"));
  const auto page = site::compare_index_page(test::site_of(datasets), Data(Data::type::object));
  const auto& groups = page.view.get("groups")->list_value();
  REQUIRE(groups.size() == 3);
  CHECK(test::string_at(groups[0], "heading") == "Both on EPYC");
  CHECK(test::string_at(groups[0], "count") == "15 comparisons");
  CHECK(groups[0].get("pairs")->list_value().empty());
  const auto& folds = groups[0].get("by_dataset")->list_value();
  REQUIRE(folds.size() == 6); // one release and date: in site order
  CHECK(test::string_at(folds[2], "label") == "epyc-c");
  CHECK(test::string_at(folds[2], "count") == "5 comparisons");
  const auto& links = folds[2].get("pairs")->list_value();
  REQUIRE(links.size() == 5);
  CHECK(test::string_at(links[0], "label") == "against epyc-a");
  CHECK(test::string_at(links[0], "href") == "compare/epyc-a-v1--epyc-c-v1.html"); // the same page as under epyc-a
  CHECK(test::string_at(links[2], "label") == "against epyc-d");
  CHECK(test::string_at(groups[1], "heading") == "Both on Xeon");
  CHECK(groups[1].get("by_dataset")->is_false());
  CHECK(groups[1].get("pairs")->list_value().size() == 1);
}

TEST_CASE("site::compare_index_page folds in release order")
{
  // Releases as numbers: 2.11.0 after 2.9.1, whatever the site's order.
  std::vector<dataset::Dataset> datasets;
  for (const char* torch : {"2.11.0", "2.9.1", "1.13.1", "2.0.1", "2.6.0", "2.7.1"}) {
    auto d = on(std::string("epyc-") + torch, "EPYC");
    d.environment->torch_version = torch;
    datasets.push_back(d);
  }
  const auto page = site::compare_index_page(test::site_of(datasets), Data(Data::type::object));
  std::vector<std::string> labels;
  for (const auto& fold : page.view.get("groups")->list_value()[0].get("by_dataset")->list_value()) {
    labels.push_back(test::string_at(fold, "label"));
  }
  CHECK(labels == std::vector<std::string>{"epyc-1.13.1", "epyc-2.0.1", "epyc-2.6.0", "epyc-2.7.1", "epyc-2.9.1", "epyc-2.11.0"});
}

TEST_CASE("site::compare_page")
{
  auto base = on("xeon-a", "Xeon");
  auto other = on("xeon-b", "Xeon");
  test::cell_of(other, "Linear", 1).stats = test::quartiles(0.5, 0.49, 0.51);
  const auto data = test::site_of({base, other});
  const auto page = site::compare_page(data, 0, 1, Data(Data::type::object), "compare/x.html");
  // The sorting script orders a column by the ratio, not by the base's time printed first.
  const auto& cell = page.view.get("rows")->list_value()[0].get("cells")->list_value()[0];
  CHECK(test::string_at(cell, "ratio_sort") == "0.500000");
}
