// SPDX-License-Identifier: MIT
#include "bench/detail/placement.hpp"

#include <doctest/doctest.h>

using layerbench::bench::detail::shares_low_address_bits;

TEST_CASE("bench::shares_low_address_bits")
{
  constexpr std::uintptr_t input = 0x5574d0000000;
  constexpr std::uintptr_t MiB = 1 << 20;
  SUBCASE("the slow geometry of BatchNorm2d@128: 256 MiB x k past the input, a few lines ahead")
  {
    CHECK(shares_low_address_bits(input, input + 256 * MiB + 128));
    CHECK(shares_low_address_bits(input, input + 512 * MiB + 256));
    CHECK(shares_low_address_bits(input, input + 256 * MiB));
    CHECK(shares_low_address_bits(input, input + 256 * MiB + 4095));
  }
  SUBCASE("and behind it")
  {
    CHECK(shares_low_address_bits(input, input - 256 * MiB + 128));
    CHECK(shares_low_address_bits(input, input + 256 * MiB - 64));
  }
  SUBCASE("the fast ones: 128 MiB x odd k, or a page or more off")
  {
    CHECK(!shares_low_address_bits(input, input + 128 * MiB + 128));
    CHECK(!shares_low_address_bits(input, input + 384 * MiB + 128));
    CHECK(!shares_low_address_bits(input, input + 256 * MiB + 4096));
    CHECK(!shares_low_address_bits(input, input + 256 * MiB + 8192));
    CHECK(!shares_low_address_bits(input, input + 256 * MiB - 4096));
  }
}
