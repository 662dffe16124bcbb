// SPDX-License-Identifier: MIT
#include "bench/detail/models/weights.hpp"

#include "test_dataset_fixture.hpp"
#include "util/error.hpp"

#include <doctest/doctest.h>
#include <torch/torch.h>

#include <string>

using namespace layerbench;
using namespace layerbench::bench::models;

namespace {

// A module with a nested name, a parameter and a buffer, and a tensor registered twice (as a tied weight
// would be if registered in both places).
struct Small : torch::nn::Module
{
  Small()
  {
    linear = register_module("linear", torch::nn::Linear(3, 2));
    norm = register_module("norm", torch::nn::BatchNorm1d(2));
    register_parameter("tied", linear->weight);
  }
  torch::nn::Linear linear{nullptr};
  torch::nn::BatchNorm1d norm{nullptr};
};

} // namespace

TEST_CASE("bench::models::load_named_tensors")
{
  SUBCASE("tensors written and read back load into a fresh module by name")
  {
    test::TempFolder folder;
    Small source;
    {
      torch::NoGradGuard no_grad;
      source.norm->running_mean.fill_(0.5);
    }
    write_named_tensors(folder.path() / "small.pt", named_state(source));
    Small target;
    load_named_tensors(target, read_named_tensors(folder.path() / "small.pt"));
    CHECK(torch::equal(target.linear->weight, source.linear->weight));
    CHECK(torch::equal(target.norm->running_mean, source.norm->running_mean));
    CHECK(target.norm->running_mean[0].item<double>() == 0.5);
  }

  SUBCASE("a missing, an unexpected and a mismatched name are each named")
  {
    Small target;
    auto tensors = named_state(target);
    tensors.erase("norm.running_var");
    tensors["norm.extra"] = torch::zeros({2});
    tensors["linear.bias"] = torch::zeros({5});
    const auto message = test::error_of([&] { load_named_tensors(target, tensors); });
    CHECK(message.find("missing norm.running_var") != std::string::npos);
    CHECK(message.find("unexpected norm.extra") != std::string::npos);
    CHECK(message.find("mismatched linear.bias ([5] float into [2] float)") != std::string::npos);
  }
}

TEST_CASE("bench::models::read_named_tensors")
{
  test::TempFolder folder;

  SUBCASE("a file that is not there is named")
  {
    const auto message = test::error_of([&] { read_named_tensors(folder.path() / "absent.pt"); });
    CHECK(message.find("absent.pt: cannot be opened") != std::string::npos);
  }

  SUBCASE("a file holding something other than a dict is refused")
  {
    const auto bytes = torch::pickle_save(torch::ones({2}));
    std::ofstream(folder.path() / "tensor.pt", std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    const auto message = test::error_of([&] { read_named_tensors(folder.path() / "tensor.pt"); });
    CHECK(message.find("tensor.pt: holds a Tensor, not a dict of tensors") != std::string::npos);
  }
}

TEST_CASE("bench::models::count_unique_parameters")
{
  SUBCASE("a tensor registered twice counts once")
  {
    Small small;
    int64_t listed = 0;
    for (const auto& parameter : small.parameters()) {
      listed += parameter.numel();
    }
    CHECK(listed == 2 * 3 + 2 + 2 + 2 + 2 * 3);
    CHECK(count_unique_parameters(small) == 2 * 3 + 2 + 2 + 2);
  }
}
