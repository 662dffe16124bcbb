#include "util/format.hpp"

#include <doctest/doctest.h>

using namespace layerbench::util;

TEST_CASE("util::format_fixed")
{
  CHECK(format_fixed(0.0244, 3) == "0.024");
  CHECK(format_fixed(-0.0001, 2) == "0.00"); // no "-0.00"
  CHECK(format_fixed(2.5, 0) == "2");        // round half to even, as printf does
}

TEST_CASE("util::format_significant")
{
  CHECK(format_significant(0.02437, 3) == "0.0244");
  CHECK(format_significant(62.41, 3) == "62.4");
  CHECK(format_significant(1234.6, 3) == "1235"); // never an exponent
  CHECK(format_significant(9.996, 3) == "10.0");
  CHECK(format_significant(0, 3) == "0");
}

TEST_CASE("util::format_thousands")
{
  CHECK(format_thousands(73856) == "73,856");
  CHECK(format_thousands(38400000) == "38,400,000");
  CHECK(format_thousands(999) == "999");
  CHECK(format_thousands(-1234) == "-1,234");
}

TEST_CASE("util::format_si")
{
  CHECK(format_si(132710400) == "133M");
  CHECK(format_si(33554432) == "33.6M");
  CHECK(format_si(4.7e9) == "4.70B");
  CHECK(format_si(512) == "512");
  CHECK(format_si(999600) == "1.00M"); // not "1000K"
  CHECK(format_si(0) == "0");
}

TEST_CASE("util::format_bytes")
{
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(18022400) == "17.2 MiB");
  CHECK(format_bytes(1024.0 * 1024 * 1024) == "1.00 GiB");
}

TEST_CASE("util::format_rate")
{
  CHECK(format_rate(1.5e12, "FLOP/s") == "1.50 TFLOP/s");
  CHECK(format_rate(250, "FLOP/s") == "250 FLOP/s");
}

TEST_CASE("util::format_count")
{
  CHECK(format_count(1, "iteration") == "1 iteration");
  CHECK(format_count(0, "iteration") == "0 iterations");
  CHECK(format_count(1000, "sample") == "1,000 samples");
}
