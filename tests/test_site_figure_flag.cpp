// SPDX-License-Identifier: MIT
#include "site/figure_flag.hpp"

#include "site/view_common.hpp"
#include "site/view_pages.hpp"
#include "test_site_fixture.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

namespace {

// A transcribed reference of Linear and Dropout at batch sizes 1 and 8, with its inconsistencies:
// Linear's parameter count against PyTorch's and the page's formula, its time at batch size 8 above the
// device's peak, and a claim of the text that marks no figure.
site::SiteData reference_site()
{
  dataset::Dataset d = test::measured();
  d.id = "test-reference";
  d.kind = dataset::Kind::published_reference;
  site::SiteDataset entry;
  entry.slug = "test-reference-v1";
  entry.data = d;
  site::SiteData site;
  site.datasets.push_back(entry);

  dataset::Inconsistency params;
  params.kind = dataset::InconsistencyKind::params_differ_from_pytorch;
  params.layer = "Linear";
  params.page = 10;
  params.pytorch = 12;
  dataset::Inconsistency formula;
  formula.kind = dataset::InconsistencyKind::params_differ_from_page_formula;
  formula.layer = "Linear";
  formula.page = 10;
  formula.formula_value = 11;
  dataset::Inconsistency rate;
  rate.kind = dataset::InconsistencyKind::implied_rate_above_peak;
  rate.layer = "Linear";
  rate.batch_size = 8;
  rate.page_ms = 0.142;
  rate.implied_flop_per_s = 29.9e12;
  rate.peak_flop_per_s = 19.5e12;
  dataset::Inconsistency claim;
  claim.kind = dataset::InconsistencyKind::claim_differs_from_table;
  claim.layer = "Linear";
  claim.claim = "Linear is the fastest";
  site::InconsistencyFile file;
  int n = 0;
  for (const auto& item : {params, rate, claim, formula}) {
    file.items.push_back({"test-reference", dataset::to_string(item.kind), item.layer, {}, "issue-test-reference-" + std::to_string(++n), item});
  }
  site.inconsistencies.push_back(file);
  return site;
}

} // namespace

TEST_CASE("site::figure_flag")
{
  const auto site = reference_site();
  const auto& data = site.datasets.front().data;

  SUBCASE("a count the reference gets wrong carries its reason and the link to it")
  {
    const auto flag = site::figure_flag(site, data, "Linear", site::FlaggedFigure::params, 0, "../");
    REQUIRE_FALSE(flag.is_false());
    // Both of Linear's count's inconsistencies, the page's figure said once.
    CHECK(flag.get("reason")->string_value()
          == "The page gives 10 parameters; the module PyTorch builds has 12, and its own formula gives 11.");
    CHECK(flag.get("href")->string_value() == "../inconsistencies.html#issue-test-reference-1");
  }
  SUBCASE("a time is marked at the batch size the inconsistency names, not at the others")
  {
    const auto at_8 = site::figure_flag(site, data, "Linear", site::FlaggedFigure::time, 8, "");
    REQUIRE_FALSE(at_8.is_false());
    CHECK(at_8.get("reason")->string_value() == "0.142 ms at batch size 8 implies 29.9 TFLOP/s, above the device's peak of 19.5 TFLOP/s.");
    CHECK(at_8.get("href")->string_value() == "inconsistencies.html#issue-test-reference-2");
    CHECK(site::figure_flag(site, data, "Linear", site::FlaggedFigure::time, 1, "").is_false());
  }
  SUBCASE("another layer, another figure or a claim of the text marks nothing")
  {
    CHECK(site::figure_flag(site, data, "Dropout", site::FlaggedFigure::params, 0, "").is_false());
    CHECK(site::figure_flag(site, data, "Linear", site::FlaggedFigure::flops, 0, "").is_false());
    CHECK(site::figure_flag(site, data, "Linear", site::FlaggedFigure::memory, 8, "").is_false());
  }
  SUBCASE("a measured dataset with the reference's id is not marked")
  {
    auto measured = data;
    measured.kind = dataset::Kind::measured;
    CHECK(site::figure_flag(site, measured, "Linear", site::FlaggedFigure::params, 0, "").is_false());
  }
  SUBCASE("a time cell carries the flag; an unmarked one carries false, never an absent key")
  {
    CHECK_FALSE(site::flagged_time_cell(site, data, "Linear", 8, "").get("flag")->is_false());
    CHECK(site::flagged_time_cell(site, data, "Linear", 1, "").get("flag")->is_false());
    CHECK(site::time_cell(data, nullptr).get("flag")->is_false());
  }
}

TEST_CASE("site::build_pages marks the reference's figures")
{
  const auto site = reference_site();
  const auto pages = site::build_pages(site);
  const auto page = [&](const std::string& path) {
    for (const auto& spec : pages) {
      if (spec.path == path) {
        return spec.view;
      }
    }
    FAIL("no page " << path);
    return site::Data(false);
  };

  SUBCASE("the home table: Linear's parameters and its time at batch size 8")
  {
    const auto results = page("index.html").get("results")->list_value();
    const auto& row = results.back().get("rows")->list_value().front(); // the featured table is written last
    CHECK_FALSE(row.get("params_flag")->is_false());
    CHECK(row.get("flops_flag")->is_false());
    const auto& times = row.get("times")->list_value();
    CHECK(times[0].get("flag")->is_false());
    CHECK_FALSE(times[1].get("flag")->is_false());
    // A phone shows the reference batch's time (8, the largest here) first, with its mark, and hides its column.
    CHECK(row.get("first_time")->get("text")->string_value() == times[1].get("text")->string_value());
    CHECK_FALSE(row.get("first_time")->get("flag")->is_false());
    CHECK(times[1].get("at_reference")->is_true());
    CHECK(times[0].get("at_reference")->is_false());
  }
  SUBCASE("the formulas page marks the featured dataset's own count")
  {
    const auto view = page("formulas.html");
    const auto& row = view.get("rows")->list_value().front();
    CHECK(row.get("params_flag")->get("href")->string_value() == "inconsistencies.html#issue-test-reference-1");
  }
  SUBCASE("the layer page: the lede's count and the time at batch size 8, linking up a folder")
  {
    const auto view = page("layers/Linear.html");
    CHECK(view.get("params_flag")->get("href")->string_value() == "../inconsistencies.html#issue-test-reference-1");
    const auto& times = view.get("answer_rows")->list_value().front().get("times")->list_value();
    CHECK_FALSE(times[1].get("flag")->is_false());
  }
  SUBCASE("the one page of inconsistencies lists all four, each at its anchor")
  {
    const auto view = page("inconsistencies.html");
    const auto& blocks = view.get("blocks")->list_value();
    REQUIRE(blocks.size() == 1);
    const auto& items = blocks.front().get("items")->list_value();
    REQUIRE(items.size() == 4);
    CHECK(items[2].get("anchor")->string_value() == "issue-test-reference-3");
  }
}
