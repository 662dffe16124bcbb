// SPDX-License-Identifier: MIT
#include "dataset/shard.hpp"

#include "util/error.hpp"

#include <doctest/doctest.h>

#include <set>

using namespace layerbench;

TEST_CASE("dataset::parse_shard")
{
  SUBCASE("i/n")
  {
    const auto shard = dataset::parse_shard("2/4");
    CHECK(shard.index == 2);
    CHECK(shard.count == 4);
    CHECK(dataset::to_string(shard) == "2/4");
  }
  SUBCASE("bad text is an Error that says so, naming no command-line option (the command line adds --shard)")
  {
    for (const char* bad : {"", "2", "0/4", "5/4", "2/0", "-1/4", "+1/4", " 1/4", "1/4x", "a/b", "1//4", "9999999/9999999", "1/4/5"}) {
      CAPTURE(bad);
      try {
        dataset::parse_shard(bad);
        FAIL("accepted");
      } catch (const UsageError&) {
        FAIL("the dataset layer throws no UsageError");
      } catch (const Error& error) {
        CHECK(std::string(error.what()) == "shard \"" + std::string(bad) + "\" is not I/N with 1 <= I <= N (for example 2/4)");
      }
    }
  }
}

TEST_CASE("dataset::in_shard")
{
  SUBCASE("round-robin over the layer-major matrix")
  {
    const dataset::Shard second{2, 3};
    CHECK_FALSE(dataset::in_shard(second, 0));
    CHECK(dataset::in_shard(second, 1));
    CHECK_FALSE(dataset::in_shard(second, 2));
    CHECK(dataset::in_shard(second, 4));
  }
  SUBCASE("the shards of a 14 x 4 matrix cover every cell exactly once")
  {
    std::multiset<size_t> covered;
    for (int index = 1; index <= 4; ++index) {
      for (size_t cell = 0; cell < 56; ++cell) {
        if (dataset::in_shard({index, 4}, cell)) {
          covered.insert(cell);
        }
      }
    }
    CHECK(covered.size() == 56);
    CHECK(std::set<size_t>(covered.begin(), covered.end()).size() == 56);
  }
  SUBCASE("1/1 is the whole matrix")
  {
    CHECK(dataset::in_shard({1, 1}, 0));
    CHECK(dataset::in_shard({1, 1}, 55));
  }
}
