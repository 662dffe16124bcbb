// SPDX-License-Identifier: MIT
#include "site/memory_figure.hpp"

#include "test_site_fixture.hpp"
#include "test_text.hpp"

#include "dataset/catalog.hpp"
#include "dataset/erratum.hpp"
#include "site/render.hpp"
#include "site/view_common.hpp"
#include "util/file.hpp"
#include "util/format.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace layerbench;

namespace {

using test::k_source;

dataset::Erratum canary_erratum()
{
  return {dataset::WithdrawnField::peak_memory_bytes, "The figures count the canary's buffers.", "2026-11-27", "0123abcd"};
}

} // namespace

TEST_CASE("site::set_memory")
{
  site::SiteDataset entry;
  entry.slug = "cpu-test-v2";
  dataset::Cell cell;
  cell.peak_memory_bytes = 196608;
  site::Data row = site::object();

  SUBCASE("a figure in force is shown, with its suffix")
  {
    site::set_memory(row, entry, &cell, "../", " at BS=8");
    CHECK(test::string_at(row, "memory") == util::format_bytes(196608) + " at BS=8");
    CHECK(row.get("memory_erratum")->is_false());
  }
  SUBCASE("a withdrawn figure is not shown: the words and the erratum's address instead")
  {
    entry.errata = {canary_erratum()};
    site::set_memory(row, entry, &cell, "../", " at BS=8");
    CHECK(test::string_at(row, "memory") == "withdrawn, see erratum");
    CHECK(test::string_at(row, "memory_erratum") == "../datasets/cpu-test-v2.html#erratum-cpu-test-v2-peak_memory_bytes");
  }
  SUBCASE("no cell, no figure")
  {
    site::set_memory(row, entry, nullptr, "");
    CHECK(test::string_at(row, "memory") == "—");
  }
}

TEST_CASE("site::render errata")
{
  const fs::path work = fs::temp_directory_path() / ("layerbench-test-site-errata-" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  fs::copy(k_source / "tests/fixtures/site/data", work / "data", fs::copy_options::recursive);
  site::RenderOptions options;
  options.data_dir = work / "data";
  options.templates_dir = k_source / "templates";
  options.out_dir = work / "site";
  // The featured fixture's Dropout at batch 32 peaks at 32 MiB.
  const std::string figure = "<td class=\"num\">" + util::format_bytes(33554432) + "</td>";

  SUBCASE("a withdrawn dataset's memory figures are on no page; each place links to the erratum, on the dataset's page")
  {
    site::render(options);
    CHECK(test::read_text(work / "site/index.html").find(figure) != std::string::npos);
    dataset::record_erratum(work / "data", "fixture-cpu@1", canary_erratum());
    site::render(options);
    const auto home = test::read_text(work / "site/index.html");
    CHECK(home.find(figure) == std::string::npos);
    CHECK(home.find("<td class=\"num\"><a href=\"datasets/fixture-cpu-v1.html#erratum-fixture-cpu-v1-peak_memory_bytes\">withdrawn, see erratum</a></td>")
          != std::string::npos);
    const auto layer = test::read_text(work / "site/layers/Dropout.html");
    CHECK(layer.find("<a href=\"../datasets/fixture-cpu-v1.html#erratum-fixture-cpu-v1-peak_memory_bytes\">withdrawn, see erratum</a>") != std::string::npos);
    const auto datasets = test::read_text(work / "site/datasets/fixture-cpu-v1.html");
    CHECK(datasets.find("<div class=\"erratum\" id=\"erratum-fixture-cpu-v1-peak_memory_bytes\">") != std::string::npos);
    // The index marks the row, keeping the erratum's old anchor there for links made before the index.
    CHECK(test::read_text(work / "site/datasets.html")
            .find("<a href=\"datasets/fixture-cpu-v1.html#erratum-fixture-cpu-v1-peak_memory_bytes\" "
                  "id=\"erratum-fixture-cpu-v1-peak_memory_bytes\">peak memory withdrawn</a>")
          != std::string::npos);
    CHECK(datasets.find("The figures count the canary&apos;s buffers.") != std::string::npos);
    CHECK(datasets.find("0123abcd") != std::string::npos);
    // Still downloadable as published.
    CHECK(test::read_text(work / "site/data/fixture-cpu-v1.json") == test::read_text(work / "data/datasets/fixture-cpu-v1.json"));
  }
  fs::remove_all(work);
}
