// SPDX-License-Identifier: MIT
// One dataset per device: the one featured_per_device chooses stands for its device on every page that
// shows the device's layer times. The hand-made datasets' numbers are test inputs; the last test case
// reads the real data/ as published and checks the rendered pages against each other.
#include "site/device_datasets.hpp"

#include "site/render.hpp"
#include "site/site_data.hpp"
#include "site/view_common.hpp"
#include "util/file.hpp"

#include "test_dataset_fixture.hpp"
#include "test_text.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace dataset = layerbench::dataset;
namespace site = layerbench::site;
namespace test = layerbench::test;

namespace {

using test::k_source;

site::SiteDataset entry_of(const std::string& id, const std::string& device, const std::string& created,
                           std::vector<int> batches = {1, 8})
{
  site::SiteDataset entry;
  entry.data = test::measured({"Linear", "Dropout"}, std::move(batches));
  entry.data.id = id;
  entry.data.version = 1;
  entry.data.created = created;
  entry.data.environment->device.name = device;
  entry.slug = id + "-v1";
  return entry;
}

std::vector<std::string> chosen_ids(const site::SiteData& data)
{
  std::vector<std::string> ids;
  for (size_t index : site::featured_per_device(data)) {
    ids.push_back(data.datasets[index].data.id);
  }
  return ids;
}

} // namespace

TEST_CASE("site::is_release_dataset")
{
  CHECK(site::is_release_dataset(entry_of("cpu-epyc-2vcpu-torch-2-6-0", "EPYC", "")));
  CHECK(site::is_release_dataset(entry_of("cpu-epyc-2vcpu-torch-1-13-1", "EPYC", "")));
  CHECK(!site::is_release_dataset(entry_of("cpu-epyc-2vcpu-fp32", "EPYC", "")));
  CHECK(!site::is_release_dataset(entry_of("cpu-epyc-2vcpu-torch-compile", "EPYC", "")));
  CHECK(!site::is_release_dataset(entry_of("cpu-epyc-2vcpu-torch-", "EPYC", "")));
}

TEST_CASE("site::featured_per_device")
{
  SUBCASE("the featured dataset stands for its device, even beside a newer one with more batch sizes")
  {
    site::SiteData data;
    data.datasets.push_back(entry_of("featured", "EPYC", "2026-11-23T00:00:00Z"));
    data.datasets.push_back(entry_of("wider", "EPYC", "2026-11-24T00:00:00Z", {1, 8, 32, 128}));
    data.featured = 0;
    CHECK(chosen_ids(data) == std::vector<std::string>{"featured"});
  }
  SUBCASE("a release of a version series does not stand for its device while another dataset can")
  {
    site::SiteData data;
    data.datasets.push_back(entry_of("xeon", "Xeon", "2026-11-22T00:00:00Z"));
    data.datasets.push_back(entry_of("cpu-epyc-fp32", "EPYC", "2026-11-23T00:00:00Z"));
    data.datasets.push_back(entry_of("cpu-epyc-torch-2-6-0", "EPYC", "2026-11-24T00:00:00Z", {1, 8, 32, 128}));
    data.featured = 0;
    CHECK(chosen_ids(data) == std::vector<std::string>{"xeon", "cpu-epyc-fp32"});
    // A device measured only across releases is still shown, by its newest release.
    data.datasets.erase(data.datasets.begin() + 1);
    data.datasets.push_back(entry_of("cpu-epyc-torch-2-7-1", "EPYC", "2026-11-25T00:00:00Z", {1, 8, 32, 128}));
    CHECK(chosen_ids(data) == std::vector<std::string>{"xeon", "cpu-epyc-torch-2-7-1"});
  }
  SUBCASE("two CPU types of one model name are two devices once the runs record their type (1.10.0)")
  {
    site::SiteData data;
    data.datasets.push_back(entry_of("older", "AMD EPYC", "2026-11-23T00:00:00Z"));
    auto zen4 = entry_of("zen4", "AMD EPYC", "2026-11-28T00:00:00Z");
    zen4.data.environment->cpu = dataset::CpuIdentity{"AuthenticAMD", 25, 17, 1, {"avx512f"}, "AVX512"};
    data.datasets.push_back(zen4);
    data.featured = 0;
    CHECK(site::device_text(data.datasets[1].data) == "AMD EPYC (family 25 model 17)");
    CHECK(site::device_text(data.datasets[0].data) == "AMD EPYC");
    CHECK(chosen_ids(data) == std::vector<std::string>{"older", "zen4"});
    // A GPU run records its host CPU too; the device is the GPU, named as before.
    auto gpu = entry_of("h200", "NVIDIA H200", "2026-11-28T00:00:00Z");
    gpu.data.environment->device.type = "cuda";
    gpu.data.environment->cpu = zen4.data.environment->cpu;
    CHECK(site::device_text(gpu.data) == "NVIDIA H200");
  }
  SUBCASE("a dataset of settings yields to one of the reference settings; a replaced version to its replacement")
  {
    site::SiteData data;
    data.datasets.push_back(entry_of("featured", "EPYC", "2026-11-22T00:00:00Z"));
    auto cube = entry_of("xeon-cube", "Xeon", "2026-11-25T00:00:00Z", {1, 8, 32, 128});
    cube.data.methodology->axes.set(dataset::k_mode, {dataset::GradMode::inference_mode, dataset::GradMode::no_grad});
    auto no_grad = test::timed_cell("Linear", 8, test::quartiles(1.0, 0.95, 1.05));
    no_grad.axes.set(dataset::k_mode, dataset::GradMode::no_grad);
    cube.data.results.push_back(no_grad);
    data.datasets.push_back(cube);
    data.datasets.push_back(entry_of("xeon-fp32", "Xeon", "2026-11-23T00:00:00Z"));
    auto replacing = entry_of("xeon-fp32", "Xeon", "2026-11-24T00:00:00Z");
    replacing.data.version = 2;
    replacing.data.replaces = "xeon-fp32@1";
    data.datasets.push_back(replacing);
    data.featured = 0;
    const auto chosen = site::featured_per_device(data);
    REQUIRE(chosen.size() == 2);
    CHECK(data.datasets[chosen[1]].data.id == "xeon-fp32");
    CHECK(data.datasets[chosen[1]].data.version == 2);
  }
}

