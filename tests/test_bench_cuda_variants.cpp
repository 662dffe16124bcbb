#include "bench/cuda_variants.hpp"

#include <doctest/doctest.h>

using namespace layerbench::bench;

TEST_CASE("bench::l2_flush_bytes")
{
  constexpr int64_t k_mib = int64_t{1} << 20;
  SUBCASE("twice the L2, in whole MiB")
  {
    CHECK(*l2_flush_bytes(50 * k_mib) == 100 * k_mib);   // H100 SXM: 50 MiB of L2
    CHECK(*l2_flush_bytes(40 * k_mib) == 80 * k_mib);    // A100
    CHECK(*l2_flush_bytes(k_mib + 1) == 3 * k_mib);      // 2 MiB + 2 bytes rounds up
    CHECK(*l2_flush_bytes(1) == k_mib);
  }
  SUBCASE("never less than twice the L2")
  {
    for (const int64_t l2 : {int64_t{1}, int64_t{3} << 19, int64_t{60} * k_mib + 7, int64_t{96} * k_mib}) {
      const auto bytes = l2_flush_bytes(l2);
      REQUIRE(bytes);
      CHECK(*bytes >= 2 * l2);
      CHECK(*bytes % k_mib == 0);
      CHECK(*bytes < 2 * l2 + k_mib);
    }
  }
  SUBCASE("an unknown L2 size is a reason, not a guess")
  {
    const auto bytes = l2_flush_bytes(0);
    REQUIRE(!bytes);
    CHECK(bytes.error() == "the device reports no L2 cache size (cudaDevAttrL2CacheSize is 0)");
  }
}
