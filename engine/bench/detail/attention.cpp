// SPDX-License-Identifier: MIT
#include "bench/detail/attention.hpp"

#include "bench/detail/torch_compat.hpp"

#include <ATen/ScalarOps.h>

#include <cmath>

namespace layerbench::bench::detail {

namespace {

// _in_projection_packed for self-attention: one projection, split into q, k and v; 2.x unflattens
// it into one contiguous tensor, 1.13 chunks it into views.
std::array<torch::Tensor, 3> in_projection_packed(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                                  TorchRelease python)
{
  const int64_t embed = x.size(-1);
  auto projection = torch::linear(x, weight, bias);
  if (!has(python, TorchFeature::scaled_dot_product_attention)) {
    auto chunks = projection.chunk(3, -1);
    return {chunks[0], chunks[1], chunks[2]};
  }
  projection = projection.unflatten(-1, {3, embed}).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous();
  return {projection[0], projection[1], projection[2]};
}

// A Python number as Python's argument parser hands it to a tensor operator: a 0-dim tensor marked as a
// wrapped number (so it does not promote the other operand), made without a dispatcher call. C++'s
// `q * 0.125` calls the Scalar overload, which calls the Tensor one: two dispatcher calls where Python's
// `q * 0.125` makes one (bench/opset_cpu compares the counts).
torch::Tensor python_number(const c10::Scalar& value)
{
  auto number = c10::scalar_to_tensor(value);
  number.unsafeGetTensorImpl()->set_wrapped_number(true);
  return number;
}

// The attention weights path: scaled q, bmm, softmax, bmm, out projection; the weights are averaged
// over heads when asked for, and discarded.
torch::Tensor attention_with_weights(torch::nn::MultiheadAttentionImpl& attention, const torch::Tensor& q, const torch::Tensor& k,
                                     const torch::Tensor& v, std::array<int64_t, 3> target_batch_embed, NeedWeights need_weights,
                                     TorchRelease python)
{
  const auto [target, batch, embed] = target_batch_embed;
  const int64_t heads = attention.options.num_heads();
  const double e = static_cast<double>(q.size(2));
  const auto q_scaled = has(python, TorchFeature::mha_scale_by_multiplication) ? q * python_number(std::sqrt(1.0 / e))
                                                                                : q / python_number(std::sqrt(e));
  auto weights = torch::bmm(q_scaled, k.transpose(-2, -1));
  weights = weights.softmax(-1);
  auto output = torch::bmm(weights, v);
  output = output.transpose(0, 1).contiguous().view({target * batch, embed});
  const auto& out_proj = attention.out_proj;
  output = torch::linear(output, out_proj->weight, out_proj->bias);
  output = output.view({target, batch, output.size(1)});
  if (need_weights == NeedWeights::yes) {
    weights = weights.view({batch, heads, target, k.size(1)});
    // average_attn_weights=True
    weights = has(python, TorchFeature::scaled_dot_product_attention) ? weights.mean(1) : weights.sum(1) / python_number(heads);
  }
  return output;
}

} // namespace

torch::Tensor self_attention_like_python(torch::nn::MultiheadAttentionImpl& attention, const torch::Tensor& x, NeedWeights need_weights,
                                        TorchRelease python)
{
  const int64_t target = x.size(0);
  const int64_t batch = x.size(1);
  const int64_t embed = x.size(2);
  const int64_t heads = attention.options.num_heads();
  const int64_t head_dim = embed / heads;

  auto [q, k, v] = in_projection_packed(x, attention.in_proj_weight, attention.in_proj_bias, python);
  // 1.13 makes each contiguous first, copying its chunk; 2.x's are contiguous, so nothing is dispatched.
  q = q.contiguous().view({target, batch * heads, head_dim}).transpose(0, 1);
  k = k.contiguous().view({k.size(0), batch * heads, head_dim}).transpose(0, 1);
  v = v.contiguous().view({v.size(0), batch * heads, head_dim}).transpose(0, 1);
  const int64_t source = k.size(1);

  if (need_weights == NeedWeights::yes || !has(python, TorchFeature::scaled_dot_product_attention)) {
    return attention_with_weights(attention, q, k, v, {target, batch, embed}, need_weights, python);
  }
  q = q.view({batch, heads, target, head_dim});
  k = k.view({batch, heads, source, head_dim});
  v = v.view({batch, heads, source, head_dim});
  auto output = sdpa_no_mask(q, k, v);
  output = output.permute({2, 0, 1, 3}).contiguous().view({batch * target, embed});
  const auto& out_proj = attention.out_proj;
  output = torch::linear(output, out_proj->weight, out_proj->bias);
  return output.view({target, batch, output.size(1)});
}

torch::Tensor encoder_layer_like_python(torch::nn::TransformerEncoderLayerImpl& layer, const torch::Tensor& x, TorchRelease python)
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
  auto attended = dropout(self_attention_like_python(*layer.self_attn, x, NeedWeights::no, python), layer.dropout1);
  auto hidden = norm(x + attended, layer.norm1);
  // _ff_block: linear2(dropout(relu(linear1(x)))), then dropout2.
  auto fed = torch::linear(hidden, layer.linear1->weight, layer.linear1->bias);
  fed = dropout(torch::relu(fed), layer.dropout);
  fed = dropout(torch::linear(fed, layer.linear2->weight, layer.linear2->bias), layer.dropout2);
  return norm(hidden + fed, layer.norm2);
}

} // namespace layerbench::bench::detail
