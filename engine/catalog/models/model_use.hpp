// SPDX-License-Identifier: MIT
#pragma once

// One use of a layer inside a whole model in a form that can be built (catalog/models/layer_sum.hpp):
// the inventory's text, which published datasets hold, beside what a builder needs, the module's kind
// and options and the input of one sample. Torch-free, so that the inventory stays plain data.

#include "dataset/dataset.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace layerbench::bench::models {

// The operations a model's inventory holds, one per module or functional call of the model's forward.
enum class UseOp {
  conv2d,
  batch_norm2d,
  relu,
  add,
  max_pool2d,
  adaptive_avg_pool2d,
  linear,
  embedding,
  layer_norm,
  attention, // F.scaled_dot_product_attention on query, key and value
  gelu,
};

enum class Bias { no, yes };
// Whether the model runs the op in place: torchvision's ReLU(inplace=True) and `out += identity` do
// (aten::relu_, aten::add_); BERT's residual adds do not.
enum class InPlace { no, yes };
// Token ids for an Embedding, floating point for everything else.
enum class InputDtype { float32, int64 };
// How the model feeds a use: a batch of B samples, or one input whatever the batch (BERT's position
// embeddings look up the same 1 x S position ids for every sequence).
enum class BatchScope { per_sample, once };

struct UseShape
{
  UseOp op = UseOp::add;
  std::vector<int64_t> input; // one sample's input; the batch dimension goes in front
  InputDtype dtype = InputDtype::float32;
  BatchScope scope = BatchScope::per_sample;
  // Module options, where the op has them: channels or features in and out (Embedding: rows and
  // width), kernel, stride, padding, bias; the heads of an attention; the tensors an add sums; eps.
  int64_t in = 0;
  int64_t out = 0;
  int64_t kernel = 0;
  int64_t stride = 1;
  int64_t padding = 0;
  Bias bias = Bias::yes;
  int64_t heads = 0;
  int operands = 2;
  InPlace in_place = InPlace::no;
  double eps = 1e-5;
};

struct ModelUse
{
  dataset::LayerUse use; // as published: layers[].contains
  UseShape shape;
};

// The parameters of the built module, from its options: a test counts them on the module.
int64_t use_params(const UseShape& shape);

// The parameter formula of the op and the same with this use's numbers ("C_in*C_out*K*K", "64*64*3*3").
struct ParamsText
{
  std::string formula;
  std::string values;
};
ParamsText use_params_text(const UseShape& shape);

// "nn.Conv2d", "torch.add", "F.scaled_dot_product_attention".
std::string use_module(UseOp op);

// "B x 64 x 56 x 56", "B x 128 (int64 token ids)", "1 x 128 (int64 position ids, once per forward)".
std::string use_input_shape(const UseShape& shape);

std::vector<dataset::LayerUse> layer_uses(const std::vector<ModelUse>& uses);

} // namespace layerbench::bench::models
