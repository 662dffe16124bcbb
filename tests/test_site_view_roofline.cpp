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
  SUBCASE("no cell with a roofline, no section and no sentence")
  {
    for (const char* layer : {"Conv2d", "MaxPool2d"}) {
      test::cell_of(d, layer, 32) = test::skipped_cell(layer, 32, "out of memory");
    }
    CHECK(test::page_view(d, path).get("furthest_below")->is_false());
  }
}
