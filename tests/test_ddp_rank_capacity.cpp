// SPDX-License-Identifier: MIT
#include "bench/ddp/rank_capacity.hpp"

#include <doctest/doctest.h>

using namespace layerbench::bench::ddp;

namespace {

constexpr int64_t k_gib = int64_t{1} << 30;

Machine two_cores(int64_t available_bytes)
{
  return {2, available_bytes, "MemAvailable in /proc/meminfo"};
}

} // namespace

TEST_CASE("ddp::mem_available")
{
  SUBCASE("the line's kB as bytes, wherever it stands")
  {
    CHECK(mem_available("MemTotal:       32768000 kB\nMemFree:  100 kB\nMemAvailable:   23260160 kB\nBuffers: 1 kB\n")
          == int64_t{23260160} * 1024);
  }
  SUBCASE("missing or malformed: nothing, never a made-up figure")
  {
    CHECK_FALSE(mem_available("MemTotal: 32768000 kB\n").has_value());
    CHECK_FALSE(mem_available("MemAvailable: lots kB\n").has_value());
    CHECK_FALSE(mem_available("MemAvailable: 100 MB\n").has_value());
  }
}

TEST_CASE("ddp::this_machine")
{
  const auto machine = this_machine();
  CHECK(machine.cores >= 1);
  CHECK(machine.available_bytes > 0);
  CHECK_FALSE(machine.memory_source.empty());
}

TEST_CASE("ddp::rank_footprint")
{
  const std::vector<ModelSize> models = {{"ResNetTiny", 1000}, {"ResNet50", 25557032}};
  SUBCASE("on the host: the process and four fp32 copies of the largest model's parameters")
  {
    const auto rank = rank_footprint(models, ModelPlace::host);
    CHECK(rank.bytes == k_rank_process_bytes + 4 * int64_t{25557032} * 4);
    CHECK(rank.how.find("ResNet50's 25,557,032 parameters, 4 fp32 copies") != std::string::npos);
    CHECK(rank.how.find("activations not counted") != std::string::npos);
  }
  SUBCASE("on a GPU: the process only, in this machine's memory")
  {
    const auto rank = rank_footprint(models, ModelPlace::device);
    CHECK(rank.bytes == k_rank_process_bytes);
    CHECK(rank.how.find("the model is on its GPU") != std::string::npos);
  }
  SUBCASE("for ResNetTiny, the peak resident size its rank was measured to take")
  {
    CHECK(rank_footprint({{"ResNetTiny", 10064936}}, ModelPlace::host).bytes == int64_t{810468} * 1024);
  }
}

TEST_CASE("ddp::world_size_problem")
{
  const RankFootprint rank{k_gib, "1 GiB, as a test says"};
  SUBCASE("ranks that fit the cores and the memory")
  {
    CHECK_FALSE(world_size_problem(2, two_cores(4 * k_gib), rank).has_value());
  }
  SUBCASE("more ranks than cores: refused with both numbers, whatever the memory")
  {
    const auto problem = world_size_problem(65, two_cores(1000 * k_gib), rank);
    REQUIRE(problem.has_value());
    CHECK(problem->find("this machine has 2 cores for this process, and each rank needs one of its own") == 0);
    CHECK(problem->find("give --world-size 2 or less") != std::string::npos);
  }
  SUBCASE("more memory than is available: refused with the need, the total, the available and where it was read")
  {
    const auto problem = world_size_problem(2, two_cores(k_gib + k_gib / 2), rank);
    REQUIRE(problem.has_value());
    CHECK(*problem == "each rank needs at least 1.00 GiB (1 GiB, as a test says), 2.00 GiB for 2 ranks, and 1.50 GiB is "
                      "available (MemAvailable in /proc/meminfo); give --world-size 1 or less");
  }
  SUBCASE("not even one rank fits")
  {
    const auto problem = world_size_problem(2, two_cores(k_gib / 2), rank);
    REQUIRE(problem.has_value());
    CHECK(problem->find("not even one rank fits; free memory first") != std::string::npos);
  }
}
