// SPDX-License-Identifier: MIT
#include "bench/detail/attention.hpp"

#include "bench/detail/torch_compat.hpp"

#include <cmath>

namespace layerbench::bench::detail {

namespace {

// _in_projection_packed for self-attention: one projection, split into q, k and v.
std::array<torch::Tensor, 3> in_projection_packed(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias)
{
  const int64_t embed = x.size(-1);
  auto projection = torch::linear(x, weight, bias);
  projection = projection.unflatten(-1, {3, embed}).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous();
  return {projection[0], projection[1], projection[2]};
}

} // namespace

torch::Tensor self_attention_like_python(torch::nn::MultiheadAttentionImpl& attention, const torch::Tensor& x, NeedWeights need_weights)
{
  const int64_t target = x.size(0);
  const int64_t batch = x.size(1);
  const int64_t embed = x.size(2);
  const int64_t heads = attention.options.num_heads();
  const int64_t head_dim = embed / heads;

  auto [q, k, v] = in_projection_packed(x, attention.in_proj_weight, attention.in_proj_bias);
  q = q.view({target, batch * heads, head_dim}).transpose(0, 1);
  k = k.view({k.size(0), batch * heads, head_dim}).transpose(0, 1);
  v = v.view({v.size(0), batch * heads, head_dim}).transpose(0, 1);
  const int64_t source = k.size(1);

  const auto& out_proj = attention.out_proj;
  if (need_weights == NeedWeights::yes) {
    const auto q_scaled = q * std::sqrt(1.0 / static_cast<double>(q.size(2)));
    auto weights = torch::bmm(q_scaled, k.transpose(-2, -1));
    weights = weights.softmax(-1);
    auto output = torch::bmm(weights, v);
    output = output.transpose(0, 1).contiguous().view({target * batch, embed});
    output = torch::linear(output, out_proj->weight, out_proj->bias);
    output = output.view({target, batch, output.size(1)});
    weights = weights.view({batch, heads, target, source});
    weights = weights.mean(1); // average_attn_weights=True
    return output;
  }
  q = q.view({batch, heads, target, head_dim});
  k = k.view({batch, heads, source, head_dim});
  v = v.view({batch, heads, source, head_dim});
  auto output = sdpa_no_mask(q, k, v);
  output = output.permute({2, 0, 1, 3}).contiguous().view({batch * target, embed});
  output = torch::linear(output, out_proj->weight, out_proj->bias);
  return output.view({target, batch, output.size(1)});
}

torch::Tensor encoder_layer_like_python(torch::nn::TransformerEncoderLayerImpl& layer, const torch::Tensor& x)
{
  // Dropout runs as aten::dropout in eval too (it returns its input), as Python's dropout modules do.
  const bool training = layer.is_training();
  const auto dropout = [&](const torch::Tensor& t, const torch::nn::Dropout& module) {
    return torch::dropout(t, module->options.p(), training);
  };
  const auto norm = [](const torch::Tensor& t, const torch::nn::LayerNorm& module) {
    return torch::layer_norm(t, module->options.normalized_shape(), module->weight, module->bias, module->options.eps());
  };
  // _sa_block: self-attention without weights, then dropout1.
  auto attended = dropout(self_attention_like_python(*layer.self_attn, x, NeedWeights::no), layer.dropout1);
  auto hidden = norm(x + attended, layer.norm1);
  // _ff_block: linear2(dropout(relu(linear1(x)))), then dropout2.
  auto fed = torch::linear(hidden, layer.linear1->weight, layer.linear1->bias);
  fed = dropout(torch::relu(fed), layer.dropout);
  fed = dropout(torch::linear(fed, layer.linear2->weight, layer.linear2->bias), layer.dropout2);
  return norm(hidden + fed, layer.norm2);
}

} // namespace layerbench::bench::detail
