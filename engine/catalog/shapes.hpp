// SPDX-License-Identifier: MIT
#pragma once

// The catalog's layer configurations as numbers: what catalog.cpp's formulas count and
// bench/detail/builders.cpp builds, so that the two cannot drift apart. Torch-free.

#include <cstdint>

namespace layerbench::bench::shapes {

struct Conv2d
{
  int64_t c_in, c_out, k, h, w;
};
constexpr Conv2d k_conv2d{64, 128, 3, 32, 32};

struct Conv1d
{
  int64_t c_in, c_out, k, length;
};
constexpr Conv1d k_conv1d{256, 512, 5, 100};

struct ConvTranspose2d
{
  int64_t c_in, c_out, k, stride, h, w;
};
constexpr ConvTranspose2d k_conv_transpose2d{128, 64, 4, 2, 16, 16};

struct Linear
{
  int64_t in, out;
};
constexpr Linear k_linear{4096, 4096};

// Recurrent layers: gates G (4 for LSTM, 3 for GRU), hidden size H, L layers, D directions, T steps.
// Layer l > 1 reads the D*H outputs of the layer below.
struct Recurrent
{
  int64_t gates, input, hidden, layers, directions, steps;

  int64_t layer_input(int64_t layer) const { return layer == 0 ? input : hidden * directions; }

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

constexpr Recurrent k_lstm{4, 512, 256, 2, 2, 100};
constexpr Recurrent k_gru{3, 512, 256, 2, 1, 100};

// Attention over S tokens of width d with h heads.
struct Attention
{
  int64_t d, heads, seq;

  int64_t params() const { return 4 * d * d + 4 * d; }
  // Q, K, V and output projections, then QK^T and AV.
  double matmul_flops() const { return 2.0 * 4 * d * d * seq + 2.0 * 2 * seq * seq * d; }
  // Projection biases (4dS), scaling q (dS), softmax at 4 per score (4hS^2).
  double elementwise_flops() const { return 4.0 * d * seq + 1.0 * d * seq + 4.0 * heads * seq * seq; }
};

constexpr Attention k_attention{512, 8, 512};
constexpr int64_t k_feedforward = 2048;

struct BatchNorm2d
{
  int64_t features, h, w;
};
constexpr BatchNorm2d k_batch_norm2d{256, 32, 32};

struct LayerNorm
{
  int64_t width, seq;
};
constexpr LayerNorm k_layer_norm{512, 512};

struct Embedding
{
  int64_t vocabulary, width, seq;
};
constexpr Embedding k_embedding{50000, 768, 128};

// MaxPool2d and AvgPool2d: a K x K window with stride K.
struct Pool
{
  int64_t channels, h, w, k;
};
constexpr Pool k_pool{128, 32, 32, 2};

struct Dropout
{
  int64_t width;
  double p;
};
constexpr Dropout k_dropout{512, 0.5};

} // namespace layerbench::bench::shapes
