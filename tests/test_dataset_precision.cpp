// SPDX-License-Identifier: MIT
#include "dataset/precision.hpp"

#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

TEST_CASE("dataset::supported_figures")
{
  auto d = test::measured();
  auto& cell = test::cell_of(d, "Linear", 1);
  cell.stats = test::quartiles(1.234, 1.2, 1.3);
  SUBCASE("one round: two figures, whatever the quartiles say")
  {
    CHECK(dataset::supported_figures(d, cell) == 2);
    CHECK(dataset::format_median(d, cell) == "1.2");
    CHECK(dataset::format_interval(d, cell).empty());
  }
  SUBCASE("rounds: 2, 3 or 4 figures as the bootstrap interval is 10% or more, 1% or more, or less")
  {
    cell.round_spread = dataset::RoundSpread{3, 1.1, 1.4, 1.1, 1.4}; // 24%
    CHECK(dataset::supported_figures(d, cell) == 2);
    cell.round_spread = dataset::RoundSpread{3, 1.22, 1.25, 1.22, 1.25}; // 2.4%
    CHECK(dataset::supported_figures(d, cell) == 3);
    CHECK(dataset::format_median(d, cell) == "1.23");
    CHECK(dataset::format_interval(d, cell) == "95% CI 1.22\u20131.25");
    cell.round_spread = dataset::RoundSpread{3, 1.233, 1.235, 1.233, 1.235}; // 0.16%
    CHECK(dataset::supported_figures(d, cell) == 4);
  }
  SUBCASE("the figures a spread does not support go from the integer digits too")
  {
    cell.stats = test::quartiles(205.3, 200, 210);
    CHECK(dataset::format_median(d, cell) == "210");
    cell.stats = test::quartiles(2214, 2200, 2230);
    cell.round_spread = dataset::RoundSpread{3, 2190, 2240, 2190, 2240}; // 2.3%: 3 figures
    CHECK(dataset::format_median(d, cell) == "2210");
    CHECK(dataset::format_interval(d, cell) == "95% CI 2190\u20132240");
    CHECK(dataset::round_to_figures(0.01234, 2) == doctest::Approx(0.01234)); // below one: format_significant's job
    CHECK(dataset::round_to_figures(99.6, 2) == 100);
  }
  SUBCASE("a published reference: its figures as printed")
  {
    d.kind = dataset::Kind::published_reference;
    CHECK(dataset::supported_figures(d, cell) == dataset::k_reference_figures);
  }
}
