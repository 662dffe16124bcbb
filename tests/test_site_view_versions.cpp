// SPDX-License-Identifier: MIT
// The version history (issue 26): a page per machine measured on two torch releases or more, each step
// called by diff's rule, and the FAQ's answer computed from the oldest and newest release. The numbers
// are test inputs, not measurements.
#include "site/view_pages.hpp"

#include "site/template_set.hpp"
#include "site/view_finding.hpp"

#include "test_site_fixture.hpp"
#include "test_site_sites.hpp"
#include "test_text.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

using layerbench::site::Data;
namespace dataset = layerbench::dataset;
namespace site = layerbench::site;
namespace test = layerbench::test;

namespace {

// A cell measured in three rounds with a bootstrap interval of [low, high] around `ms`.
void set_cell(dataset::Dataset& d, const std::string& layer, int batch, double ms, double low, double high,
              std::vector<std::string> operators = {})
{
  auto& cell = test::cell_of(d, layer, batch);
  cell.stats = test::quartiles(ms, low, high);
  cell.round_spread = dataset::RoundSpread{3, low, high, low, high};
  for (const auto& name : operators) {
    cell.operators.push_back({name, 1, 0.5, std::nullopt});
  }
}

dataset::Dataset release(const std::string& torch, const std::string& created)
{
  auto d = test::measured({"Linear", "Dropout"}, {1, 8});
  d.id = "test-cpu-torch-" + torch.substr(0, 1) + "-" + torch.substr(2, torch.find('.', 2) - 2);
  d.environment->torch_version = torch + "+cpu";
  d.created = created;
  d.rounds = dataset::Rounds{};
  return d;
}

// Three releases of one machine: Linear@1 halves its time from 2.7.1 to 2.9.1 and runs aten::linear
// where it ran aten::addmm; Dropout@1 moves by 2% with tight intervals (the same); Linear@8 moves by 5%
// with wide ones (unclear).
std::vector<dataset::Dataset> three_releases()
{
  auto old = release("2.7.1", "2026-11-24T01:00:00Z");
  auto mid = release("2.9.1", "2026-11-24T02:00:00Z");
  auto now = release("2.11.0", "2026-11-24T03:00:00Z");
  for (auto* d : {&old, &mid, &now}) {
    set_cell(*d, "Dropout", 1, 1.0, 0.99, 1.01);
    set_cell(*d, "Dropout", 8, 1.0, 0.99, 1.01);
  }
  set_cell(old, "Linear", 1, 1.0, 0.98, 1.02, {"aten::addmm"});
  set_cell(mid, "Linear", 1, 0.5, 0.49, 0.51, {"aten::linear", "aten::addmm"});
  set_cell(now, "Linear", 1, 0.5, 0.49, 0.51, {"aten::linear", "aten::addmm"});
  set_cell(mid, "Dropout", 1, 1.02, 1.01, 1.03);
  set_cell(old, "Linear", 8, 1.0, 0.8, 1.2);
  set_cell(mid, "Linear", 8, 1.05, 0.9, 1.3);
  set_cell(now, "Linear", 8, 1.05, 0.9, 1.3);
  // Listed newest first: the series sorts releases as numbers (2.11 after 2.9).
  return {now, old, mid};
}

const Data* step_of(const Data& page, const std::string& layer, int batch, size_t release)
{
  for (const auto& row : page.get("rows")->list_value()) {
    if (row.get("layer")->string_value() == layer && row.get("batch")->string_value() == std::to_string(batch)) {
      return &row.get("cells")->list_value()[release];
    }
  }
  FAIL("no row " << layer << "@" << batch);
  return nullptr;
}

std::string text(const Data* data, const std::string& key) { return data->get(key)->string_value(); }

} // namespace

TEST_CASE("site::version_series")
{
  SUBCASE("one machine's releases, oldest first, as numbers")
  {
    const auto site = test::site_of(three_releases());
    const auto series = site::version_series(site);
    REQUIRE(series.size() == 1);
    REQUIRE(series[0].releases.size() == 3);
    CHECK(series[0].releases[0].torch_version == "2.7.1");
    CHECK(series[0].releases[1].torch_version == "2.9.1");
    CHECK(series[0].releases[2].torch_version == "2.11.0");
    CHECK(site::versions_path(series[0]) == "versions/test-cpu-2-threads.html");
  }
  SUBCASE("a release on another machine, or with other threads, is not a step of this one")
  {
    auto datasets = three_releases();
    datasets.resize(1);
    auto other = release("2.9.1", "2026-11-24T02:00:00Z");
    other.environment->threads = 1;
    datasets.push_back(other);
    CHECK(site::version_series(test::site_of(datasets)).empty());
  }
}

