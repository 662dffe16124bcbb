// SPDX-License-Identifier: MIT
// A dataset's roofline page: what it says of the cells furthest below their bound comes from them.
// The numbers are test inputs, not measurements.
#include "site/view_model.hpp"

#include "test_site_fixture.hpp"

#include <doctest/doctest.h>

using layerbench::site::Data;
namespace dataset = layerbench::dataset;
namespace test = layerbench::test;

TEST_CASE("site::roofline_page")
{
  dataset::Dataset d = test::measured({"Conv2d", "MaxPool2d"}, {32});
  test::set_peaks(d);
  test::set_layer(d, "MaxPool2d", 0, 1e6, 1e6, 64.0); // 32 MFLOP in 64 ms: 5% of its 10 GFLOP/s memory roof
  test::set_layer(d, "Conv2d", 100, 1e8, 1e6, 40.0);  // 80% of the compute roof
  const std::string path = "roofline/" + d.id + "-v1.html";

  SUBCASE("\"at most\" is the largest share among the cells listed")
  {
    const Data view = test::page_view(d, path);
    const Data* furthest = view.get("furthest_below");
    REQUIRE(furthest != nullptr);
    CHECK(furthest->get("count")->string_value() == "2");
    CHECK(furthest->get("most")->string_value() == "80%");
  }
  SUBCASE("past the L2, the column says which rate bounds the cell and why (the capacity rule)")
  {
    d.environment->peaks->caches.push_back({"L2", 2 << 20, "test", dataset::PeakRate{"triad", "t", 1e6, 0.01, 100e9, 0.01, 9, true}});
    const auto bound_by = [&](double bytes_per_sample) {
      test::set_layer(d, "MaxPool2d", 0, 1e3, bytes_per_sample, 1.0);
      const Data view = test::page_view(d, path);
      for (const auto& row : view.get("rows")->list_value()) {
        if (row.get("layer")->string_value() == "MaxPool2d") {
          return row.get("bound_by")->string_value();
        }
      }
      return std::string("none");
    };
    // 32 x 320 kB = 10.2 MB: 8.2 MB past the 2 MiB L2 at DRAM's 10 GB/s outweighs all of it at L2's 100.
    CHECK(bound_by(3.2e5) == "memory (DRAM, for what the 2.00 MiB L2 cannot keep)");
    // 32 x 69 kB = 2.2 MB, just past the L2: all of it at L2's rate outweighs the 0.1 MB from DRAM.
    CHECK(bound_by(6.9e4) == "memory (L2's rate for every byte; the working set fits in no cache)");
  }
  SUBCASE("a working set in a measured L2 is bound by L2's roof, drawn dotted beside DRAM's")
  {
    // MaxPool2d at batch 32 moves 1.6 MB, in a 2 MiB L2 of 100 GB/s: 0.8 MFLOP at 0.5 FLOP/byte, bound
    // at 50 GFLOP/s there (5 at DRAM's 10 GB/s); in 0.032 ms it reaches 25 GFLOP/s.
    test::set_layer(d, "MaxPool2d", 0, 2.5e4, 5e4, 0.032);
    d.environment->peaks->caches.push_back({"L2", 2 << 20, "test", dataset::PeakRate{"triad", "t", 1e6, 0.01, 100e9, 0.01, 9, true}});
    const std::string page = "roofline/" + d.id + "-v1.html";
    const Data view = test::page_view(d, page);
    const auto* rows = view.get("rows");
    REQUIRE(rows != nullptr);
    bool found = false;
    for (const auto& row : rows->list_value()) {
      if (row.get("layer")->string_value() == "MaxPool2d") {
        found = true;
        CHECK(row.get("bound_by")->string_value() == "memory (L2)");
        CHECK(row.get("fraction")->string_value() == "50%"); // DRAM's roof would say 500%
      }
    }
    CHECK(found);
    CHECK(view.get("chart")->string_value().find("measured fp32, L2 (≤ 2.00 MiB)") != std::string::npos);
    CHECK(view.get("dataset")->get("caches_unmeasured")->is_false());
  }
  SUBCASE("a peak that missed its noise target is flagged with what it means")
  {
    d.methodology->noise_target = 0.05;
    d.environment->peaks->compute[0].noise = 0.142;
    d.environment->peaks->compute[0].noise_target_met = false;
    const Data view = test::page_view(d, path);
    const auto* noisy = view.get("dataset")->get("noisy_peaks");
    REQUIRE(noisy->is_list());
    CHECK(noisy->list_value()[0].string_value()
          == "fp32 FLOP/s: noise 14.2% against the 5% target, so its roof is uncertain by about that much; validate holds "
             "cells to it with a 42.6% tolerance");
    CHECK(view.get("dataset")->get("measured")->list_value()[0].get("noise")->string_value() == "14.2%, missed its 5% target");
    CHECK(view.get("dataset")->get("caches_unmeasured")->is_true());
  }
  SUBCASE("a peak within its target but short of samples says so, not that it was noisy")
  {
    d.methodology->noise_target = 0.02;
    d.environment->peaks->compute[0].noise = 0.000828;
    d.environment->peaks->compute[0].samples = 3;
    d.environment->peaks->compute[0].noise_target_met = false;
    const Data view = test::page_view(d, path);
    const auto* noisy = view.get("dataset")->get("noisy_peaks");
    REQUIRE(noisy->is_list());
    CHECK(noisy->list_value()[0].string_value()
          == "fp32 FLOP/s: noise 0.0828%, within the 2% target, but over only 3 samples, too few to confirm it; "
             "validate holds cells to it with a 5% tolerance");
    CHECK(view.get("dataset")->get("measured")->list_value()[0].get("noise")->string_value()
          == "0.0828%, within its 2% target over only 3 samples");
  }
  SUBCASE("no cell with a roofline, no section and no sentence")
  {
    for (const char* layer : {"Conv2d", "MaxPool2d"}) {
      test::cell_of(d, layer, 32) = test::skipped_cell(layer, 32, "out of memory");
    }
    CHECK(test::page_view(d, path).get("furthest_below")->is_false());
  }
}

