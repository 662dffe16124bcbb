// SPDX-License-Identifier: MIT
#pragma once

// Each layer's parameters, one type per layer, with the reference page's configuration as their
// defaults and the input shape as a function of them and the batch. The catalog's descriptor
// (catalog/catalog.cpp) counts them in its formulas; bench/detail/builders.cpp builds the module from
// the same value, chosen by its type: a layer type without a builder does not compile. Torch-free.

#include "catalog/models/config.hpp"

#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

namespace layerbench::bench::shapes {

using Dims = std::vector<int64_t>;

struct Conv2d
{
  int64_t c_in = 64, c_out = 128, k = 3, h = 32, w = 32;

  Dims input(int64_t batch) const { return {batch, c_in, h, w}; }
};

struct Conv1d
{
  int64_t c_in = 256, c_out = 512, k = 5, length = 100;

  Dims input(int64_t batch) const { return {batch, c_in, length}; }
};

struct ConvTranspose2d
{
  int64_t c_in = 128, c_out = 64, k = 4, stride = 2, h = 16, w = 16;

  Dims input(int64_t batch) const { return {batch, c_in, h, w}; }
};

// seq = 0 is the reference's 2-D input (B x in); seq > 0 gives each sample S positions (B x S x in), as a
// transformer's projections see them.
struct Linear
{
  int64_t in = 4096, out = 4096, seq = 0;

  int64_t positions() const { return seq == 0 ? 1 : seq; }
  Dims input(int64_t batch) const { return seq == 0 ? Dims{batch, in} : Dims{batch, seq, in}; }
};

// Recurrent layers: gates G (4 for LSTM, 3 for GRU), hidden size H, L layers, D directions, T steps.
// Layer l > 1 reads the D*H outputs of the layer below. Sequence first, as nn.LSTM and nn.GRU default.
struct Recurrent
{
  int64_t gates, input_size, hidden, layers, directions, steps;

  Dims input(int64_t batch) const { return {steps, batch, input_size}; }

  int64_t layer_input(int64_t layer) const { return layer == 0 ? input_size : hidden * directions; }

  int64_t params() const
  {
    int64_t total = 0;
    for (int64_t l = 0; l < layers; ++l) {
      total += directions * gates * (layer_input(l) * hidden + hidden * hidden + 2 * hidden);
    }
    return total;
  }

  double matmul_flops() const
  {
    double total = 0;
    for (int64_t l = 0; l < layers; ++l) {
      total += 2.0 * directions * gates * hidden * (layer_input(l) + hidden) * steps;
    }
    return total;
  }

  double elementwise_flops(int64_t per_hidden_per_step) const
  {
    return 1.0 * per_hidden_per_step * hidden * steps * layers * directions;
  }
};

struct Lstm : Recurrent
{
  constexpr Lstm() : Recurrent{4, 512, 256, 2, 2, 100} {}
};

struct Gru : Recurrent
{
  constexpr Gru() : Recurrent{3, 512, 256, 2, 1, 100} {}
};

// Attention over S tokens of width d with h heads, sequence first.
struct Attention
{
  int64_t d = 512, heads = 8, seq = 512;

  Dims input(int64_t batch) const { return {seq, batch, d}; }

  int64_t params() const { return 4 * d * d + 4 * d; }
  // Q, K, V and output projections, then QK^T and AV.
  double matmul_flops() const { return 2.0 * 4 * d * d * seq + 2.0 * 2 * seq * seq * d; }
  // Projection biases (4dS), scaling q (dS), softmax at 4 per score (4hS^2).
  double elementwise_flops() const { return 4.0 * d * seq + 1.0 * d * seq + 4.0 * heads * seq * seq; }
};

struct MultiheadAttention : Attention
{
};

// One encoder layer: self-attention, then a feed-forward block of width `feedforward`.
struct TransformerEncoder : Attention
{
  int64_t feedforward = 2048;
};

struct BatchNorm2d
{
  int64_t features = 256, h = 32, w = 32;

  Dims input(int64_t batch) const { return {batch, features, h, w}; }
};

struct LayerNorm
{
  int64_t width = 512, seq = 512;

  Dims input(int64_t batch) const { return {batch, seq, width}; }
};

struct Embedding
{
  int64_t vocabulary = 50000, width = 768, seq = 128;

