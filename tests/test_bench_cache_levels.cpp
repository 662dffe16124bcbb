// SPDX-License-Identifier: MIT
#include "bench/cache_levels.hpp"

#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

using namespace layerbench;

TEST_CASE("bench::count_cpus")
{
  SUBCASE("single CPUs, ranges and both") {
    CHECK(bench::count_cpus("0\n") == 1);
    CHECK(bench::count_cpus("0-1") == 2);
    CHECK(bench::count_cpus("0-3,8,10-11") == 7);
  }
  SUBCASE("what is not a list is 0") {
    CHECK(bench::count_cpus("") == 0);
    CHECK(bench::count_cpus("a-b") == 0);
    CHECK(bench::count_cpus("3-1") == 0);
  }
}

TEST_CASE("bench::cpu_cache_levels")
{
  const auto root = std::filesystem::temp_directory_path() / ("layerbench-levels-" + std::to_string(::getpid()));
  const auto index = [&](int n, const std::string& level, const std::string& type, const std::string& size, const std::string& shared) {
    const auto folder = root / ("index" + std::to_string(n));
    std::filesystem::create_directories(folder);
    test::write_text(folder / "level", level + "\n");
    test::write_text(folder / "type", type + "\n");
    test::write_text(folder / "size", size + "\n");
    test::write_text(folder / "shared_cpu_list", shared + "\n");
  };
  SUBCASE("a 2-vCPU EPYC's: private L1 and L2, one L3 for both; instruction caches left out")
  {
    index(3, "3", "Unified", "32768K", "0-1");
    index(0, "1", "Data", "32K", "0");
    index(1, "1", "Instruction", "32K", "0");
    index(2, "2", "Unified", "512K", "0");
    const auto levels = bench::cpu_cache_levels(root);
    REQUIRE(levels.size() == 3);
    CHECK(levels[0].level == 1);
    CHECK(levels[1].level == 2);
    CHECK(levels[1].size_bytes == 512 * 1024);
    CHECK(levels[1].shared_by == 1);
    CHECK(levels[1].source == "cpu0/cache/index2: 512K, 1 CPU per instance");
    CHECK(levels[2].shared_by == 2);
    SUBCASE("two threads reach two private L2s and the one shared L3")
    {
      CHECK(bench::reachable_bytes(levels[1], 2) == 1024 * 1024);
      CHECK(bench::reachable_bytes(levels[2], 2) == 32 * 1024 * 1024);
      CHECK(bench::reachable_bytes(levels[1], 1) == 512 * 1024);
    }
  }
  SUBCASE("this machine's, where Linux describes them: sysfs files read whatever size they claim")
  {
    if (!std::filesystem::exists(std::string(bench::k_cpu_cache_root) + "/index0/size")) {
      MESSAGE("skipped: no " << bench::k_cpu_cache_root);
      return;
    }
    const auto levels = bench::cpu_cache_levels();
    REQUIRE(!levels.empty());
    CHECK(levels.front().size_bytes > 0);
  }
  SUBCASE("nothing where the kernel says nothing")
  {
    CHECK(bench::cpu_cache_levels(root / "absent").empty());
  }
  std::filesystem::remove_all(root);
}
