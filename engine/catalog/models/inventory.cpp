// SPDX-License-Identifier: MIT
#include "catalog/models/inventory.hpp"

#include <array>
#include <cstdio>

namespace layerbench::bench::models {

namespace {

using Uses = std::vector<ModelUse>;

// The text and the shape come from the same call, so the published config and what is built agree.
void add(Uses& uses, const std::string& layer, const std::string& config, double matmul, double elementwise,
         const UseShape& shape)
{
  for (auto& found : uses) {
    if (found.use.layer == layer && found.use.config == config) {
      ++found.use.count;
      return;
    }
  }
  uses.push_back({{layer, config, 1, matmul, elementwise}, shape});
}

UseShape shaped(UseOp op, std::vector<int64_t> input)
{
  UseShape shape;
  shape.op = op;
  shape.input = std::move(input);
  return shape;
}

// torchvision's ReLU(inplace=True) and `out += identity`.
UseShape in_place(UseOp op, std::vector<int64_t> input)
{
  auto shape = shaped(op, std::move(input));
  shape.in_place = InPlace::yes;
  return shape;
}

std::vector<int64_t> plane_shape(int64_t channels, int64_t size) { return {channels, size, size}; }

// Tokens x width, or the width alone for one row per sample (the pooler's first token, ResNet's fc).
std::vector<int64_t> rows_shape(int64_t rows, int64_t width)
{
  return rows == 1 ? std::vector<int64_t>{width} : std::vector<int64_t>{rows, width};
}

std::string num(int64_t value) { return std::to_string(value); }

std::string plane(int64_t channels, int64_t size) { return num(channels) + "x" + num(size) + "x" + num(size); }

// A bias-free convolution (ResNet's) on a square input; returns the output size.
int64_t conv(Uses& uses, int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t size)
{
  const int64_t padding = kernel / 2;
  const int64_t out_size = (size + 2 * padding - kernel) / stride + 1;
  auto shape = shaped(UseOp::conv2d, plane_shape(in, size));
  shape.in = in;
  shape.out = out;
  shape.kernel = kernel;
  shape.stride = stride;
  shape.padding = padding;
  shape.bias = Bias::no;
  add(uses, "Conv2d",
      "Conv2d(" + num(in) + "," + num(out) + "," + num(kernel) + ",stride=" + num(stride) + ",padding=" + num(padding)
          + ",bias=False) on " + plane(in, size),
      2.0 * in * out * kernel * kernel * out_size * out_size, 0, shape);
  return out_size;
}

// BatchNorm2d in eval (a scale and a shift per element), then ReLU where `relu`.
void batch_norm(Uses& uses, int64_t channels, int64_t size, bool relu)
{
  const double elements = static_cast<double>(channels) * size * size;
  auto shape = shaped(UseOp::batch_norm2d, plane_shape(channels, size));
  shape.in = channels;
  add(uses, "BatchNorm2d", "BatchNorm2d(" + num(channels) + ") on " + plane(channels, size), 0, 2 * elements, shape);
  if (relu) {
    add(uses, "ReLU", "ReLU on " + plane(channels, size), 0, elements, in_place(UseOp::relu, plane_shape(channels, size)));
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
  add(uses, "add", "residual add on " + plane(out, out_size), 0, elements, in_place(UseOp::add, plane_shape(out, out_size)));
  add(uses, "ReLU", "ReLU on " + plane(out, out_size), 0, elements, in_place(UseOp::relu, plane_shape(out, out_size)));
  return out_size;
}

void linear(Uses& uses, int64_t in, int64_t out, int64_t rows, const std::string& where)
{
  auto shape = shaped(UseOp::linear, rows_shape(rows, in));
  shape.in = in;
  shape.out = out;
  add(uses, "Linear", "Linear(" + num(in) + "," + num(out) + ") on " + num(rows) + " " + where,
      2.0 * rows * in * out, static_cast<double>(rows) * out, shape);
}

void layer_norm(Uses& uses, int64_t width, int64_t rows, double eps)
{
  auto shape = shaped(UseOp::layer_norm, rows_shape(rows, width));
  shape.in = width;
  shape.eps = eps;
  add(uses, "LayerNorm", "LayerNorm(" + num(width) + ") on " + num(rows) + " tokens", 0, 7.0 * rows * width, shape);
}

void residual_add(Uses& uses, int64_t rows, int64_t width)
{
  add(uses, "add", "residual add on " + num(rows) + "x" + num(width), 0, static_cast<double>(rows) * width,
      shaped(UseOp::add, rows_shape(rows, width)));
}

void bert_layer(Uses& uses, const BertConfig& c, int64_t s)
{
  const int64_t d = c.hidden_size;
  for (int i = 0; i < 3; ++i) {
    linear(uses, d, d, s, "tokens (query, key, value)");
  }
  const double scores = static_cast<double>(c.num_attention_heads) * s * s;
  // Query, key and value side by side per token, as the three projections leave them.
  auto attention = shaped(UseOp::attention, {s, 3, c.num_attention_heads, d / c.num_attention_heads});
  attention.heads = c.num_attention_heads;
  add(uses, "scaled_dot_product_attention",
      "scaled_dot_product_attention, " + num(c.num_attention_heads) + " heads of " + num(d / c.num_attention_heads)
          + " over " + num(s) + " tokens",
      2.0 * 2.0 * s * s * d, 5 * scores, attention);
  linear(uses, d, d, s, "tokens (attention output)");
  residual_add(uses, s, d);
  layer_norm(uses, d, s, c.layer_norm_eps);
  linear(uses, d, c.intermediate_size, s, "tokens (intermediate)");
  add(uses, "GELU", "GELU on " + num(s) + "x" + num(c.intermediate_size) + " (erf: not counted)", 0, 0,
      shaped(UseOp::gelu, {s, c.intermediate_size}));
  linear(uses, c.intermediate_size, d, s, "tokens (output)");
  residual_add(uses, s, d);
  layer_norm(uses, d, s, c.layer_norm_eps);
}

// Embedding(rows, width) looking up `ids` per sample, or once per forward.
void embedding(Uses& uses, int64_t rows, int64_t width, int64_t ids, BatchScope scope, const std::string& what)
{
  auto shape = shaped(UseOp::embedding, {ids});
  shape.dtype = InputDtype::int64;
  shape.scope = scope;
  shape.in = rows;
  shape.out = width;
  add(uses, "Embedding", "Embedding(" + num(rows) + "," + num(width) + ") " + what, 0, 0, shape);
}

} // namespace

Uses resnet_uses(const ResNetOptions& options, int64_t image_size)
{
  Uses uses;
  int64_t size = conv(uses, 3, 64, 7, 2, image_size);
  batch_norm(uses, 64, size, true);
  const int64_t pooled = (size + 2 - 3) / 2 + 1;
  auto pool = shaped(UseOp::max_pool2d, plane_shape(64, size));
  pool.kernel = 3;
  pool.stride = 2;
  pool.padding = 1;
  add(uses, "MaxPool2d", "MaxPool2d(3,stride=2,padding=1) on " + plane(64, size), 0, 8.0 * 64 * pooled * pooled, pool);
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
      static_cast<double>(channels) * size * size, shaped(UseOp::adaptive_avg_pool2d, plane_shape(channels, size)));
  linear(uses, channels, options.num_classes, 1, "image (fc)");
  return uses;
}

Uses bert_uses(const BertConfig& c, int64_t s)
{
  Uses uses;
  const int64_t d = c.hidden_size;
  embedding(uses, c.vocab_size, d, s, BatchScope::per_sample, "words");
  embedding(uses, c.max_position_embeddings, d, s, BatchScope::once, "positions");
  embedding(uses, c.type_vocab_size, d, s, BatchScope::per_sample, "token types");
  // words + token types + positions: two adds per element.
  auto sum = shaped(UseOp::add, {s, d});
  sum.operands = 3;
  add(uses, "add", "embedding sum on " + num(s) + "x" + num(d), 0, 2.0 * s * d, sum);
  layer_norm(uses, d, s, c.layer_norm_eps);
  for (int64_t layer = 0; layer < c.num_hidden_layers; ++layer) {
    bert_layer(uses, c, s);
  }
  linear(uses, d, d, 1, "token (pooler; its tanh not counted)");
  return uses;
}

namespace {

// Each use's parameters times its count: the model's, since every parameter tensor belongs to one use.
int64_t parameters_of(const Uses& uses)
{
  int64_t total = 0;
  for (const auto& use : uses) {
    total += use.use.count * use_params(use.shape);
  }
  return total;
}

} // namespace

int64_t resnet_parameters(const ResNetOptions& options) { return parameters_of(resnet_uses(options, k_image_size)); }

int64_t bert_parameters(const BertConfig& config) { return parameters_of(bert_uses(config, k_sequence_length)); }

std::vector<dataset::LayerUse> resnet_inventory(const ResNetOptions& options, int64_t image_size)
{
  return layer_uses(resnet_uses(options, image_size));
}

std::vector<dataset::LayerUse> bert_inventory(const BertConfig& config, int64_t sequence_length)
{
  return layer_uses(bert_uses(config, sequence_length));
}

double matmul_flops(const std::vector<dataset::LayerUse>& uses)
{
  double total = 0;
  for (const auto& use : uses) {
    total += use.count * use.matmul_flops_per_sample;
  }
  return total;
}

double elementwise_flops(const std::vector<dataset::LayerUse>& uses)
{
  double total = 0;
  for (const auto& use : uses) {
    total += use.count * use.elementwise_flops_per_sample;
  }
  return total;
}

std::string flops_values(const std::vector<dataset::LayerUse>& uses)
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
