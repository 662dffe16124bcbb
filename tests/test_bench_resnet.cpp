// SPDX-License-Identifier: MIT
// The equality with torchvision's resnet50 (outputs, operators, counts against Python) is checked by
// tests/python/test_models_reference.py; these tests need no Python.
#include "bench/detail/models/resnet.hpp"

#include "bench/detail/models/weights.hpp"
#include "util/error.hpp"

#include <doctest/doctest.h>
#include <torch/torch.h>

#include <cmath>
#include <string>

using namespace layerbench;
using namespace layerbench::bench::models;

namespace {

std::shared_ptr<torch::nn::Module> submodule(torch::nn::Module& model, const std::string& name)
{
  for (const auto& item : model.named_modules()) {
    if (item.key() == name) {
      return item.value();
    }
  }
  FAIL("no submodule " << name);
  return nullptr;
}

int64_t stride(torch::nn::Module& model, const std::string& name)
{
  return submodule(model, name)->as<torch::nn::Conv2d>()->options.stride()->at(0);
}

} // namespace

TEST_CASE("bench::models::ResNet")
{
  SUBCASE("resnet50 has torchvision's published 25,557,032 parameters")
  {
    CHECK(count_unique_parameters(*ResNet()) == 25'557'032);
  }

  SUBCASE("v1.5: a stage's first block strides on its 3x3 convolution and its shortcut")
  {
    ResNet model;
    CHECK(stride(*model, "layer2.0.conv1") == 1);
    CHECK(stride(*model, "layer2.0.conv2") == 2);
    CHECK(stride(*model, "layer2.0.downsample.0") == 2);
    CHECK(stride(*model, "layer1.0.conv2") == 1);
    CHECK(stride(*model, "layer3.1.conv2") == 1);
  }

  SUBCASE("parameter and buffer names are torchvision's")
  {
    const auto names = named_state(*ResNet());
    CHECK(names.count("conv1.weight") == 1);
    CHECK(names.count("layer1.0.downsample.1.running_var") == 1);
    CHECK(names.count("layer4.2.bn3.num_batches_tracked") == 1);
    CHECK(names.count("fc.bias") == 1);
    CHECK(names.count("layer1.1.downsample.0.weight") == 0); // only where the shape changes
    CHECK(names.count("layer4.3.conv1.weight") == 0);        // ResNet-50's layer4 has 3 blocks
    // 53 convolutions and 53 BatchNorms (weight, bias, 3 buffers each), fc's weight and bias.
    CHECK(names.size() == 53 + 53 * 5 + 2);
  }

  SUBCASE("weights start as torchvision starts them")
  {
    ResNet model;
    // Kaiming normal, fan_out, ReLU gain: std = sqrt(2 / (64 * 7 * 7)) for the stem.
    const auto stem = submodule(*model, "conv1")->as<torch::nn::Conv2d>()->weight;
    CHECK(stem.std().item<double>() == doctest::Approx(std::sqrt(2.0 / (64 * 7 * 7))).epsilon(0.05));
    CHECK(submodule(*model, "layer3.2.bn2")->as<torch::nn::BatchNorm2d>()->weight.eq(1).all().item<bool>());
  }

  SUBCASE("a small variant maps a batch of images to one row of logits each")
  {
    ResNet model(ResNetOptions{{1, 1, 1, 1}, 10});
    model->eval();
    torch::NoGradGuard no_grad;
    const auto logits = model(torch::randn({2, 3, 64, 64}));
    CHECK(logits.sizes() == torch::IntArrayRef({2, 10}));
    CHECK(named_state(*model).count("layer4.0.downsample.0.weight") == 1);
  }

  SUBCASE("a stage without blocks is refused")
  {
    CHECK_THROWS_AS(ResNet(ResNetOptions{{1, 0, 1, 1}, 10}), Error);
  }
}
