// SPDX-License-Identifier: MIT
// The formulas page's claims about times: each is in a layer's note only while the data makes it true.
// The numbers are test inputs, not measurements.
#include "site/view_model.hpp"

#include "test_site_fixture.hpp"

#include <doctest/doctest.h>

#include <string>

using layerbench::site::Data;
namespace dataset = layerbench::dataset;
namespace test = layerbench::test;

namespace {

// The figures and claims after a layer's note on the formulas page.
std::string computed(const dataset::Dataset& d, const std::string& layer)
{
  const Data view = test::page_view(d, "formulas.html");
  for (const auto& row : view.get("rows")->list_value()) {
    if (row.get("name")->string_value() == layer) {
      return row.get("computed")->string_value();
    }
  }
  FAIL("no row for " << layer);
  return "";
}

// Linear at batch size 1: 1 MFLOP over 2 MB, 0.5 FLOP/byte, under a memory roof of 5 GFLOP/s.
dataset::Dataset linear_dataset(double ms_at_batch_1)
{
  dataset::Dataset d = test::measured({"Linear", "Dropout"}, {1, 32});
  test::set_peaks(d);
  test::set_layer(d, "Linear", 100, 1e6, 2e6, ms_at_batch_1, 1);
  return d;
}

} // namespace

TEST_CASE("site::formulas_page")
{
  SUBCASE("Linear is said to be set by reading memory at the smallest batch only while it is memory-bound near its roof")
  {
    const std::string near = computed(linear_dataset(0.25), "Linear"); // 80% of the memory roof
    CHECK(near.find("At batch size 1 it is bound by memory bandwidth") != std::string::npos);
    CHECK(near.find("reached 80% of that roof: reading memory sets its time.") != std::string::npos);
    const std::string far = computed(linear_dataset(4.0), "Linear"); // 5%: something else holds it back
    CHECK(far.find("bound by memory") == std::string::npos);
    CHECK(far.find("sets its time") == std::string::npos);
  }
  SUBCASE("above its memory roof the bytes are said to come from a cache, not that memory sets the time")
  {
    const std::string above = computed(linear_dataset(0.1), "Linear"); // 200% of the memory roof
    CHECK(above.find("reached 200% of that roof, faster than this run measured memory to deliver") != std::string::npos);
    CHECK(above.find("sets its time") == std::string::npos);
  }
  SUBCASE("a compute-bound Linear gets no memory claim")
  {
    dataset::Dataset d = linear_dataset(0.25);
    test::set_layer(d, "Linear", 100, 1e8, 1e6, 2.0, 1); // 100 FLOP/byte, right of the ridge
    CHECK(computed(d, "Linear").find("bound by memory") == std::string::npos);
  }
  SUBCASE("without measured peaks there is no roof to be near, and no claim")
  {
    dataset::Dataset d = linear_dataset(0.25);
    d.environment->peaks.reset();
    CHECK(computed(d, "Linear").find("bound by memory") == std::string::npos);
  }
}