  Dims input(int64_t batch) const { return {batch, seq}; } // int64 indices
};

// MaxPool2d and AvgPool2d: a K x K window with stride K.
struct Pool
{
  int64_t channels = 128, h = 32, w = 32, k = 2;

  Dims input(int64_t batch) const { return {batch, channels, h, w}; }
};

struct MaxPool2d : Pool
{
};

struct AvgPool2d : Pool
{
};

struct Dropout
{
  int64_t width = 512;
  double p = 0.5;

  Dims input(int64_t batch) const { return {batch, width}; }
};

// Today's layers, beyond the reference page (issue 37 item 4; catalog.hpp, todays_layers()).

// nn.RMSNorm(d) over S positions per sample: a scale per feature, no mean and no shift. The defaults are
// LayerNorm's, so the two set side by side.
struct RmsNorm
{
  int64_t width = 512, seq = 512;

  Dims input(int64_t batch) const { return {batch, seq, width}; }
};

// An elementwise activation on B x S x d, at LayerNorm's sizes.
struct Activation
{
  int64_t width = 512, seq = 512;

  Dims input(int64_t batch) const { return {batch, seq, width}; }
};

struct Gelu : Activation
{
};

struct Silu : Activation
{
};

// F.scaled_dot_product_attention on a query of H heads and keys and values of H_kv heads, each of S
// positions of width D, batch first (B x H x S x D). Grouped-query attention where H_kv < H (enable_gqa).
// The defaults are MultiheadAttention's core: 8 heads of 64 over 512 positions.
struct Sdpa
{
  int64_t heads = 8, kv_heads = 8, head_dim = 64, seq = 512;

  Dims input(int64_t batch) const { return {batch, heads, seq, head_dim}; } // the query; keys and values beside it
  Dims key_dims(int64_t batch) const { return {batch, kv_heads, seq, head_dim}; }
};

struct ScaledDotProductAttention : Sdpa
{
};

struct GroupedQueryAttention : Sdpa
{
  constexpr GroupedQueryAttention() : Sdpa{8, 2, 64, 512} {}
};

// nn.Conv2d(C, C, K, groups=C): one K x K filter per channel, as MobileNet's blocks use.
struct DepthwiseConv2d
{
  int64_t channels = 256, k = 3, h = 32, w = 32;

  Dims input(int64_t batch) const { return {batch, channels, h, w}; }
};

// nn.Conv3d(C_in, C_out, K, groups=G) over a clip of D frames; G = C_in = C_out is depthwise.
struct Conv3d
{
  int64_t c_in = 64, c_out = 64, k = 3, depth = 8, h = 32, w = 32, groups = 1;

  Dims input(int64_t batch) const { return {batch, c_in, depth, h, w}; }
};

// LLaMA's feed-forward block: w2(silu(w1 x) * w3 x), three bias-free projections d -> hidden -> d over S
// positions per sample.
struct SwiGlu
{
  int64_t width = 1024, hidden = 2816, seq = 128;

  Dims input(int64_t batch) const { return {batch, seq, width}; }
};

// A catalog entry's parameters: one of the layers above or a whole model's architecture (a model family,
// catalog/models/config.hpp), or none for a model's layer (built from its model's inventory).
using LayerShape = std::variant<std::monostate, Conv2d, Conv1d, ConvTranspose2d, Linear, Lstm, Gru, TransformerEncoder,
                                MultiheadAttention, BatchNorm2d, LayerNorm, Embedding, MaxPool2d, AvgPool2d, Dropout,
                                RmsNorm, Gelu, Silu, ScaledDotProductAttention, GroupedQueryAttention, DepthwiseConv2d,
                                Conv3d, SwiGlu, models::ResNetOptions, models::BertConfig>;

// The input's dimensions at `batch`; empty for an entry without a layer's parameters.
inline Dims input_dims(const LayerShape& shape, int64_t batch)
{
  return std::visit(
    [batch](const auto& s) -> Dims {
      if constexpr (std::is_same_v<std::decay_t<decltype(s)>, std::monostate>) {
        return {};
      } else {
        return s.input(batch);
      }
    },
    shape);
}

} // namespace layerbench::bench::shapes
