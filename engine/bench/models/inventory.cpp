// SPDX-License-Identifier: MIT
#include "bench/models/inventory.hpp"

#include <array>
#include <cstdio>

namespace layerbench::bench::models {

namespace {

using Uses = std::vector<dataset::LayerUse>;

void add(Uses& uses, const std::string& layer, const std::string& config, double matmul, double elementwise)
{
  for (auto& use : uses) {
    if (use.layer == layer && use.config == config) {
      ++use.count;
      return;
    }
  }
  uses.push_back({layer, config, 1, matmul, elementwise});
}

std::string num(int64_t value) { return std::to_string(value); }

std::string plane(int64_t channels, int64_t size) { return num(channels) + "x" + num(size) + "x" + num(size); }

// A bias-free convolution (ResNet's) on a square input; returns the output size.
int64_t conv(Uses& uses, int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t size)
{
  const int64_t padding = kernel / 2;
  const int64_t out_size = (size + 2 * padding - kernel) / stride + 1;
  add(uses, "Conv2d",
      "Conv2d(" + num(in) + "," + num(out) + "," + num(kernel) + ",stride=" + num(stride) + ",padding=" + num(padding)
          + ",bias=False) on " + plane(in, size),
      2.0 * in * out * kernel * kernel * out_size * out_size, 0);
  return out_size;
}

// BatchNorm2d in eval (a scale and a shift per element), then ReLU where `relu`.
void batch_norm(Uses& uses, int64_t channels, int64_t size, bool relu)
{
  const double elements = static_cast<double>(channels) * size * size;
  add(uses, "BatchNorm2d", "BatchNorm2d(" + num(channels) + ") on " + plane(channels, size), 0, 2 * elements);
  if (relu) {
    add(uses, "ReLU", "ReLU on " + plane(channels, size), 0, elements);
  }
}

int64_t bottleneck(Uses& uses, int64_t in, int64_t planes, int64_t stride, int64_t size)
{
  const int64_t out = planes * k_bottleneck_expansion;
  conv(uses, in, planes, 1, 1, size);
  batch_norm(uses, planes, size, true);
  const int64_t out_size = conv(uses, planes, planes, 3, stride, size);
  batch_norm(uses, planes, out_size, true);
  conv(uses, planes, out, 1, 1, out_size);
  batch_norm(uses, out, out_size, false);
  if (stride != 1 || in != out) {
    conv(uses, in, out, 1, stride, size);
    batch_norm(uses, out, out_size, false);
  }
  const double elements = static_cast<double>(out) * out_size * out_size;
  add(uses, "add", "residual add on " + plane(out, out_size), 0, elements);
  add(uses, "ReLU", "ReLU on " + plane(out, out_size), 0, elements);
  return out_size;
}

void linear(Uses& uses, int64_t in, int64_t out, int64_t rows, const std::string& where)
{
  add(uses, "Linear", "Linear(" + num(in) + "," + num(out) + ") on " + num(rows) + " " + where,
      2.0 * rows * in * out, static_cast<double>(rows) * out);
}

void layer_norm(Uses& uses, int64_t width, int64_t rows)
{
  add(uses, "LayerNorm", "LayerNorm(" + num(width) + ") on " + num(rows) + " tokens", 0, 7.0 * rows * width);
}

void bert_layer(Uses& uses, const BertConfig& c, int64_t s)
{
  const int64_t d = c.hidden_size;
  for (int i = 0; i < 3; ++i) {
    linear(uses, d, d, s, "tokens (query, key, value)");
  }
  const double scores = static_cast<double>(c.num_attention_heads) * s * s;
  add(uses, "scaled_dot_product_attention",
      "scaled_dot_product_attention, " + num(c.num_attention_heads) + " heads of " + num(d / c.num_attention_heads)
          + " over " + num(s) + " tokens",
      2.0 * 2.0 * s * s * d, 5 * scores);
  linear(uses, d, d, s, "tokens (attention output)");
  add(uses, "add", "residual add on " + num(s) + "x" + num(d), 0, static_cast<double>(s) * d);
  layer_norm(uses, d, s);
  linear(uses, d, c.intermediate_size, s, "tokens (intermediate)");
  add(uses, "GELU", "GELU on " + num(s) + "x" + num(c.intermediate_size) + " (erf: not counted)", 0, 0);
  linear(uses, c.intermediate_size, d, s, "tokens (output)");
  add(uses, "add", "residual add on " + num(s) + "x" + num(d), 0, static_cast<double>(s) * d);
  layer_norm(uses, d, s);
}

} // namespace

Uses resnet_inventory(const ResNetOptions& options, int64_t image_size)
{
  Uses uses;
  int64_t size = conv(uses, 3, 64, 7, 2, image_size);
  batch_norm(uses, 64, size, true);
  const int64_t pooled = (size + 2 - 3) / 2 + 1;
  add(uses, "MaxPool2d", "MaxPool2d(3,stride=2,padding=1) on " + plane(64, size), 0, 8.0 * 64 * pooled * pooled);
  size = pooled;
  int64_t channels = 64;
  const std::array<int64_t, 4> widths{64, 128, 256, 512};
  for (size_t stage = 0; stage < widths.size(); ++stage) {
    for (int64_t block = 0; block < options.blocks[stage]; ++block) {
      const int64_t stride = (stage > 0 && block == 0) ? 2 : 1;
      size = bottleneck(uses, channels, widths[stage], stride, size);
      channels = widths[stage] * k_bottleneck_expansion;
    }
  }
  add(uses, "AdaptiveAvgPool2d", "AdaptiveAvgPool2d(1) on " + plane(channels, size), 0,
      static_cast<double>(channels) * size * size);
  linear(uses, channels, options.num_classes, 1, "image (fc)");
  return uses;
}

Uses bert_inventory(const BertConfig& c, int64_t s)
{
  Uses uses;
  const int64_t d = c.hidden_size;
  add(uses, "Embedding", "Embedding(" + num(c.vocab_size) + "," + num(d) + ") words", 0, 0);
  add(uses, "Embedding", "Embedding(" + num(c.max_position_embeddings) + "," + num(d) + ") positions", 0, 0);
  add(uses, "Embedding", "Embedding(" + num(c.type_vocab_size) + "," + num(d) + ") token types", 0, 0);
  add(uses, "add", "embedding sum on " + num(s) + "x" + num(d), 0, 2.0 * s * d);
  layer_norm(uses, d, s);
  for (int64_t layer = 0; layer < c.num_hidden_layers; ++layer) {
    bert_layer(uses, c, s);
  }
  linear(uses, d, d, 1, "token (pooler; its tanh not counted)");
  return uses;
}

int64_t resnet_parameters(const ResNetOptions& options)
{
  const auto conv = [](int64_t in, int64_t out, int64_t kernel) { return in * out * kernel * kernel; };
  const auto batch_norm = [](int64_t channels) { return 2 * channels; };
  int64_t total = conv(3, 64, 7) + batch_norm(64);
  int64_t channels = 64;
  for (size_t stage = 0; stage < options.blocks.size(); ++stage) {
    const int64_t planes = int64_t{64} << stage;
    const int64_t out = planes * k_bottleneck_expansion;
    for (int64_t block = 0; block < options.blocks[stage]; ++block) {
      total += conv(channels, planes, 1) + batch_norm(planes) + conv(planes, planes, 3) + batch_norm(planes)
               + conv(planes, out, 1) + batch_norm(out);
      const int64_t stride = (stage > 0 && block == 0) ? 2 : 1;
      if (stride != 1 || channels != out) { // the downsample: a 1x1 convolution and its BatchNorm
        total += conv(channels, out, 1) + batch_norm(out);
      }
      channels = out;
    }
  }
  return total + channels * options.num_classes + options.num_classes;
}

int64_t bert_parameters(const BertConfig& c)
{
  const int64_t d = c.hidden_size;
  const auto linear = [](int64_t in, int64_t out) { return in * out + out; };
  const int64_t layer_norm = 2 * d;
  const int64_t embeddings = (c.vocab_size + c.max_position_embeddings + c.type_vocab_size) * d + layer_norm;
  const int64_t layer = 4 * linear(d, d) + layer_norm + linear(d, c.intermediate_size) + linear(c.intermediate_size, d)
                        + layer_norm;
  return embeddings + c.num_hidden_layers * layer + linear(d, d);
}

double matmul_flops(const Uses& uses)
{
  double total = 0;
  for (const auto& use : uses) {
    total += use.count * use.matmul_flops_per_sample;
  }
  return total;
}

double elementwise_flops(const Uses& uses)
{
  double total = 0;
  for (const auto& use : uses) {
    total += use.count * use.elementwise_flops_per_sample;
  }
  return total;
}

std::string flops_values(const Uses& uses)
{
  std::string text;
  char number[64];
  for (const auto& use : uses) {
    const double flops = use.matmul_flops_per_sample + use.elementwise_flops_per_sample;
    if (flops == 0) {
      continue;
    }
    std::snprintf(number, sizeof number, "%.0f", flops);
    text += (text.empty() ? "" : " + ") + std::to_string(use.count) + "*" + number;
  }
  return text;
}

} // namespace layerbench::bench::models