TEST_CASE("site::versions_page")
{
  const auto site = test::site_of(three_releases());
  const auto series = site::version_series(site);
  REQUIRE(series.size() == 1);
  const auto page = site::versions_page(site, series[0], test::page_view(three_releases()[0], "faq.html"));
  SUBCASE("each step is called by diff's rule, with the operators that changed where the time did")
  {
    const Data* faster = step_of(page.view, "Linear", 1, 1);
    CHECK(text(faster, "verdict") == "faster");
    CHECK(text(faster, "ratio").find("0.5") == 0);
    CHECK(text(faster, "operators") == "+aten::linear");
    CHECK(text(step_of(page.view, "Dropout", 1, 1), "verdict") == "same");
    CHECK(text(step_of(page.view, "Dropout", 1, 1), "operators").empty());
    CHECK(text(step_of(page.view, "Linear", 8, 1), "verdict") == "unclear");
    CHECK(text(step_of(page.view, "Linear", 1, 2), "verdict") == "same");
  }
  SUBCASE("each time carries its step's mark, and each row the change from the oldest release to the newest")
  {
    CHECK(text(step_of(page.view, "Linear", 1, 1), "mark") == "▼");
    CHECK(text(step_of(page.view, "Linear", 1, 1), "previous") == "2.7.1");
    CHECK(text(step_of(page.view, "Dropout", 1, 1), "mark") == "=");
    CHECK(text(step_of(page.view, "Linear", 8, 1), "mark") == "?");
    for (const auto& row : page.view.get("rows")->list_value()) {
      if (text(&row, "layer") == "Linear" && text(&row, "batch") == "1") {
        CHECK(text(&row, "overall_verdict") == "faster");
        CHECK(text(&row, "overall_ratio").find("0.5") == 0);
      }
    }
    CHECK(text(&page.view, "oldest") == "2.7.1");
    CHECK(text(&page.view, "newest") == "2.11.0");
  }
  SUBCASE("each row has a small chart across the releases, whose description gives every median")
  {
    for (const auto& row : page.view.get("rows")->list_value()) {
      if (text(&row, "layer") == "Linear" && text(&row, "batch") == "1") {
        const std::string chart = text(&row, "releases_chart");
        CHECK(chart.find("<title id=\"releases-") != std::string::npos);
        CHECK(chart.find("torch 2.7.1: 1 ms, torch 2.9.1: 0.5 ms, torch 2.11.0: 0.5 ms.</desc>") != std::string::npos);
        CHECK(test::count_of(chart, "<rect") == 3);
        CHECK(test::count_of(chart, "<path class=\"whisker\"") == 3);
      }
    }
  }
  SUBCASE("each step lists the cells that became faster or slower, with the operators that changed")
  {
    const auto& steps = page.view.get("steps")->list_value();
    REQUIRE(steps.size() == 2);
    const auto& moved = steps[0].get("moved")->list_value();
    REQUIRE(moved.size() == 1);
    CHECK(text(&moved[0], "layer") == "Linear");
    CHECK(text(&moved[0], "batch") == "1");
    CHECK(text(&moved[0], "verdict") == "faster");
    CHECK(text(&moved[0], "operators") == "+aten::linear");
    CHECK(steps[1].get("has_moved")->is_false());
  }
  SUBCASE("the steps are counted")
  {
    const auto& steps = page.view.get("steps")->list_value();
    REQUIRE(steps.size() == 2);
    CHECK(text(&steps[0], "label") == "torch 2.7.1 to 2.9.1");
    CHECK(text(&steps[0], "value") == "1 faster, 0 slower, 2 the same, 1 unclear");
  }
}

