#include "util/suggest.hpp"

#include <doctest/doctest.h>

using namespace layerbench::util;

TEST_CASE("util::edit_distance")
{
  CHECK(edit_distance("run", "run") == 0);
  CHECK(edit_distance("rnu", "run") == 2);
  CHECK(edit_distance("Conv2D", "conv2d") == 0); // case is ignored
  CHECK(edit_distance("", "abc") == 3);
}

TEST_CASE("util::closest")
{
  const std::vector<std::string> names{"run", "render", "serve"};
  SUBCASE("a near name is suggested")
  {
    CHECK(closest("rnu", names, 3) == "run");
    CHECK(closest("serv", names, 3) == "serve");
  }
  SUBCASE("nothing within the limit gives no suggestion")
  {
    CHECK(!closest("benchmark", names, 3));
  }
}
