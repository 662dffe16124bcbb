// SPDX-License-Identifier: MIT
#include "catalog/models/model_use.hpp"

namespace layerbench::bench::models {

int64_t use_params(const UseShape& s)
{
  const int64_t bias = s.bias == Bias::yes ? s.out : 0;
  switch (s.op) {
  case UseOp::conv2d:
    return s.in * s.out * s.kernel * s.kernel + bias;
  case UseOp::linear:
    return s.in * s.out + bias;
  case UseOp::embedding:
    return s.in * s.out;
  case UseOp::batch_norm2d:
  case UseOp::layer_norm:
    return 2 * s.in;
  default:
    return 0;
  }
}

ParamsText use_params_text(const UseShape& s)
{
  const bool bias = s.bias == Bias::yes;
  const std::string in = std::to_string(s.in);
  const std::string out = std::to_string(s.out);
  const std::string plus_bias = bias ? " + " + out : "";
  switch (s.op) {
  case UseOp::conv2d:
    return {bias ? "C_in*C_out*K*K + C_out" : "C_in*C_out*K*K (no bias)",
            in + "*" + out + "*" + std::to_string(s.kernel) + "*" + std::to_string(s.kernel) + plus_bias};
  case UseOp::linear:
    return {bias ? "in*out + out" : "in*out (no bias)", in + "*" + out + plus_bias};
  case UseOp::embedding:
    return {"num_embeddings*dim", in + "*" + out};
  case UseOp::batch_norm2d:
    return {"2*C (weight, bias; running statistics are buffers)", "2*" + in};
  case UseOp::layer_norm:
    return {"2*normalized_shape", "2*" + in};
  default:
    return {"0 (no parameters)", "0"};
  }
}

std::string use_module(UseOp op)
{
  switch (op) {
  case UseOp::conv2d:
    return "nn.Conv2d";
  case UseOp::batch_norm2d:
    return "nn.BatchNorm2d";
  case UseOp::relu:
    return "nn.ReLU";
  case UseOp::add:
    return "torch.add";
  case UseOp::max_pool2d:
    return "nn.MaxPool2d";
  case UseOp::adaptive_avg_pool2d:
    return "nn.AdaptiveAvgPool2d";
  case UseOp::linear:
    return "nn.Linear";
  case UseOp::embedding:
    return "nn.Embedding";
  case UseOp::layer_norm:
    return "nn.LayerNorm";
  case UseOp::attention:
    return "F.scaled_dot_product_attention";
  case UseOp::gelu:
    return "nn.GELU";
  }
  return "";
}

std::string use_input_shape(const UseShape& s)
{
  std::string text = s.scope == BatchScope::once ? "1" : "B";
  for (const auto size : s.input) {
    text += " x " + std::to_string(size);
  }
  if (s.dtype == InputDtype::int64) {
    text += s.scope == BatchScope::once ? " (int64 ids, once per forward whatever the batch)" : " (int64 ids)";
  }
  return text;
}

std::vector<dataset::LayerUse> layer_uses(const std::vector<ModelUse>& uses)
{
  std::vector<dataset::LayerUse> plain;
  for (const auto& use : uses) {
    plain.push_back(use.use);
  }
  return plain;
}

} // namespace layerbench::bench::models