TEST_CASE("site::versions_answer")
{
  SUBCASE("from the oldest release to the newest, with the largest speedup")
  {
    const Data answer = site::versions_answer(test::site_of(three_releases()));
    REQUIRE_FALSE(answer.is_false());
    CHECK(text(&answer, "oldest") == "2.7.1");
    CHECK(text(&answer, "newest") == "2.11.0");
    CHECK(text(&answer, "counts") == "1 faster, 0 slower, 2 the same, 1 unclear");
    CHECK(text(answer.get("fastest"), "layer") == "Linear");
  }
  SUBCASE("no answer, and no page, where no machine has two releases")
  {
    auto one = three_releases();
    one.resize(1);
    const auto site = test::site_of(one);
    CHECK(site::versions_answer(site).is_false());
    for (const auto& page : site::build_pages(site)) {
      CHECK(page.path.rfind("versions/", 0) != 0);
    }
  }
  SUBCASE("the pages and the menu exist where one does")
  {
    const auto pages = site::build_pages(test::site_of(three_releases()));
    CHECK(std::any_of(pages.begin(), pages.end(), [](const site::PageSpec& page) {
      return page.path == "versions/test-cpu-2-threads.html" && page.template_name == "versions";
    }));
  }
}

// Issue 35: Dropout's time moves between releases inside one operator (aten::bernoulli_). The numbers
// are test inputs shaped like the EPYC datasets, not measurements.
namespace {

dataset::Dataset dropout_release(const std::string& torch, const std::string& created, double ms, double bernoulli)
{
  auto d = test::measured({"Dropout"}, {32});
  d.id = "test-cpu-torch-" + torch.substr(0, torch.rfind('.'));
  std::replace(d.id.begin(), d.id.end(), '.', '-');
  d.version = 1;
  d.environment->torch_version = torch + "+cpu";
  d.created = created;
  d.rounds = dataset::Rounds{};
  set_cell(d, "Dropout", 32, ms, ms * 0.995, ms * 1.005);
  auto& cell = test::cell_of(d, "Dropout", 32);
  cell.operators = {{"aten::bernoulli_", 1, bernoulli, std::nullopt}, {"aten::mul", 1, 0.3, std::nullopt}};
  return d;
}

// 1.13.1 and 2.7.1 on the serial kernel, 2.0.1 and 2.6.0 on MKL's: the same two operators throughout.
std::vector<dataset::Dataset> dropout_releases(double ms_2_7_1 = 0.1607)
{
  return {dropout_release("1.13.1", "2026-11-24T01:00:00Z", 0.1664, 0.89),
          dropout_release("2.0.1", "2026-11-24T02:00:00Z", 0.0122, 0.42),
          dropout_release("2.6.0", "2026-11-24T03:00:00Z", 0.0124, 0.36),
          dropout_release("2.7.1", "2026-11-24T04:00:00Z", ms_2_7_1, 0.92)};
}

dataset::FindingRelease finding_release(const std::string& torch, const std::string& path, const std::string& data)
{
  dataset::FindingRelease release;
  release.torch_version = torch;
  release.path = path;
  release.dataset = data;
  release.cell_median_ms = {{32, 5.0}}; // not the datasets' figure: the site must read the datasets
  release.share_batch_size = 32;
  release.operator_share = 0.5;
  release.operator_alone_note = "not timed";
  return release;
}

dataset::Finding dropout_finding()
{
  dataset::Finding finding;
  finding.id = "dropout-test";
  finding.layer = "Dropout";
  finding.op = "aten::bernoulli_";
  finding.cause = "2.0.1 and 2.6.0 fill the mask with MKL's generator.";
  finding.paths = {{"mkl", "the vectorised generator"}, {"default", "the serial generator"}};
  finding.releases = {finding_release("1.13.1", "default", "test-cpu-torch-1-13@1"),
                      finding_release("2.0.1", "mkl", "test-cpu-torch-2-0@1"),
                      finding_release("2.6.0", "mkl", "test-cpu-torch-2-6@1"),
                      finding_release("2.7.1", "default", "test-cpu-torch-2-7@1"),
                      finding_release("2.9.1", "default", "test-cpu-torch-2-9@1")}; // no such dataset here
  return finding;
}

site::PageSpec dropout_page(const site::SiteData& site)
{
  const auto series = site::version_series(site);
  REQUIRE(series.size() == 1);
  return site::versions_page(site, series[0], test::page_view(site.datasets[0].data, "faq.html"));
}

} // namespace

