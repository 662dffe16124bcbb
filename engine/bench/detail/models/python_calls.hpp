// SPDX-License-Identifier: MIT
#pragma once

// Module calls that dispatch the ATen operators Python's modules dispatch, where LibTorch's C++ module
// takes another route. The whole models (bench/models/) use these so that their operator profiles
// compare with torchvision's and transformers' (docs/models.md).

#include <torch/torch.h>

namespace layerbench::bench::models {

// Python's nn.Linear calls aten::linear whatever the input's rank; LibTorch's LinearImpl::forward calls
// aten::addmm for 2-D input and aten::matmul plus an in-place add otherwise.
inline torch::Tensor linear(const torch::nn::Linear& layer, const torch::Tensor& input)
{
  return torch::linear(input, layer->weight, layer->bias);
}

} // namespace layerbench::bench::models
