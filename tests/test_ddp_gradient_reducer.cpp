// SPDX-License-Identifier: MIT
// Two ranks (the averaging, a rank that dies) run as processes in tests/bench_ddp_driver.cpp; here
// the bucket plan and a world of one, in this process.
#include "bench/detail/ddp/gradient_reducer.hpp"

#include "bench/ddp/launcher.hpp"
#include "test_socket.hpp"
#include "util/error.hpp"

#include <doctest/doctest.h>
#include <torch/torch.h>
#include <unistd.h>

using namespace layerbench;
using namespace layerbench::bench;
using namespace layerbench::bench::ddp;

namespace {

// `count` float parameters of `floats` elements each.
std::vector<torch::Tensor> parameters(std::initializer_list<int64_t> floats)
{
  std::vector<torch::Tensor> result;
  for (const auto count : floats) {
    result.push_back(torch::zeros({count}));
  }
  return result;
}

std::vector<size_t> indices(const Bucket& bucket) { return bucket.parameters; }

Rendezvous alone(int port) { return {"127.0.0.1", port, 0, 1, 0, RendezvousSource::environment}; }

} // namespace

TEST_CASE("ddp::plan_buckets")
{
  SUBCASE("parameters in reverse order; a bucket closes once it reaches its cap; the first cap is smaller")
  {
    // 100-byte parameters, a 250-byte cap, a 150-byte first cap: {4,3} {2,1,0}.
    const auto buckets = plan_buckets(parameters({25, 25, 25, 25, 25}), 250, 150);
    REQUIRE(buckets.size() == 2);
    CHECK(indices(buckets[0]) == std::vector<size_t>{4, 3});
    CHECK(buckets[0].bytes == 200);
    CHECK(indices(buckets[1]) == std::vector<size_t>{2, 1, 0});
    CHECK(buckets[1].bytes == 300);
  }
  SUBCASE("DDP's defaults: 1 MiB first, then 25 MiB")
  {
    // 4 MiB parameters: the first alone (over 1 MiB), then 7 per bucket (28 MiB >= 25 MiB).
    const int64_t mib_floats = 1024 * 1024 / 4;
    std::vector<torch::Tensor> big(15, torch::zeros({4 * mib_floats}));
    const auto buckets = plan_buckets(big, k_default_bucket_cap_bytes);
    REQUIRE(buckets.size() == 3);
    CHECK(buckets[0].parameters.size() == 1);
    CHECK(buckets[1].parameters.size() == 7);
    CHECK(buckets[2].parameters.size() == 7);
    CHECK(buckets[1].bytes == 28 * 1024 * 1024);
  }
  SUBCASE("one dtype per bucket")
  {
    std::vector<torch::Tensor> mixed{torch::zeros({4}), torch::zeros({4}, torch::kFloat64), torch::zeros({4})};
    const auto buckets = plan_buckets(mixed, 1 << 20);
    REQUIRE(buckets.size() == 2);
    CHECK(indices(buckets[0]).size() + indices(buckets[1]).size() == 3);
    for (const auto& bucket : buckets) {
      // Compared as booleans: doctest cannot print a c10::ScalarType.
      const bool one_dtype = mixed[bucket.parameters.front()].scalar_type() == mixed[bucket.parameters.back()].scalar_type();
      CHECK(one_dtype);
    }
  }
  SUBCASE("a cap that is not positive is refused")
  {
    CHECK_THROWS_WITH_AS(plan_buckets(parameters({1}), 0), "the bucket cap must be a positive number of bytes, not 0", Error);
  }
}

TEST_CASE("ddp::GradientReducer")
{
  SUBCASE("a world of one: every gradient comes back as it was, a missing one as zeros")
  {
    ProcessGroup group(alone(free_local_port()), DeviceKind::cpu, std::chrono::seconds(20));
    auto model = torch::nn::Linear(3, 2);
    auto missing = torch::ones({5}, torch::requires_grad());
    auto all = model->parameters();
    all.push_back(missing);
    broadcast_module_state(group, *model);
    model->forward(torch::arange(6.0).view({2, 3})).sum().backward();
    const auto weight_gradient = model->weight.grad().clone();
    GradientReducer reducer(group, all, 16); // 16 bytes: several buckets
    CHECK(reducer.buckets().size() >= 2);
    reducer.reduce();
    CHECK(torch::equal(model->weight.grad(), weight_gradient));
    CHECK(torch::equal(missing.grad(), torch::zeros({5})));
    CHECK(reducer.last_reduce_ms() >= 0.0);
  }
}

TEST_CASE("ddp::ProcessGroup")
{
  SUBCASE("a port in use is an error naming it")
  {
    const int port = free_local_port();
    const int fd = layerbench::test::listen_on(INADDR_ANY, port);
    REQUIRE(fd >= 0);
    const auto expected = "MASTER_PORT=" + std::to_string(port) + ": port " + std::to_string(port) + " is in use";
    try {
      ProcessGroup group(alone(port), DeviceKind::cpu, std::chrono::seconds(5));
      FAIL("rank 0 served a port that was in use");
    } catch (const Error& error) {
      CHECK(std::string(error.what()).rfind(expected, 0) == 0);
    }
    ::close(fd);
  }
}
