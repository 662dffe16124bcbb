// SPDX-License-Identifier: MIT
#pragma once

// The benchmark's layers and whole models: one entry each, torch-free. An entry holds what a reader
// and the site need (its configuration text, its parameter, FLOP and byte formulas, its input rank,
// LayerBench's note on it); how it is built in LibTorch lives apart, in bench/detail/builders.cpp, from
// the same parameters (the entry's `shape`, catalog/shapes.hpp), chosen by their type. Adding a layer is
// its parameters' type, its entry and its builder (docs/catalog.md); a layer type without a builder does
// not compile.
//
// FLOP convention (also written into every dataset's methodology):
//  - matrix work: 2 FLOPs per multiply-accumulate in matrix products, convolutions and attention
//    (QK^T and AV). This is what an op-level counter such as torch.utils.flop_counter sees.
//  - elementwise work: 1 FLOP per add, multiply, compare or divide per element: bias adds, residual
//    adds, gate arithmetic of recurrent cells, softmax (max, subtract, sum, divide: 4 per score), ReLU,
//    normalisation (LayerNorm 7 per element; BatchNorm in eval 2, its statistics folded into a scale
//    and shift), pooling (max: K*K-1 compares per output; average: K*K), Dropout's scaling multiply.
//  - bytes: see BytesFormula.
//  - not counted: transcendental functions (exp, tanh, sigmoid, rsqrt), random number generation,
//    memory movement (Embedding is a lookup: 0), and the head-averaged attention weights that
//    nn::MultiheadAttention also returns.

#include "catalog/shapes.hpp"
#include "catalog/traits.hpp"
#include "dataset/dataset.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::bench {

// Minimum traffic of one forward pass (docs/roofline.md): inputs and parameters read once, outputs
// written once, intermediates (im2col buffers, attention scores, gates, Dropout's mask) not counted,
// as a perfectly fused kernel with an unbounded cache would move. Formula text, the same with this
// configuration's numbers, and the figures; a test checks them against the tensors' nbytes.
struct BytesFormula
{
  std::string fixed_formula;      // read once per forward whatever the batch size: parameters, buffers
  std::string per_sample_formula; // input read plus output written, per sample
  std::string fixed_values;
  std::string per_sample_values;
  double fixed = 0;
  double per_sample = 0;
};

// What a note may claim about the data: the site says it only where the featured dataset bears it out.
enum class NoteClaim
{
  none,
  memory_bound_at_smallest_batch, // "at batch size 1 reading memory sets its time"
};

// LayerBench's own remark on a layer, in words only, and true of the layer's definition whatever a run
// measures: the site computes every figure and every claim about times beside it from the dataset.
struct LayerNote
{
  std::string text;
  std::string compare_to;    // the layer the remark sets this one against; empty for none
  std::string operator_name; // an operator whose presence in the recorded operators the site reports
  NoteClaim claim = NoteClaim::none;
};

struct LayerSpec
{
  std::string name;   // catalog key, "Conv2d"
  std::string module; // "nn.Conv2d"
  std::string config; // as the reference page writes it
  std::string input_shape;
  dataset::LayerMode mode = dataset::LayerMode::eval;
  std::string params_formula;
  std::string flops_formula;
  // The formulas with this configuration's numbers put in, in the same order ("64*128*3*3 + 128"),
  // written from the parameters; tests evaluate them and check they give params() and flops().
  std::string params_values;
  std::string flops_values;
  std::function<int64_t()> params;             // the formula, evaluated on this entry's configuration
  std::function<double()> matmul_flops;        // per sample
  std::function<double()> elementwise_flops;   // per sample
  // How the forward is called, where it is not simply the C++ module (see bench/detail/attention.hpp).
  std::string dispatch;
  BytesFormula bytes;
  // channels_last applies to the layers with a 4-D input (bench/axes_plan.hpp).
  InputRank rank = InputRank::other;
  // Whole models (catalog/models/entries.hpp): what they contain, and what a train corner's step runs.
  dataset::LayerKind kind = dataset::LayerKind::layer;
  std::vector<dataset::LayerUse> contains;
  std::string train_step;
  LayerNote note;
  // A model's layer (catalog/models/layer_sum.hpp): which use of which model it is.
  std::optional<dataset::ModelPart> part_of;
  // A layer's parameters (catalog/shapes.hpp), which its builder builds; none for a model or a model's layer.
  shapes::LayerShape shape;

  // The input's dimensions at `batch`, the input shape's text with numbers; empty where shape is none.
  shapes::Dims input_dims(int64_t batch) const { return shapes::input_dims(shape, batch); }

  double flops() const { return matmul_flops() + elementwise_flops(); }
};

// A layer's entry for any parameters of its type: its configuration and input-shape text, its formulas'
// numbers and its figures are all written from them, so a user's shapes are other values of these types.
LayerSpec layer_entry(const shapes::Conv2d& s);
LayerSpec layer_entry(const shapes::Conv1d& s);
LayerSpec layer_entry(const shapes::ConvTranspose2d& s);
LayerSpec layer_entry(const shapes::Linear& s);
LayerSpec layer_entry(const shapes::Lstm& s);
LayerSpec layer_entry(const shapes::Gru& s);
LayerSpec layer_entry(const shapes::TransformerEncoder& s);
LayerSpec layer_entry(const shapes::MultiheadAttention& s);
LayerSpec layer_entry(const shapes::BatchNorm2d& s);
LayerSpec layer_entry(const shapes::LayerNorm& s);
LayerSpec layer_entry(const shapes::Embedding& s);
LayerSpec layer_entry(const shapes::MaxPool2d& s);
LayerSpec layer_entry(const shapes::AvgPool2d& s);
LayerSpec layer_entry(const shapes::Dropout& s);
LayerSpec layer_entry(const shapes::RmsNorm& s);
LayerSpec layer_entry(const shapes::Gelu& s);
LayerSpec layer_entry(const shapes::Silu& s);
LayerSpec layer_entry(const shapes::ScaledDotProductAttention& s);
LayerSpec layer_entry(const shapes::GroupedQueryAttention& s);
LayerSpec layer_entry(const shapes::DepthwiseConv2d& s);
LayerSpec layer_entry(const shapes::Conv3d& s);
LayerSpec layer_entry(const shapes::SwiGlu& s);

// The fourteen layers of the reference table, in its order, at their defaults: the reference matrix.
const std::vector<LayerSpec>& catalog();

// The layers of today's models beyond the reference page (issue 37 item 4), at their defaults: RMSNorm,
// GELU, SiLU, scaled_dot_product_attention, grouped-query attention, depthwise Conv2d, Conv3d and a
// SwiGLU block. Found by name like the fourteen; `run --suite today` measures them, `layers --today`
// lists them.
const std::vector<LayerSpec>& todays_layers();

// The whole models measured beside them (catalog/models/entries.hpp): ResNet50, BertBase, BertLarge and
// the small variants the tests run, ResNetTiny and BertTiny.
const std::vector<LayerSpec>& model_catalog();

// A layer or a model by name. Throws UsageError naming the unknown name and the closest known one.
const LayerSpec& find_layer(const std::string& name);

// The same, or nullptr: for readers of datasets, which may name layers this catalog no longer has.
const LayerSpec* find_entry(const std::string& name);

LayerTraits traits(const LayerSpec& spec);

// The dataset's description of a layer (counted parameters left empty: that needs the module).
dataset::Layer describe(const LayerSpec& spec);

} // namespace layerbench::bench