TEST_CASE("site::roofline_page with a withdrawn peak")
{
  // The catalog's erratum withdrew the run's fp32 peak: its pages name the erratum, draw no compute roof and
  // give no cell's bound or share, where the peak in force gives both.
  dataset::Dataset d = test::measured({"Conv2d", "MaxPool2d"}, {32});
  test::set_peaks(d);
  test::set_layer(d, "MaxPool2d", 0, 1e6, 1e6, 64.0);
  test::set_layer(d, "Conv2d", 100, 1e8, 1e6, 40.0);
  layerbench::site::SiteData site;
  layerbench::site::SiteDataset entry;
  entry.slug = d.id + "-v1";
  entry.data = d;
  site.datasets.push_back(entry);
  const std::string path = "roofline/" + d.id + "-v1.html";
  const std::string erratum_href = "../datasets/" + d.id + "-v1.html#erratum-" + d.id + "-v1-environment-peaks-compute-fp32";

  SUBCASE("in force, the compute roof is drawn and the shares given")
  {
    const Data view = test::page_of(site, path);
    CHECK(view.get("dataset")->get("withdrawn_peak")->is_false());
    CHECK(view.get("furthest_below")->is_object());
    CHECK(view.get("chart")->string_value().find("100 GFLOP/s, 10.0 GB/s") != std::string::npos);
    CHECK(view.get("rows")->list_value()[0].get("fraction")->string_value() == "80%");
  }
  SUBCASE("withdrawn, the page says so with the erratum's link, and nothing is held to the peak")
  {
    site.datasets[0].errata = {{dataset::WithdrawnField::compute_peak, "The peak was a median.", "2026-11-28", "3427e8c", "fp32"}};
    const Data view = test::page_of(site, path);
    const Data* withdrawn = view.get("dataset")->get("withdrawn_peak");
    REQUIRE(withdrawn->is_object());
    CHECK(withdrawn->get("label")->string_value() == "fp32");
    CHECK(withdrawn->get("value")->string_value() == erratum_href);
    const auto& peak_row = view.get("dataset")->get("measured")->list_value()[0];
    CHECK(peak_row.get("rate")->string_value() == "withdrawn, see erratum");
    CHECK(peak_row.get("rate_erratum")->string_value() == erratum_href);
    CHECK(peak_row.get("median")->string_value() == "—");
    const std::string chart = view.get("chart")->string_value();
    CHECK(chart.find("GFLOP/s, 10.0 GB/s") == std::string::npos); // no roof's legend names the peak
    CHECK(chart.find("measured, DRAM") != std::string::npos);
    CHECK(chart.find("of its compute bound") == std::string::npos);
    CHECK(view.get("furthest_below")->is_false());
    CHECK(view.get("ridge")->is_false());
    for (const auto& row : view.get("rows")->list_value()) {
      CHECK(row.get("fraction")->string_value() == "—");
      CHECK(row.get("bound")->string_value() == "—");
      CHECK(row.get("achieved")->string_value() != "—");
    }
    // The layer pages give no share against it, and the index links the erratum.
    const Data layer = test::page_of(site, "layers/Conv2d.html");
    CHECK(layer.get("roofline_blocks")->is_empty_list());
    const Data index = test::page_of(site, "roofline.html");
    CHECK(index.get("datasets")->list_value()[0].get("withdrawn_peak")->get("value")->string_value()
          == "datasets/" + d.id + "-v1.html#erratum-" + d.id + "-v1-environment-peaks-compute-fp32");
  }
}
