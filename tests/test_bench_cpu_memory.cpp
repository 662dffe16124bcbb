#include "bench/cpu_memory.hpp"

#include "util/error.hpp"

#include <cstdlib>
#include <cstring>
#include <doctest/doctest.h>

using namespace layerbench;

namespace {

// Page faults per round of allocating, touching and freeing `bytes`, after one round to settle.
double faults_per_round(size_t bytes)
{
  constexpr int k_rounds = 5;
  auto round = [bytes] {
    auto* block = static_cast<char*>(std::malloc(bytes));
    REQUIRE(block != nullptr);
    std::memset(block, 1, bytes);
    // Keep the compiler from dropping the block and the writes to it.
    asm volatile("" : : "r"(block) : "memory");
    std::free(block);
  };
  round();
  const auto before = bench::minor_page_faults();
  for (int i = 0; i < k_rounds; ++i) {
    round();
  }
  return static_cast<double>(bench::minor_page_faults() - before) / k_rounds;
}

} // namespace

TEST_CASE("bench::parse_cpu_memory_policy")
{
  SUBCASE("every name parses back to itself")
  {
    for (const auto policy : {bench::CpuMemoryPolicy::steady_state, bench::CpuMemoryPolicy::fresh_pages, bench::CpuMemoryPolicy::system}) {
      CHECK(bench::parse_cpu_memory_policy(bench::to_string(policy)) == policy);
      CHECK(!bench::describe(policy).empty());
    }
  }
  SUBCASE("an unknown name is a usage error naming the option and the choices")
  {
    CHECK_THROWS_WITH_AS(bench::parse_cpu_memory_policy("reuse"),
                         "--cpu-memory: 'reuse' is not one of steady-state, fresh-pages, system", UsageError);
  }
}

TEST_CASE("bench::apply")
{
  // 48 MiB (12288 pages of 4 KiB): above the largest mmap threshold glibc's dynamic adjustment reaches (32 MiB),
  // so no earlier test in this process can have left a free heap chunk that holds it.
  constexpr size_t k_bytes = size_t{48} << 20;

  SUBCASE("fresh-pages maps every block afresh, steady-state reuses it")
  {
    // One process, one allocator: fresh-pages first, as steady-state keeps what it has mapped.
    bench::apply(bench::CpuMemoryPolicy::fresh_pages);
    // 12288 faults with 4 KiB pages; at least 24 where transparent huge pages are always on.
    CHECK(faults_per_round(k_bytes) >= 24);
    bench::apply(bench::CpuMemoryPolicy::steady_state);
    CHECK(faults_per_round(k_bytes) < 10);
  }
}
