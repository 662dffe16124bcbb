// SPDX-License-Identifier: MIT
#pragma once

// ResNet-50 v1.5 as torchvision's `resnet50` builds it (torchvision/models/resnet.py): the bottleneck's
// stride sits on its 3x3 convolution, not on its first 1x1 as in the paper's v1. Parameter and buffer
// names are torchvision's ("layer2.0.downsample.1.running_var"), so a state dict saved in Python loads
// by name (bench/detail/models/weights.hpp); the forward dispatches the ATen operators torchvision's does
// (docs/models.md). Weights are initialised as torchvision initialises them.
//
// A LibTorch builder, internal to engine/bench like the layers' builders in bench/detail/builders.cpp.

#include "catalog/models/config.hpp"

#include <torch/torch.h>

#include <array>
#include <cstdint>

namespace layerbench::bench::models {

class BottleneckImpl : public torch::nn::Module
{
public:
  static constexpr int64_t k_expansion = k_bottleneck_expansion;

  // `planes` is the width of the 3x3 convolution; the block outputs planes * k_expansion channels.
  BottleneckImpl(int64_t in_channels, int64_t planes, int64_t stride);

  torch::Tensor forward(torch::Tensor x);

private:
  torch::nn::Conv2d m_conv1{nullptr};
  torch::nn::BatchNorm2d m_bn1{nullptr};
  torch::nn::Conv2d m_conv2{nullptr};
  torch::nn::BatchNorm2d m_bn2{nullptr};
  torch::nn::Conv2d m_conv3{nullptr};
  torch::nn::BatchNorm2d m_bn3{nullptr};
  torch::nn::Sequential m_downsample{nullptr}; // only where the block changes the shape
};
TORCH_MODULE(Bottleneck);

class ResNetImpl : public torch::nn::Module
{
public:
  explicit ResNetImpl(const ResNetOptions& options = {});

  // N x 3 x H x W images (224 x 224 for ImageNet) to N x num_classes logits.
  torch::Tensor forward(torch::Tensor images);

private:
  torch::nn::Conv2d m_conv1{nullptr};
  torch::nn::BatchNorm2d m_bn1{nullptr};
  torch::nn::MaxPool2d m_maxpool{nullptr};
  std::array<torch::nn::Sequential, 4> m_layers{nullptr, nullptr, nullptr, nullptr};
  torch::nn::AdaptiveAvgPool2d m_avgpool{nullptr};
  torch::nn::Linear m_fc{nullptr};
};
TORCH_MODULE(ResNet);

} // namespace layerbench::bench::models