namespace {

// The text of an HTML fragment without its tags, trimmed; a noise-target mark (<sup>*</sup>) is dropped.
std::string text_of(std::string html)
{
  for (size_t at = html.find("<sup"); at != std::string::npos; at = html.find("<sup")) {
    html.erase(at, html.find("</sup>", at) + 6 - at);
  }
  std::string text;
  bool in_tag = false;
  for (char c : html) {
    in_tag = c == '<' ? true : c == '>' ? false : in_tag;
    if (!in_tag && c != '>') {
      text += c;
    }
  }
  const size_t first = text.find_first_not_of(" \n");
  return first == std::string::npos ? "" : text.substr(first, text.find_last_not_of(" \n") - first + 1);
}

// A rendered table: its column headings, and per row its row heading, the href in it, and its cells.
struct Table
{
  std::vector<std::string> headings;
  struct Row
  {
    std::string heading;
    std::string href;
    std::vector<std::string> cells;
  };
  std::vector<Row> rows;

  // The cell of the row whose heading is `heading`, under the column headed `column`.
  std::string cell(const std::string& heading, const std::string& column) const
  {
    size_t index = 0;
    while (index < headings.size() && headings[index] != column) {
      ++index;
    }
    for (const auto& row : rows) {
      // The headings count the row heading's column; the cells do not.
      if (row.heading == heading && index > 0 && index <= row.cells.size()) {
        return row.cells[index - 1];
      }
    }
    return "(no cell " + heading + " under " + column + ")";
  }
};

// The elements <tag ...>...</tag> in order, as their inner HTML.
std::vector<std::string> elements(const std::string& html, const std::string& tag)
{
  std::vector<std::string> found;
  for (size_t at = html.find("<" + tag); at != std::string::npos; at = html.find("<" + tag, at + 1)) {
    const char after = html[at + 1 + tag.size()];
    if (after != ' ' && after != '>') {
      continue;
    }
    const size_t open_end = html.find('>', at) + 1;
    found.push_back(html.substr(open_end, html.find("</" + tag + ">", open_end) - open_end));
  }
  return found;
}

Table table_in(const std::string& html)
{
  Table table;
  const size_t body = html.find("<tbody>");
  for (const auto& heading : elements(html.substr(0, body), "th")) {
    table.headings.push_back(text_of(heading));
  }
  for (const auto& row : elements(html.substr(body), "tr")) {
    Table::Row parsed;
    const auto headings = elements(row, "th");
    if (headings.empty()) {
      continue;
    }
    parsed.heading = text_of(headings.front());
    const size_t href = headings.front().find("href=\"");
    parsed.href = href == std::string::npos ? "" : headings.front().substr(href + 6, headings.front().find('"', href + 6) - href - 6);
    for (const auto& cell : elements(row, "td")) {
      parsed.cells.push_back(text_of(cell));
    }
    table.rows.push_back(parsed);
  }
  return table;
}

// The table with this id attribute on a page.
Table table_with_id(const std::string& page, const std::string& id)
{
  const size_t at = page.find("id=\"" + id + "\"");
  REQUIRE_MESSAGE(at != std::string::npos, "no table " << id);
  const size_t start = page.rfind("<table", at);
  return table_in(page.substr(start, page.find("</table>", at) - start));
}

// The home page's results, one table per device, by the heading of its section.
std::map<std::string, Table> home_tables(const std::string& home)
{
  std::map<std::string, Table> tables;
  for (const auto& section : elements(home, "section")) {
    const auto headings = elements(section, "h3");
    if (headings.empty() || section.find("results-table") == std::string::npos) {
      continue;
    }
    // A transcribed reference's heading says so after its label.
    std::string label = text_of(headings.front());
    label = label.substr(0, label.find(" (transcribed, not measured by LayerBench)"));
    const size_t start = section.find("<table");
    tables[label] = table_in(section.substr(start, section.find("</table>") - start));
  }
  return tables;
}

} // namespace

