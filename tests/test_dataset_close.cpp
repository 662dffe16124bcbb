// SPDX-License-Identifier: MIT
#include "dataset/close.hpp"

#include "dataset/validate.hpp"
#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

namespace {

// A run of Linear and Dropout at batch sizes 1 and 8 whose checkpoint holds its first `kept` cells.
dataset::Dataset checkpoint(size_t kept)
{
  auto d = test::measured();
  d.results.resize(kept);
  return d;
}

std::string close_error(dataset::Dataset run, const std::string& reason = "the lease ended")
{
  return test::error_of([&] { dataset::close_unfinished(std::move(run), reason); });
}

} // namespace

TEST_CASE("dataset::close_unfinished")
{
  SUBCASE("the cells it measured, unchanged, and every other declared cell skipped with the reason, in matrix order")
  {
    auto run = checkpoint(4);
    run.results.erase(run.results.begin() + 1); // Linear at 8 not reached, Dropout at 1 and 8 measured
    const auto before = run.results;
    REQUIRE(!dataset::check(run, dataset::Completeness::complete).empty());
    const auto closed = dataset::close_unfinished(run, "the GPU lease ended at its deadline");
    REQUIRE(closed.results.size() == 4);
    CHECK(closed.results[0].stats->median_ms == before[0].stats->median_ms);
    CHECK(closed.results[1].layer == "Linear");
    CHECK(closed.results[1].batch_size == 8);
    CHECK(closed.results[1].status == dataset::CellStatus::skipped);
    CHECK(closed.results[1].skip_reason == "not measured: the GPU lease ended at its deadline");
    CHECK(closed.results[2].layer == "Dropout");
    CHECK(closed.results[2].status == dataset::CellStatus::ok);
    CHECK(closed.results[3].status == dataset::CellStatus::ok);
    CHECK(dataset::check(closed).empty());
  }
  SUBCASE("a run that lacks nothing, measured nothing, or holds a cell outside its matrix is refused, named")
  {
    CHECK(close_error(checkpoint(4)).find("lacks no cell of its declared matrix: there is nothing to close") == 0);
    CHECK(close_error(checkpoint(0)) == "measured no cell: there is nothing to keep");
    auto stray = checkpoint(2);
    stray.results.push_back(test::timed_cell("Conv2d", 1, test::quartiles(1, 0.95, 1.05)));
    CHECK(close_error(stray) == "holds Conv2d at batch size 1, which its declared matrix does not");
  }
  SUBCASE("a shard, or a reference, is refused")
  {
    auto shard = checkpoint(2);
    shard.methodology->shard = "1/2";
    CHECK(close_error(shard).find("is one shard (1/2)") == 0);
    auto reference = checkpoint(2);
    reference.kind = dataset::Kind::published_reference;
    CHECK(close_error(reference).find("is not a measured run") == 0);
  }
  SUBCASE("the reason is required and plain")
  {
    CHECK(close_error(checkpoint(2), "  ").find("--reason: say why") == 0);
    CHECK(close_error(checkpoint(2), "ended\x1b[2J").find("--reason: holds a control character") == 0);
  }
}
