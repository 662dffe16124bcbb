// SPDX-License-Identifier: MIT
#include "site/cell_whisker.hpp"

#include <doctest/doctest.h>

using layerbench::dataset::Cell;
using layerbench::dataset::CellStatus;
using layerbench::dataset::Stats;
using layerbench::site::throughput_whisker;
using layerbench::site::time_whisker;

namespace {

Cell timed(int batch, double p25, double median, double p75)
{
  Cell cell;
  cell.batch_size = batch;
  cell.stats = Stats{};
  cell.stats->median_ms = median;
  cell.stats->p25_ms = p25;
  cell.stats->p75_ms = p75;
  return cell;
}

} // namespace

TEST_CASE("site::time_whisker")
{
  SUBCASE("a measured cell's whisker spans its quartiles, in milliseconds")
  {
    const Cell cell = timed(8, 0.25, 0.3, 0.5);
    const auto whisker = time_whisker(&cell);
    REQUIRE(whisker);
    CHECK(whisker->low == 0.25);
    CHECK(whisker->high == 0.5);
    CHECK(whisker->text == "25th to 75th percentile: 0.25 to 0.5 ms");
  }
  SUBCASE("a median without quartiles, a skipped cell and no cell have none")
  {
    Cell reference = timed(8, 0, 0.3, 0);
    reference.stats->p25_ms.reset();
    reference.stats->p75_ms.reset();
    CHECK_FALSE(time_whisker(&reference));
    Cell skipped = timed(8, 0.25, 0.3, 0.5);
    skipped.status = CellStatus::skipped;
    CHECK_FALSE(time_whisker(&skipped));
    CHECK_FALSE(time_whisker(nullptr));
  }
}

TEST_CASE("site::throughput_whisker")
{
  // 8 samples in 0.5 ms is 16,000 samples/s: the slower quartile gives the low end.
  const Cell cell = timed(8, 0.25, 0.3, 0.5);
  const auto whisker = throughput_whisker(&cell);
  REQUIRE(whisker);
  CHECK(whisker->low == doctest::Approx(16000));
  CHECK(whisker->high == doctest::Approx(32000));
  CHECK(whisker->text == "25th to 75th percentile: 16000 to 32000 samples/s");
}
