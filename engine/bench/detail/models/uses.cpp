// SPDX-License-Identifier: MIT
#include "bench/detail/models/uses.hpp"

#include "bench/detail/models/python_calls.hpp"
#include "bench/detail/torch_compat.hpp"
#include "util/error.hpp"

#include <cmath>

namespace layerbench::bench::models {

using detail::Instance;

namespace nn = torch::nn;

namespace {

torch::Tensor input_of(const UseShape& shape, int64_t batch_size, torch::Device device)
{
  std::vector<int64_t> sizes{shape.scope == BatchScope::once ? 1 : batch_size};
  sizes.insert(sizes.end(), shape.input.begin(), shape.input.end());
  if (shape.dtype == InputDtype::int64) {
    return torch::randint(0, shape.in, sizes, torch::TensorOptions().dtype(torch::kInt64).device(device));
  }
  return torch::randn(sizes, torch::TensorOptions().dtype(torch::kFloat32).device(device));
}

using Call = std::function<torch::Tensor(const torch::Tensor&)>;

Instance instance(std::shared_ptr<nn::Module> module, torch::Tensor input, torch::Device device, Call call)
{
  module->to(device);
  Instance built;
  built.module = std::move(module);
  built.input = std::move(input);
  built.call = std::move(call);
  return built;
}

// A module whose forward takes and returns one tensor.
template<typename Module>
Instance module_call(Module module, torch::Tensor input, torch::Device device)
{
  return instance(module.ptr(), std::move(input), device, [module](const torch::Tensor& x) mutable { return module->forward(x); });
}

// The other addends of a residual add or the embedding sum, as buffers, so that channels_last converts them.
Instance add_instance(const UseShape& shape, torch::Tensor input, torch::Device device)
{
  auto module = std::make_shared<nn::Module>();
  std::vector<torch::Tensor> others;
  for (int i = 1; i < shape.operands; ++i) {
    others.push_back(module->register_buffer("addend" + std::to_string(i), torch::randn_like(input)));
  }
  const bool in_place = shape.in_place == InPlace::yes && others.size() == 1;
  return instance(module, std::move(input), device, [module, in_place](const torch::Tensor& x) {
    const auto buffers = module->buffers();
    if (in_place && !x.requires_grad()) {
      return x.add_(buffers[0]);
    }
    auto sum = x;
    for (const auto& other : buffers) {
      sum = sum + other;
    }
    return sum;
  });
}

// transformers' sdpa call: query, key and value are views of the projections' [B, S, heads, head] outputs
// transposed to [B, heads, S, head]; no mask, no dropout in eval, the scale given as head^-0.5.
Instance attention_instance(const UseShape& shape, torch::Tensor input, torch::Device device)
{
  const double scale = std::pow(static_cast<double>(shape.input.back()), -0.5);
  return instance(std::make_shared<nn::Module>(), std::move(input), device, [scale](const torch::Tensor& x) {
    const auto part = [&x](int64_t index) { return x.select(2, index).transpose(1, 2); };
    return detail::sdpa_scaled(part(0), part(1), part(2), 0.0, scale);
  });
}

} // namespace

Instance build_use(const UseShape& s, int64_t batch_size, torch::Device device)
{
  auto input = input_of(s, batch_size, device);
  switch (s.op) {
  case UseOp::conv2d:
    return module_call(nn::Conv2d(nn::Conv2dOptions(s.in, s.out, s.kernel).stride(s.stride).padding(s.padding).bias(s.bias == Bias::yes)),
                       input, device);
  case UseOp::batch_norm2d:
    return module_call(nn::BatchNorm2d(s.in), input, device);
  case UseOp::relu:
    return instance(std::make_shared<nn::Module>(), input, device, [in_place = s.in_place](const torch::Tensor& x) {
      return in_place == InPlace::yes && !x.requires_grad() ? x.relu_() : torch::relu(x);
    });
  case UseOp::add:
    return add_instance(s, input, device);
  case UseOp::max_pool2d:
    return module_call(nn::MaxPool2d(nn::MaxPool2dOptions(s.kernel).stride(s.stride).padding(s.padding)), input, device);
  case UseOp::adaptive_avg_pool2d:
    return module_call(nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({1, 1})), input, device);
  case UseOp::linear: {
    nn::Linear module(nn::LinearOptions(s.in, s.out).bias(s.bias == Bias::yes));
    return instance(module.ptr(), input, device, [module](const torch::Tensor& x) { return linear(module, x); });
  }
  case UseOp::embedding:
    return module_call(nn::Embedding(s.in, s.out), input, device);
  case UseOp::layer_norm:
    return module_call(nn::LayerNorm(nn::LayerNormOptions({s.in}).eps(s.eps)), input, device);
  case UseOp::attention:
    return attention_instance(s, input, device);
  case UseOp::gelu:
    return module_call(nn::GELU(), input, device);
  }
  throw Error("use of an unknown operation");
}

} // namespace layerbench::bench::models
