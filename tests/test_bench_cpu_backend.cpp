// SPDX-License-Identifier: MIT
#include "bench/cpu_backend.hpp"

#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

using namespace layerbench;

TEST_CASE("bench::parse_cache_size")
{
  CHECK(bench::parse_cache_size("32768K\n") == int64_t(32) << 20);
  CHECK(bench::parse_cache_size("48M") == int64_t(48) << 20);
  CHECK(bench::parse_cache_size("512") == 512);
  CHECK(!bench::parse_cache_size("big"));
  CHECK(!bench::parse_cache_size("12Q"));
  CHECK(!bench::parse_cache_size("0K"));
}

TEST_CASE("bench::cpu_last_level_cache_bytes")
{
  const auto root = std::filesystem::temp_directory_path() / ("layerbench-cache-" + std::to_string(::getpid()));
  const auto index = [&](int n, const std::string& level, const std::string& type, const std::string& size) {
    const auto folder = root / ("index" + std::to_string(n));
    std::filesystem::create_directories(folder);
    test::write_text(folder / "level", level + "\n");
    test::write_text(folder / "type", type + "\n");
    test::write_text(folder / "size", size + "\n");
  };
  SUBCASE("the highest level's data or unified cache; instruction caches do not count")
  {
    index(0, "1", "Data", "48K");
    index(1, "1", "Instruction", "32K");
    index(2, "2", "Unified", "1024K");
    index(3, "3", "Unified", "32768K");
    CHECK(bench::cpu_last_level_cache_bytes(root) == int64_t(32) << 20);
  }
  SUBCASE("nothing where the kernel says nothing")
  {
    CHECK(!bench::cpu_last_level_cache_bytes(root / "absent"));
  }
  std::filesystem::remove_all(root);
}
