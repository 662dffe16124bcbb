// SPDX-License-Identifier: MIT
#pragma once

// How a catalog entry (catalog/catalog.hpp) is built in LibTorch: its module and a batch of input on a
// device, and for a whole model the training step a train corner times. The builders themselves are in
// builders.cpp (the layers, from catalog/shapes.hpp) and models/instances.cpp (the whole models).

#include "catalog/catalog.hpp"

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <vector>

namespace layerbench::bench::detail {

// A whole model's training step apart from its forward: a train corner runs zero_grad, the loss
// (forward and loss, under the corner's autocast), backward and the optimizer step.
struct Training
{
  std::function<torch::Tensor()> loss;
  std::function<void()> zero_grad;
  std::function<void()> step;
  std::vector<torch::Tensor> parameters; // what the fp16 gradient scaler unscales
};

// One built layer with its input on a device, ready to run. The input is kept apart from the call so
// that a setting can replace it (channels_last) or ask for its gradient (train).
struct Instance
{
  std::shared_ptr<torch::nn::Module> module;
  torch::Tensor input;
  std::function<torch::Tensor(const torch::Tensor&)> call; // one forward pass on the given input
  std::shared_ptr<Training> training; // whole models only: a train corner times this step

  torch::Tensor forward() const { return call(input); }
};

// The entry's module and a batch of `batch_size` inputs on `device`. Throws Error for an entry without
// a builder (a test checks that the catalog has none).
Instance instantiate(const LayerSpec& spec, int64_t batch_size, torch::Device device);

// Whether `instantiate` knows the entry.
bool has_builder(const LayerSpec& spec);

int64_t count_parameters(const torch::nn::Module& module);

} // namespace layerbench::bench::detail
