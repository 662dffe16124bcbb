// SPDX-License-Identifier: MIT
#include "catalog/catalog.hpp"

#include "catalog/shapes.hpp"
#include "catalog/models/entries.hpp"
#include "catalog/models/layer_sum.hpp"

#include "util/error.hpp"
#include "util/suggest.hpp"

#include <algorithm>

namespace layerbench::bench {

namespace {

LayerSpec conv2d()
{
  constexpr shapes::Conv2d s{};
  constexpr int64_t c_in = s.c_in, c_out = s.c_out, k = s.k, h = s.h, w = s.w;
  constexpr int64_t h_out = h - k + 1, w_out = w - k + 1;
  LayerSpec spec{"Conv2d", "nn.Conv2d", "Conv2d(64,128,3) 32x32 input", "B x 64 x 32 x 32",
          dataset::LayerMode::eval,
          "C_in*C_out*K*K + C_out",
          "2*C_in*C_out*K*K*H_out*W_out + C_out*H_out*W_out (bias); H_out = W_out = 30",
          "64*128*3*3 + 128",
          "2*64*128*3*3*30*30 + 128*30*30",
          [=] { return c_in * c_out * k * k + c_out; },
          [=] { return 2.0 * c_in * c_out * k * k * h_out * w_out; },
          [=] { return 1.0 * c_out * h_out * w_out; }};
  spec.bytes = {"4*(C_in*C_out*K*K + C_out)", "4*(C_in*H*W + C_out*H_out*W_out)", "4*(64*128*3*3 + 128)", "4*(64*32*32 + 128*30*30)", 4.0 * (c_in * c_out * k * k + c_out), 4.0 * (c_in * h * w + c_out * h_out * w_out)};
  spec.note = {"The convolution library (cuDNN on a GPU, oneDNN on the CPU) picks an algorithm for each shape, so the time "
              "need not follow the FLOP count."};
  spec.shape = s;
  return spec;
}

LayerSpec conv1d()
{
  constexpr shapes::Conv1d s{};
  constexpr int64_t c_in = s.c_in, c_out = s.c_out, k = s.k, length = s.length;
  constexpr int64_t l_out = length - k + 1;
  LayerSpec spec{"Conv1d", "nn.Conv1d", "Conv1d(256,512,5) len=100", "B x 256 x 100",
          dataset::LayerMode::eval,
          "C_in*C_out*K + C_out",
          "2*C_in*C_out*K*L_out + C_out*L_out (bias); L_out = 96",
          "256*512*5 + 512",
          "2*256*512*5*96 + 512*96",
          [=] { return c_in * c_out * k + c_out; },
          [=] { return 2.0 * c_in * c_out * k * l_out; },
          [=] { return 1.0 * c_out * l_out; }};
  spec.bytes = {"4*(C_in*C_out*K + C_out)", "4*(C_in*L + C_out*L_out)", "4*(256*512*5 + 512)", "4*(256*100 + 512*96)", 4.0 * (c_in * c_out * k + c_out), 4.0 * (c_in * length + c_out * l_out)};
  spec.note = {"Runs the same aten::convolution operator as Conv2d, with one spatial dimension.", "Conv2d"};
  spec.shape = s;
  return spec;
}

LayerSpec conv_transpose2d()
{
  constexpr shapes::ConvTranspose2d s{};
  constexpr int64_t c_in = s.c_in, c_out = s.c_out, k = s.k, stride = s.stride, h = s.h, w = s.w;
  constexpr int64_t h_out = (h - 1) * stride + k, w_out = (w - 1) * stride + k;
  LayerSpec spec{"ConvTranspose2d", "nn.ConvTranspose2d", "ConvTranspose2d(128,64,4,2) 16x16", "B x 128 x 16 x 16",
          dataset::LayerMode::eval,
          "C_in*C_out*K*K + C_out",
          "2*C_in*C_out*K*K*H_in*W_in + C_out*H_out*W_out (bias); H_out = W_out = 34",
          "128*64*4*4 + 64",
          "2*128*64*4*4*16*16 + 64*34*34",
          [=] { return c_in * c_out * k * k + c_out; },
          [=] { return 2.0 * c_in * c_out * k * k * h * w; },
          [=] { return 1.0 * c_out * h_out * w_out; }};
  spec.bytes = {"4*(C_in*C_out*K*K + C_out)", "4*(C_in*H_in*W_in + C_out*H_out*W_out)", "4*(128*64*4*4 + 64)", "4*(128*16*16 + 64*34*34)", 4.0 * (c_in * c_out * k * k + c_out), 4.0 * (c_in * h * w + c_out * h_out * w_out)};
  spec.note = {"The gradient of a convolution, run forward: its FLOPs count every input position (H_in × W_in), "
              "not the output's.", "Conv2d"};
  spec.shape = s;
  return spec;
}

LayerSpec linear()
{
  constexpr shapes::Linear s{};
  constexpr int64_t in = s.in, out = s.out;
  LayerSpec spec{"Linear", "nn.Linear", "Linear(4096,4096)", "B x 4096",
          dataset::LayerMode::eval,
          "in*out + out",
          "2*in*out + out (bias)",
          "4096*4096 + 4096",
          "2*4096*4096 + 4096",
          [=] { return in * out + out; },
          [=] { return 2.0 * in * out; },
          [=] { return 1.0 * out; }};
  spec.dispatch = "the ATen operator of Python's nn.Linear, aten::linear (LibTorch's C++ module calls aten::addmm "
                  "directly for 2-D input)";
  spec.bytes = {"4*(in*out + out)", "4*(in + out)", "4*(4096*4096 + 4096)", "4*(4096 + 4096)", 4.0 * (in * out + out), 4.0 * (in + out)};
  spec.note = {"One matrix product and a bias add. The whole weight matrix is read whatever the batch size, so the "
              "fewer the samples, the fewer FLOPs per byte read.", "", "", NoteClaim::memory_bound_at_smallest_batch};
  spec.shape = s;
  return spec;
}

LayerSpec lstm()
{
  constexpr shapes::Lstm s{};
  LayerSpec spec{"LSTM", "nn.LSTM", "LSTM(512,256,2,bidir=True) len=100", "100 x B x 512",
          dataset::LayerMode::eval,
          "sum over layers l of D*4*(in_l*H + H*H + 2*H); in_1 = 512, in_2 = D*H; two bias vectors per gate",
          "sum over layers of 2*D*4*H*(in_l + H)*T + 16*H*T*L*D (gate biases and sums, cell update)",
          "2*4*(512*256 + 256*256 + 2*256) + 2*4*(512*256 + 256*256 + 2*256)",
          "2*2*4*256*(512 + 256)*100 + 2*2*4*256*(512 + 256)*100 + 16*256*100*2*2",
          [=] { return s.params(); },
          [=] { return s.matmul_flops(); },
          // Per hidden unit and step: two bias adds and one sum for 4 gates (12), c = f*c + i*g (3), h = o*tanh(c) (1).
          [=] { return s.elementwise_flops(16); }};
  spec.bytes = {"4*params", "4*(T*in + T*D*H + 2*L*D*H) (input; output; h_n and c_n)", "4*3153920", "4*(100*512 + 100*2*256 + 2*2*2*256)", 4.0 * s.params(), 4.0 * (s.steps * s.input_size + s.steps * s.directions * s.hidden + 2.0 * s.layers * s.directions * s.hidden)};
  spec.note = {"Each time step needs the previous step's hidden state, so the steps of a sequence run one after another; "
              "the matrix products of one step are small."};
  spec.shape = s;
  return spec;
}

LayerSpec gru()
{
  constexpr shapes::Gru s{};
  LayerSpec spec{"GRU", "nn.GRU", "GRU(512,256,2) len=100", "100 x B x 512",
          dataset::LayerMode::eval,
          "sum over layers l of 3*(in_l*H + H*H + 2*H); in_1 = 512, in_2 = H; two bias vectors per gate",
          "sum over layers of 2*3*H*(in_l + H)*T + 14*H*T*L (gate biases and sums, state update)",
          "3*(512*256 + 256*256 + 2*256) + 3*(256*256 + 256*256 + 2*256)",
          "2*3*256*(512 + 256)*100 + 2*3*256*(256 + 256)*100 + 14*256*100*2",
          [=] { return s.params(); },
          [=] { return s.matmul_flops(); },
          // Per hidden unit and step: two bias adds for 3 gates (6), r and z sums (2), n = tanh(x_n + r*h_n) (2),
          // h' = (1 - z)*n + z*h (4).
          [=] { return s.elementwise_flops(14); }};
  spec.bytes = {"4*params", "4*(T*in + T*H + L*H) (input; output; h_n)", "4*986112", "4*(100*512 + 100*256 + 2*256)", 4.0 * s.params(), 4.0 * (s.steps * s.input_size + s.steps * s.hidden + 1.0 * s.layers * s.hidden)};
  spec.note = {"Three gates where the LSTM has four. In this catalog the LSTM is bidirectional and the GRU is not.", "LSTM"};
  spec.shape = s;
  return spec;
}

LayerSpec multihead_attention()
{
  constexpr shapes::MultiheadAttention s{};
  LayerSpec spec{"MultiheadAttention", "nn.MultiheadAttention", "embed=512,8heads seq=512", "512 x B x 512 (query = key = value)",
          dataset::LayerMode::eval,
          "4*d^2 + 4*d",
          "8*d^2*S + 4*S^2*d + 5*d*S (biases, scaling) + 4*h*S^2 (softmax)",
          "4*512^2 + 4*512",
          "8*512^2*512 + 4*512^2*512 + 5*512*512 + 4*8*512^2",
          [=] { return s.params(); },
          [=] { return s.matmul_flops(); },
          [=] { return s.elementwise_flops(); }};
  spec.dispatch = "the ATen operators of Python's nn.MultiheadAttention called as mha(x, x, x) (need_weights=True: "
                  "bmm, softmax, bmm, head-averaged weights), called directly on the C++ module's parameters; "
                  "LibTorch's C++ forward would also run torch::equal(query, key) and torch::equal(key, value)";
  spec.bytes = {"4*(4*d^2 + 4*d)", "4*(S*d + S*d + S^2) (input, read once for query, key and value; output; head-averaged weights)", "4*(4*512^2 + 4*512)", "4*(512*512 + 512*512 + 512^2)", 4.0 * s.params(), 4.0 * (2.0 * s.seq * s.d + 1.0 * s.seq * s.seq)};
  spec.note = {"Whether a fused attention kernel (flash or memory-efficient) runs depends on the device, the "
              "data type and whether the attention weights are returned; the operators recorded for each "
              "cell show which ran."};
  spec.shape = s;
  return spec;
}

LayerSpec transformer_encoder()
{
  constexpr shapes::TransformerEncoder a{};
  constexpr int64_t ff = a.feedforward;
  LayerSpec spec{"TransformerEncoder", "nn.TransformerEncoder", "d=512,8heads,ff=2048 seq=512", "512 x B x 512",
          dataset::LayerMode::eval,
          "attention (4*d^2 + 4*d) + feed-forward (2*d*d_ff + d_ff + d) + two LayerNorms (4*d)",
          "attention (as MultiheadAttention) + 4*d*d_ff*S + (d_ff + d)*S (biases) + d_ff*S (ReLU) "
          "+ 2*d*S (residuals) + 2*7*d*S (LayerNorms)",
          "(4*512^2 + 4*512) + (2*512*2048 + 2048 + 512) + 4*512",
          "8*512^2*512 + 4*512^2*512 + 5*512*512 + 4*8*512^2 + 4*512*2048*512 + (2048 + 512)*512 + 2048*512 + 2*512*512 + 2*7*512*512",
          [=] { return a.params() + 2 * a.d * ff + ff + a.d + 4 * a.d; },
          [=] { return a.matmul_flops() + 2.0 * 2 * a.d * ff * a.seq; },
          [=] {
            return a.elementwise_flops() + 1.0 * (ff + a.d) * a.seq + 1.0 * ff * a.seq + 2.0 * a.d * a.seq
                   + 2.0 * 7 * a.d * a.seq;
          }};
  spec.dispatch = "the ATen operators of Python's nn.TransformerEncoderLayer (self-attention without weights through "
                  "scaled_dot_product_attention, ReLU feed-forward, post-norm), called directly on the C++ module's "
                  "parameters; LibTorch's C++ layer would ask for the attention weights and run bmm + softmax";
  spec.bytes = {"4*params", "4*(S*d + S*d) (input; output)", "4*3152384", "4*(512*512 + 512*512)", 4.0 * (a.params() + 2 * a.d * ff + ff + a.d + 4 * a.d), 4.0 * 2 * a.seq * a.d};
  spec.note = {"Self-attention and a feed-forward block, each with a residual add and a LayerNorm; the "
              "attention scores grow with the square of the sequence length.", "MultiheadAttention"};
  spec.shape = a;
  return spec;
}

LayerSpec batch_norm2d()
{
  constexpr shapes::BatchNorm2d s{};
  constexpr int64_t features = s.features, h = s.h, w = s.w;
  LayerSpec spec{"BatchNorm2d", "nn.BatchNorm2d", "BatchNorm2d(256) 32x32 input", "B x 256 x 32 x 32",
          dataset::LayerMode::eval,
          "2*C (weight, bias; running mean and variance are buffers, not parameters)",
          "2*C*H*W (eval: statistics folded into one scale and shift per channel)",
          "2*256",
          "2*256*32*32",
          [=] { return 2 * features; },
          [=] { return 0.0; },
          [=] { return 2.0 * features * h * w; }};
  spec.bytes = {"4*4*C (weight, bias, running mean and variance)", "4*(C*H*W + C*H*W)", "4*4*256", "4*(256*32*32 + 256*32*32)", 4.0 * 4 * features, 4.0 * 2 * features * h * w};
  spec.note = {"In eval mode it applies the stored running mean and variance: two buffers of one value per "
              "feature each, which are not parameters."};
  spec.shape = s;
  return spec;
}

LayerSpec layer_norm()
{
  constexpr shapes::LayerNorm s{};
  constexpr int64_t width = s.width, seq = s.seq;
  LayerSpec spec{"LayerNorm", "nn.LayerNorm", "LayerNorm(512) seq=512", "B x 512 x 512",
          dataset::LayerMode::eval,
          "2*normalized_shape",
          "7*normalized_shape*S (mean, variance, normalise, scale, shift)",
          "2*512",
          "7*512*512",
          [=] { return 2 * width; },
          [=] { return 0.0; },
          [=] { return 7.0 * width * seq; }};
  spec.bytes = {"4*2*normalized_shape", "4*(S*normalized_shape + S*normalized_shape)", "4*2*512", "4*(512*512 + 512*512)", 4.0 * 2 * width, 4.0 * 2 * seq * width};
  spec.note = {"Computes a mean and a variance over each position's features at run time, where eval-mode "
              "BatchNorm2d reads stored ones.", "BatchNorm2d"};
  spec.shape = s;
  return spec;
}

LayerSpec embedding()
{
  constexpr shapes::Embedding s{};
  constexpr int64_t vocabulary = s.vocabulary, width = s.width, seq = s.seq;
  LayerSpec spec{"Embedding", "nn.Embedding", "Embedding(50000,768) seq=128", "B x 128 (int64 indices)",
          dataset::LayerMode::eval,
          "vocab*dim",
          "0 (a table lookup moves memory and does no arithmetic)",
          "50000*768",
          "0",
          [=] { return vocabulary * width; },
          [=] { return 0.0; },
          [=] { return 0.0; }};
  spec.bytes = {"0 (only the gathered rows are read: per sample)", "8*S + 4*S*dim + 4*S*dim (int64 indices; the S rows gathered; output)", "0", "8*128 + 4*128*768 + 4*128*768", 0.0, 8.0 * seq + 4.0 * 2 * seq * width};
  spec.note = {"A row lookup: no arithmetic, so 0 FLOPs by convention and no point on a FLOP/s roofline."};
  spec.shape = s;
  return spec;
}

template<typename Pool>
LayerSpec pool(const char* name,
               const char* module,
               const char* config,
               const char* flops_formula,
               const char* flops_values,
               int64_t per_output,
               LayerNote note)
{
  constexpr Pool s{};
  constexpr int64_t channels = s.channels, h = s.h, w = s.w, k = s.k;
  constexpr int64_t outputs = channels * (h / k) * (w / k);
  LayerSpec spec{name, module, config, "B x 128 x 32 x 32",
          dataset::LayerMode::eval,
          "0",
          flops_formula,
          "0",
          flops_values,
          [=] { return int64_t{0}; },
          [=] { return 0.0; },
          [per_output] { return 1.0 * per_output * outputs; }};
  spec.bytes = {"0", "4*(C*H*W + C*H_out*W_out)", "0", "4*(128*32*32 + 128*16*16)", 0.0, 4.0 * (channels * h * w + outputs)};
  spec.note = std::move(note);
  spec.shape = s;
  return spec;
}

LayerSpec dropout()
{
  constexpr shapes::Dropout s{};
  constexpr int64_t width = s.width;
  LayerSpec spec{"Dropout", "nn.Dropout", "Dropout(0.5) 512-dim", "B x 512",
          dataset::LayerMode::train,
          "0",
          "1*dim (scaling by the mask; generating the mask is not counted)",
          "0",
          "512",
          [=] { return int64_t{0}; },
          [=] { return 0.0; },
          [=] { return 1.0 * width; }};
  spec.bytes = {"0", "4*(dim + dim) (input; output; the mask is not counted)", "0", "4*(512 + 512)", 0.0, 4.0 * 2 * width};
  spec.note = {"The identity in eval mode. In train mode it draws a random mask and scales the values it keeps; the "
              "random numbers are not counted as FLOPs."};
  spec.shape = s;
  return spec;
}

// channels_last is a layout of 4-D tensors: a layer whose parameters give an image batch, N x C x H x W.
LayerSpec with_rank(LayerSpec spec)
{
  spec.rank = spec.input_dims(1).size() == 4 ? InputRank::four_d : InputRank::other;
  return spec;
}

} // namespace

const std::vector<LayerSpec>& catalog()
{
  // The order of the reference page's table.
  static const std::vector<LayerSpec> layers = [] {
    std::vector<LayerSpec> entries = {
      conv2d(),
      conv1d(),
      conv_transpose2d(),
      linear(),
      lstm(),
      gru(),
      transformer_encoder(),
      multihead_attention(),
      batch_norm2d(),
      layer_norm(),
      embedding(),
      pool<shapes::MaxPool2d>("MaxPool2d", "nn.MaxPool2d", "MaxPool2d(2,stride=2) 128ch 32x32", "(K*K - 1)*C*H_out*W_out (compares)",
                  "(2*2 - 1)*128*16*16", 3,
                  {"The positions of the maxima are needed only by a backward pass; whether the forward stores "
                   "them shows in its operators.", "", "aten::max_pool2d_with_indices"}),
      pool<shapes::AvgPool2d>("AvgPool2d", "nn.AvgPool2d", "AvgPool2d(2,stride=2) 128ch 32x32",
                  "K*K*C*H_out*W_out (K*K - 1 adds and a multiply per output)", "2*2*128*16*16", 4,
                  {"Averages each window and keeps no positions.", "MaxPool2d"}),
      dropout(),
    };
    std::transform(entries.begin(), entries.end(), entries.begin(), with_rank);
    return entries;
  }();
  return layers;
}

const std::vector<LayerSpec>& model_catalog()
{
  static const std::vector<LayerSpec> entries = models::model_entries();
  return entries;
}

const LayerSpec* find_entry(const std::string& name)
{
  // A model's layers are found by name ("ResNet50/3") but not offered as guesses for another name.
  if (name.find('/') != std::string::npos) {
    for (const auto& spec : models::layer_sum_catalog()) {
      if (spec.name == name) {
        return &spec;
      }
    }
  }
  for (const auto* entries : {&catalog(), &model_catalog()}) {
    for (const auto& spec : *entries) {
      if (spec.name == name) {
        return &spec;
      }
    }
  }
  return nullptr;
}

const LayerSpec& find_layer(const std::string& name)
{
  if (const auto* spec = find_entry(name)) {
    return *spec;
  }
  std::vector<std::string> names;
  for (const auto* entries : {&catalog(), &model_catalog()}) {
    for (const auto& spec : *entries) {
      names.push_back(spec.name);
    }
  }
  std::string message = "unknown layer '" + name + "'";
  if (const auto hint = util::closest(name, names, 4)) {
    message += ", did you mean '" + *hint + "'?";
  }
  throw UsageError(message + " (see 'layerbench layers')");
}

LayerTraits traits(const LayerSpec& spec)
{
  return {spec.name, spec.rank, spec.kind == dataset::LayerKind::model,
          spec.kind == dataset::LayerKind::layer ? TrainTiming::step_and_parts : TrainTiming::step};
}

dataset::Layer describe(const LayerSpec& spec)
{
  // The formula, then the same expression with this configuration's numbers put in.
  static const std::string k_values = "; with values: ";
  dataset::Layer layer;
  layer.name = spec.name;
  layer.module = spec.module;
  layer.config = spec.config;
  layer.input_shape = spec.input_shape;
  layer.mode = spec.mode;
  layer.params = spec.params();
  // A model's count is its value: it is counted, not computed from a formula.
  layer.params_formula = spec.params_formula + k_values
                         + (spec.params_values.empty() ? std::to_string(spec.params()) : spec.params_values);
  layer.flops_per_sample = spec.flops();
  layer.flops_formula = spec.flops_formula + k_values + spec.flops_values;
  layer.matmul_flops_per_sample = spec.matmul_flops();
  layer.kind = spec.kind;
  layer.contains = spec.contains;
  layer.train_step = spec.train_step;
  layer.part_of = spec.part_of;
  // A whole model's minimum traffic is not modelled: its intermediates are most of it.
  if (spec.kind == dataset::LayerKind::layer) {
    layer.bytes_fixed = spec.bytes.fixed;
    layer.bytes_per_sample = spec.bytes.per_sample;
    // "X + B*(Y)": the values part reads as the bytes of a batch of B, which a test evaluates.
    layer.bytes_formula = "per forward: " + spec.bytes.fixed_formula + "; per sample: " + spec.bytes.per_sample_formula
                          + k_values + spec.bytes.fixed_values + " + B*(" + spec.bytes.per_sample_values + ")";
  }
  layer.dispatch = spec.dispatch.empty()
                     ? "LibTorch's C++ module, which dispatches the same ATen operators as Python's " + spec.module
                     : spec.dispatch;
  return layer;
}

} // namespace layerbench::bench