TEST_CASE("site::featured_per_device on the published data")
{
  const fs::path out = fs::temp_directory_path() / "layerbench-test-site-device-datasets";
  fs::remove_all(out);
  site::RenderOptions options;
  options.data_dir = k_source / "data";
  options.templates_dir = k_source / "templates";
  options.out_dir = out;
  site::render(options);
  const auto home = home_tables(test::read_text(out / "index.html"));
  REQUIRE(home.size() >= 2);

  SUBCASE("a cell reads the same on the home page and on its layer page, for every device, and no release stands in")
  {
    for (const std::string layer : {"Conv2d", "LSTM", "Dropout"}) {
      const Table answer = table_with_id(test::read_text(out / ("layers/" + layer + ".html")), "answer");
      std::set<std::string> devices;
      for (const auto& row : answer.rows) {
        CAPTURE(layer);
        CAPTURE(row.heading);
        devices.insert(row.heading);
        CHECK(row.href.find("-torch-") == std::string::npos); // a release of the version history
        const auto table = home.find(row.heading);
        REQUIRE_MESSAGE(table != home.end(), "the layer page's device " << row.heading << " has no table on the home page");
        // Every batch size both tables head; each device's table has its own batch sizes.
        size_t compared = 0;
        for (const auto& column : answer.headings) {
          const auto& other = table->second.headings;
          if (column.rfind("BS=", 0) != 0 || column.find("(ms)") == std::string::npos
              || std::find(other.begin(), other.end(), column) == other.end()) {
            continue;
          }
          CAPTURE(column);
          CHECK(answer.cell(row.heading, column) == table->second.cell("nn." + layer, column));
          ++compared;
        }
        CHECK(compared >= 2);
      }
      CHECK(devices.size() == home.size());
    }
  }
  SUBCASE("the FAQ's example times are the featured table's")
  {
    const std::string faq = text_of(test::read_text(out / "faq.html"));
    const auto data = site::load_site_data(options);
    const std::string featured = site::dataset_label(data.datasets[data.featured]);
    REQUIRE(home.count(featured) == 1);
    const size_t at = faq.find("Its median per batch: ");
    REQUIRE(at != std::string::npos);
    const std::string times = faq.substr(at, faq.find('\n', at) - at);
    const std::string conv = home.at(featured).cell("nn.Conv2d", "BS=32 (ms)");
    CHECK_MESSAGE(times.find(" " + conv + " ms at 32;") != std::string::npos, times << " lacks " << conv);
  }
  fs::remove_all(out);
}