TEST_CASE("site::versions_page same operators")
{
  SUBCASE("where the time moved and the operators did not, the step says the time changed inside them")
  {
    const auto page = dropout_page(test::site_of(dropout_releases()));
    const auto& steps = page.view.get("steps")->list_value();
    REQUIRE(steps.size() == 3);
    const auto& moved = steps[0].get("moved")->list_value();
    REQUIRE(moved.size() == 1);
    CHECK(text(&moved[0], "verdict") == "faster");
    CHECK(text(&moved[0], "operators") == "the same operators");
    const Data* inside = moved[0].get("inside");
    REQUIRE_FALSE(inside->is_false());
    // bernoulli_'s share moved by 47 points, mul's by none.
    CHECK(text(inside, "operator").rfind("aten::bernoulli_ (", 0) == 0);
    CHECK(moved[0].get("finding")->is_false());
  }
  SUBCASE("where the time did not move, no step says it changed")
  {
    const auto page = dropout_page(test::site_of(dropout_releases()));
    CHECK(text(step_of(page.view, "Dropout", 32, 2), "verdict") == "same");
    CHECK(page.view.get("steps")->list_value()[1].get("has_moved")->is_false());
    const auto templates = site::TemplateSet::load(std::filesystem::path(LAYERBENCH_SOURCE_DIR) / "templates");
    Data view = page.view;
    view.set("has_other_series", Data(false)); // set by build_pages, for several machines
    const auto html = templates.render_page(page.template_name, view);
    CHECK(html.find("changed inside them") != std::string::npos); // the 1.13.1 and 2.6.0 steps
    CHECK(html.find("torch 2.0.1 to 2.6.0: 0 faster, 0 slower, 1 the same") != std::string::npos);
    // No finding here: no row may link one (an empty href once did, on every layer).
    CHECK(html.find("why it differs") == std::string::npos);
  }
  SUBCASE("operators that changed are named, not called the same")
  {
    const auto page = dropout_page(test::site_of(three_releases()));
    const auto& moved = page.view.get("steps")->list_value()[0].get("moved")->list_value();
    REQUIRE(moved.size() == 1);
    CHECK(moved[0].get("inside")->is_false());
  }
  SUBCASE("a finding that covers the cell is linked with its cause, and its section reads the datasets")
  {
    auto site = test::site_of(dropout_releases());
    site.findings.push_back(dropout_finding());
    const auto page = dropout_page(site);
    const auto& steps = page.view.get("steps")->list_value();
    const Data* why = steps[0].get("moved")->list_value()[0].get("finding");
    REQUIRE_FALSE(why->is_false());
    CHECK(text(why, "href") == "#finding-dropout-test");
    CHECK(text(why, "cause") == "2.0.1 and 2.6.0 fill the mask with MKL's generator.");
    // 2.6.0 to 2.7.1 changes path too; the finding is linked whether or not the operators changed.
    CHECK_FALSE(steps[2].get("moved")->list_value()[0].get("finding")->is_false());
    const auto& sections = page.view.get("findings")->list_value();
    REQUIRE(sections.size() == 1);
    const auto& rows = sections[0].get("rows")->list_value();
    REQUIRE(rows.size() == 5);
    const auto& first = rows[0].get("times")->list_value()[0];
    CHECK(text(&first, "text") != "5");
    CHECK(first.get("from_finding")->is_false());
    const auto& absent = rows[4].get("times")->list_value()[0];
    CHECK(text(&absent, "text") == "5");
    CHECK(absent.get("from_finding")->is_true());
  }
}

TEST_CASE("site::finding_answer")
{
  SUBCASE("the ratio at batch 32 comes from the datasets, the path from the finding")
  {
    auto site = test::site_of(dropout_releases());
    site.findings.push_back(dropout_finding());
    const Data answer = site::finding_answer(site);
    REQUIRE_FALSE(answer.is_false());
    // 0.1607 / 0.0124 = 12.96 to 0.1664 / 0.0122 = 13.64
    CHECK(text(&answer, "ratio") == "13–13.6×");
    CHECK(text(&answer, "fast_releases") == "2.0.1 and 2.6.0");
    CHECK(text(&answer, "slow_releases") == "1.13.1 and 2.7.1");
    CHECK(text(&answer, "fast_path") == "mkl");
    CHECK(text(&answer, "href") == "versions/test-cpu-2-threads.html#finding-dropout-test");
  }
  SUBCASE("another dataset time gives another ratio")
  {
    auto site = test::site_of(dropout_releases(0.244));
    site.findings.push_back(dropout_finding());
    const Data answer = site::finding_answer(site);
    CHECK(text(&answer, "ratio") == "13.4–20×"); // 0.1664 / 0.0124 to 0.244 / 0.0122
  }
  SUBCASE("no answer without a finding")
  {
    CHECK(site::finding_answer(test::site_of(dropout_releases())).is_false());
  }
}
