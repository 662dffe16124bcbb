// SPDX-License-Identifier: MIT
#include "catalog/catalog.hpp"

#include "catalog/shapes.hpp"
#include "catalog/models/entries.hpp"
#include "catalog/models/layer_sum.hpp"
#include "catalog/user_shapes.hpp"

#include "util/error.hpp"
#include "util/suggest.hpp"

#include <initializer_list>
#include <locale>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>

namespace layerbench::bench {

namespace {

constexpr auto k_eval = dataset::LayerMode::eval;

std::string text(int64_t value) { return std::to_string(value); }

// "64,128,3" or "64*128*3*3": the numbers joined as a configuration or a product writes them.
std::string join(std::initializer_list<int64_t> values, const char* separator)
{
  std::string out;
  for (const auto value : values) {
    out += (out.empty() ? "" : separator) + text(value);
  }
  return out;
}

std::string product(std::initializer_list<int64_t> factors) { return join(factors, "*"); }

// A fraction as Python prints it, "0.5", for Dropout's probability.
std::string decimal(double value)
{
  std::ostringstream out;
  out.imbue(std::locale::classic());
  out << value;
  return out.str();
}

// "B x 64 x 32 x 32": the input's dimensions, B in the batch's place.
template<typename Shape>
std::string input_text(const Shape& s)
{
  constexpr int64_t k_batch = -1; // no dimension is negative, so it marks the batch's place
  std::string out;
  for (const auto dim : s.input(k_batch)) {
    out += (out.empty() ? "" : " x ") + (dim == k_batch ? std::string("B") : text(dim));
  }
  return out;
}

// "H_out = W_out = 30", or each on its own where they differ.
std::string outputs_text(int64_t h_out, int64_t w_out)
{
  if (h_out == w_out) {
    return "H_out = W_out = " + text(h_out);
  }
  return "H_out = " + text(h_out) + ", W_out = " + text(w_out);
}

// channels_last is a layout of 4-D tensors: a layer whose parameters give an image batch, N x C x H x W.
template<typename Shape>
LayerSpec with_shape(LayerSpec spec, const Shape& s)
{
  spec.shape = s;
  spec.rank = spec.input_dims(1).size() == 4 ? InputRank::four_d : InputRank::other;
  return spec;
}

// What sets the LSTM and the GRU apart beyond their number of gates.
struct RecurrentKind
{
  const char* name;
  const char* module;
  int64_t states;          // final states returned beside the output: h_n and c_n, or h_n
  const char* state_names;
  int64_t per_hidden_step; // elementwise FLOPs per hidden unit and step
  const char* update;      // the elementwise work after the gates
};

LayerSpec recurrent(const shapes::Recurrent& s, const RecurrentKind& kind)
{
  const int64_t g = s.gates, h = s.hidden, t = s.steps, l = s.layers, d = s.directions;
  // D is written only where there are two directions, as the GRU's unidirectional formula reads.
  const std::string d_symbol = d == 1 ? "" : "D*";
  const std::string d_value = d == 1 ? "" : text(d) + "*";
  std::string params_values;
  std::string flops_values;
  for (int64_t layer = 0; layer < l; ++layer) {
    const int64_t in = s.layer_input(layer);
    const std::string sum = layer == 0 ? "" : " + ";
    params_values += sum + d_value + text(g) + "*(" + product({in, h}) + " + " + product({h, h}) + " + 2*" + text(h) + ")";
    flops_values += sum + "2*" + d_value + product({g, h}) + "*(" + text(in) + " + " + text(h) + ")*" + text(t);
  }
  flops_values += " + " + product({kind.per_hidden_step, h, t, l}) + (d == 1 ? "" : "*" + text(d));
  LayerSpec spec{kind.name, kind.module,
          std::string(kind.name) + "(" + join({s.input_size, h, l}, ",") + (d == 2 ? ",bidir=True" : "") + ") len=" + text(t),
          input_text(s), k_eval,
          "sum over layers l of " + d_symbol + text(g) + "*(in_l*H + H*H + 2*H); in_1 = " + text(s.input_size) + ", in_2 = "
            + d_symbol + "H; two bias vectors per gate",
          "sum over layers of 2*" + d_symbol + text(g) + "*H*(in_l + H)*T + " + text(kind.per_hidden_step) + "*H*T*L"
            + (d == 1 ? "" : "*D") + " (gate biases and sums, " + kind.update + ")",
          params_values, flops_values,
          [s] { return s.params(); },
          [s] { return s.matmul_flops(); },
          [s, per_hidden_step = kind.per_hidden_step] { return s.elementwise_flops(per_hidden_step); }};
  const std::string states_symbol = kind.states == 1 ? "" : text(kind.states) + "*";
  spec.bytes = {"4*params",
                "4*(T*in + T*" + d_symbol + "H + " + states_symbol + "L*" + d_symbol + "H) (input; output; " + kind.state_names + ")",
                "4*" + text(s.params()),
                "4*(" + product({t, s.input_size}) + " + " + text(t) + "*" + d_value + text(h) + " + " + states_symbol + text(l)
                  + "*" + d_value + text(h) + ")",
                4.0 * s.params(), 4.0 * (t * s.input_size + t * d * h + kind.states * l * d * h)};
  return spec;
}

// Self-attention's parameters and FLOPs with their numbers, as MultiheadAttention and TransformerEncoder write them.
std::string attention_params_values(const shapes::Attention& a)
{
  return "4*" + text(a.d) + "^2 + 4*" + text(a.d);
}

std::string attention_flops_values(const shapes::Attention& a)
{
  const auto d = text(a.d), s = text(a.seq);
  return "8*" + d + "^2*" + s + " + 4*" + s + "^2*" + d + " + 5*" + d + "*" + s + " + 4*" + text(a.heads) + "*" + s + "^2";
}

template<typename Pool>
LayerSpec pool(const Pool& s, const char* name, const char* module, const char* flops_formula, std::string flops_values,
               int64_t per_output, LayerNote note)
{
  const int64_t h_out = s.h / s.k, w_out = s.w / s.k;
  const int64_t outputs = s.channels * h_out * w_out;
  LayerSpec spec{name, module,
          std::string(name) + "(" + text(s.k) + ",stride=" + text(s.k) + ") " + text(s.channels) + "ch " + join({s.h, s.w}, "x"),
          input_text(s), k_eval,
          "0", flops_formula,
          "0", std::move(flops_values) + "*" + product({s.channels, h_out, w_out}),
          [] { return int64_t{0}; },
          [] { return 0.0; },
          [=] { return 1.0 * per_output * outputs; }};
  spec.bytes = {"0", "4*(C*H*W + C*H_out*W_out)", "0", "4*(" + product({s.channels, s.h, s.w}) + " + " + product({s.channels, h_out, w_out}) + ")",
                0.0, 4.0 * (s.channels * s.h * s.w + outputs)};
  spec.note = std::move(note);
  return with_shape(std::move(spec), s);
}

} // namespace

LayerSpec layer_entry(const shapes::Conv2d& s)
{
  const int64_t h_out = s.h - s.k + 1, w_out = s.w - s.k + 1;
  LayerSpec spec{"Conv2d", "nn.Conv2d", "Conv2d(" + join({s.c_in, s.c_out, s.k}, ",") + ") " + join({s.h, s.w}, "x") + " input",
          input_text(s), k_eval,
          "C_in*C_out*K*K + C_out",
          "2*C_in*C_out*K*K*H_out*W_out + C_out*H_out*W_out (bias); " + outputs_text(h_out, w_out),
          product({s.c_in, s.c_out, s.k, s.k}) + " + " + text(s.c_out),
          "2*" + product({s.c_in, s.c_out, s.k, s.k, h_out, w_out}) + " + " + product({s.c_out, h_out, w_out}),
          [s] { return s.c_in * s.c_out * s.k * s.k + s.c_out; },
          [=] { return 2.0 * s.c_in * s.c_out * s.k * s.k * h_out * w_out; },
          [=] { return 1.0 * s.c_out * h_out * w_out; }};
  spec.bytes = {"4*(C_in*C_out*K*K + C_out)", "4*(C_in*H*W + C_out*H_out*W_out)", "4*(" + spec.params_values + ")",
                "4*(" + product({s.c_in, s.h, s.w}) + " + " + product({s.c_out, h_out, w_out}) + ")",
                4.0 * spec.params(), 4.0 * (s.c_in * s.h * s.w + s.c_out * h_out * w_out)};
  spec.note = {"The convolution library (cuDNN on a GPU, oneDNN on the CPU) picks an algorithm for each shape, so the time "
              "need not follow the FLOP count."};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::Conv1d& s)
{
  const int64_t l_out = s.length - s.k + 1;
  LayerSpec spec{"Conv1d", "nn.Conv1d", "Conv1d(" + join({s.c_in, s.c_out, s.k}, ",") + ") len=" + text(s.length),
          input_text(s), k_eval,
          "C_in*C_out*K + C_out",
          "2*C_in*C_out*K*L_out + C_out*L_out (bias); L_out = " + text(l_out),
          product({s.c_in, s.c_out, s.k}) + " + " + text(s.c_out),
          "2*" + product({s.c_in, s.c_out, s.k, l_out}) + " + " + product({s.c_out, l_out}),
          [s] { return s.c_in * s.c_out * s.k + s.c_out; },
          [=] { return 2.0 * s.c_in * s.c_out * s.k * l_out; },
          [=] { return 1.0 * s.c_out * l_out; }};
  spec.bytes = {"4*(C_in*C_out*K + C_out)", "4*(C_in*L + C_out*L_out)", "4*(" + spec.params_values + ")",
                "4*(" + product({s.c_in, s.length}) + " + " + product({s.c_out, l_out}) + ")",
                4.0 * spec.params(), 4.0 * (s.c_in * s.length + s.c_out * l_out)};
  spec.note = {"Runs the same aten::convolution operator as Conv2d, with one spatial dimension.", "Conv2d"};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::ConvTranspose2d& s)
{
  const int64_t h_out = (s.h - 1) * s.stride + s.k, w_out = (s.w - 1) * s.stride + s.k;
  LayerSpec spec{"ConvTranspose2d", "nn.ConvTranspose2d",
          "ConvTranspose2d(" + join({s.c_in, s.c_out, s.k, s.stride}, ",") + ") " + join({s.h, s.w}, "x"),
          input_text(s), k_eval,
          "C_in*C_out*K*K + C_out",
          "2*C_in*C_out*K*K*H_in*W_in + C_out*H_out*W_out (bias); " + outputs_text(h_out, w_out),
          product({s.c_in, s.c_out, s.k, s.k}) + " + " + text(s.c_out),
          "2*" + product({s.c_in, s.c_out, s.k, s.k, s.h, s.w}) + " + " + product({s.c_out, h_out, w_out}),
          [s] { return s.c_in * s.c_out * s.k * s.k + s.c_out; },
          [s] { return 2.0 * s.c_in * s.c_out * s.k * s.k * s.h * s.w; },
          [=] { return 1.0 * s.c_out * h_out * w_out; }};
  spec.bytes = {"4*(C_in*C_out*K*K + C_out)", "4*(C_in*H_in*W_in + C_out*H_out*W_out)", "4*(" + spec.params_values + ")",
                "4*(" + product({s.c_in, s.h, s.w}) + " + " + product({s.c_out, h_out, w_out}) + ")",
                4.0 * spec.params(), 4.0 * (s.c_in * s.h * s.w + s.c_out * h_out * w_out)};
  spec.note = {"The gradient of a convolution, run forward: its FLOPs count every input position (H_in × W_in), "
              "not the output's.", "Conv2d"};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::Linear& s)
{
  // With S positions per sample the formulas gain a factor S; the reference's 2-D input writes none.
  const int64_t positions = s.positions();
  const std::string per = s.seq == 0 ? "" : "S*";
  const std::string per_value = s.seq == 0 ? "" : text(s.seq) + "*";
  LayerSpec spec{"Linear", "nn.Linear", "Linear(" + join({s.in, s.out}, ",") + ")" + (s.seq == 0 ? "" : " seq=" + text(s.seq)),
          input_text(s), k_eval,
          "in*out + out",
          s.seq == 0 ? "2*in*out + out (bias)" : "2*in*out*S + out*S (bias)",
          product({s.in, s.out}) + " + " + text(s.out),
          "2*" + product({s.in, s.out}) + (s.seq == 0 ? "" : "*" + text(s.seq)) + " + " + per_value + text(s.out),
          [s] { return s.in * s.out + s.out; },
          [s, positions] { return 2.0 * s.in * s.out * positions; },
          [s, positions] { return 1.0 * s.out * positions; }};
  spec.dispatch = "the ATen operator of Python's nn.Linear, aten::linear (LibTorch's C++ module calls aten::addmm "
                  "directly for 2-D input)";
  spec.bytes = {"4*(in*out + out)", "4*" + per + "(in + out)", "4*(" + spec.params_values + ")",
                "4*" + per_value + "(" + text(s.in) + " + " + text(s.out) + ")",
                4.0 * spec.params(), 4.0 * positions * (s.in + s.out)};
  spec.note = {"One matrix product and a bias add. The whole weight matrix is read whatever the batch size, so the "
              "fewer the samples, the fewer FLOPs per byte read.", "", "", NoteClaim::memory_bound_at_smallest_batch};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::Lstm& s)
{
  // Per hidden unit and step: two bias adds and one sum for 4 gates (12), c = f*c + i*g (3), h = o*tanh(c) (1).
  auto spec = recurrent(s, {"LSTM", "nn.LSTM", 2, "h_n and c_n", 16, "cell update"});
  spec.note = {"Each time step needs the previous step's hidden state, so the steps of a sequence run one after another; "
              "the matrix products of one step are small."};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::Gru& s)
{
  // Per hidden unit and step: two bias adds for 3 gates (6), r and z sums (2), n = tanh(x_n + r*h_n) (2),
  // h' = (1 - z)*n + z*h (4).
  auto spec = recurrent(s, {"GRU", "nn.GRU", 1, "h_n", 14, "state update"});
  spec.note = {s.directions == 1 ? "Three gates where the LSTM has four. In this catalog the LSTM is bidirectional and the GRU is not."
                                 : "Three gates where the LSTM has four.",
               "LSTM"};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::MultiheadAttention& s)
{
  LayerSpec spec{"MultiheadAttention", "nn.MultiheadAttention",
          "embed=" + text(s.d) + "," + text(s.heads) + "heads seq=" + text(s.seq),
          input_text(s) + " (query = key = value)", k_eval,
          "4*d^2 + 4*d",
          "8*d^2*S + 4*S^2*d + 5*d*S (biases, scaling) + 4*h*S^2 (softmax)",
          attention_params_values(s),
          attention_flops_values(s),
          [s] { return s.params(); },
          [s] { return s.matmul_flops(); },
          [s] { return s.elementwise_flops(); }};
  spec.dispatch = "the ATen operators of Python's nn.MultiheadAttention called as mha(x, x, x) (need_weights=True: "
                  "bmm, softmax, bmm, head-averaged weights), called directly on the C++ module's parameters; "
                  "LibTorch's C++ forward would also run torch::equal(query, key) and torch::equal(key, value)";
  spec.bytes = {"4*(4*d^2 + 4*d)", "4*(S*d + S*d + S^2) (input, read once for query, key and value; output; head-averaged weights)",
                "4*(" + spec.params_values + ")",
                "4*(" + product({s.seq, s.d}) + " + " + product({s.seq, s.d}) + " + " + text(s.seq) + "^2)",
                4.0 * s.params(), 4.0 * (2.0 * s.seq * s.d + 1.0 * s.seq * s.seq)};
  spec.note = {"Whether a fused attention kernel (flash or memory-efficient) runs depends on the device, the "
              "data type and whether the attention weights are returned; the operators recorded for each "
              "cell show which ran."};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::TransformerEncoder& a)
{
  const int64_t d = a.d, ff = a.feedforward, seq = a.seq;
  const int64_t params = a.params() + 2 * d * ff + ff + d + 4 * d;
  LayerSpec spec{"TransformerEncoder", "nn.TransformerEncoder",
          "d=" + text(d) + "," + text(a.heads) + "heads,ff=" + text(ff) + " seq=" + text(seq),
          input_text(a), k_eval,
          "attention (4*d^2 + 4*d) + feed-forward (2*d*d_ff + d_ff + d) + two LayerNorms (4*d)",
          "attention (as MultiheadAttention) + 4*d*d_ff*S + (d_ff + d)*S (biases) + d_ff*S (ReLU) "
          "+ 2*d*S (residuals) + 2*7*d*S (LayerNorms)",
          "(" + attention_params_values(a) + ") + (2*" + product({d, ff}) + " + " + text(ff) + " + " + text(d) + ") + 4*" + text(d),
          attention_flops_values(a) + " + 4*" + product({d, ff, seq}) + " + (" + text(ff) + " + " + text(d) + ")*" + text(seq)
            + " + " + product({ff, seq}) + " + 2*" + product({d, seq}) + " + 2*7*" + product({d, seq}),
          [params] { return params; },
          [a] { return a.matmul_flops() + 2.0 * 2 * a.d * a.feedforward * a.seq; },
          [a] {
            return a.elementwise_flops() + 1.0 * (a.feedforward + a.d) * a.seq + 1.0 * a.feedforward * a.seq
                   + 2.0 * a.d * a.seq + 2.0 * 7 * a.d * a.seq;
          }};
  spec.dispatch = "the ATen operators of Python's nn.TransformerEncoderLayer (self-attention without weights through "
                  "scaled_dot_product_attention, ReLU feed-forward, post-norm), called directly on the C++ module's "
                  "parameters; LibTorch's C++ layer would ask for the attention weights and run bmm + softmax";
  spec.bytes = {"4*params", "4*(S*d + S*d) (input; output)", "4*" + text(params),
                "4*(" + product({seq, d}) + " + " + product({seq, d}) + ")", 4.0 * params, 4.0 * 2 * seq * d};
  spec.note = {"Self-attention and a feed-forward block, each with a residual add and a LayerNorm; the "
              "attention scores grow with the square of the sequence length.", "MultiheadAttention"};
  return with_shape(std::move(spec), a);
}

LayerSpec layer_entry(const shapes::BatchNorm2d& s)
{
  const auto elements = product({s.features, s.h, s.w});
  LayerSpec spec{"BatchNorm2d", "nn.BatchNorm2d", "BatchNorm2d(" + text(s.features) + ") " + join({s.h, s.w}, "x") + " input",
          input_text(s), k_eval,
          "2*C (weight, bias; running mean and variance are buffers, not parameters)",
          "2*C*H*W (eval: statistics folded into one scale and shift per channel)",
          "2*" + text(s.features),
          "2*" + elements,
          [s] { return 2 * s.features; },
          [] { return 0.0; },
          [s] { return 2.0 * s.features * s.h * s.w; }};
  spec.bytes = {"4*4*C (weight, bias, running mean and variance)", "4*(C*H*W + C*H*W)", "4*4*" + text(s.features),
                "4*(" + elements + " + " + elements + ")", 4.0 * 4 * s.features, 4.0 * 2 * s.features * s.h * s.w};
  spec.note = {"In eval mode it applies the stored running mean and variance: two buffers of one value per "
              "feature each, which are not parameters."};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::LayerNorm& s)
{
  const auto elements = product({s.seq, s.width});
  LayerSpec spec{"LayerNorm", "nn.LayerNorm", "LayerNorm(" + text(s.width) + ") seq=" + text(s.seq), input_text(s), k_eval,
          "2*normalized_shape",
          "7*normalized_shape*S (mean, variance, normalise, scale, shift)",
          "2*" + text(s.width),
          "7*" + product({s.width, s.seq}),
          [s] { return 2 * s.width; },
          [] { return 0.0; },
          [s] { return 7.0 * s.width * s.seq; }};
  spec.bytes = {"4*2*normalized_shape", "4*(S*normalized_shape + S*normalized_shape)", "4*2*" + text(s.width),
                "4*(" + elements + " + " + elements + ")", 4.0 * 2 * s.width, 4.0 * 2 * s.seq * s.width};
  spec.note = {"Computes a mean and a variance over each position's features at run time, where eval-mode "
              "BatchNorm2d reads stored ones.", "BatchNorm2d"};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::Embedding& s)
{
  const auto rows = product({s.seq, s.width});
  LayerSpec spec{"Embedding", "nn.Embedding", "Embedding(" + join({s.vocabulary, s.width}, ",") + ") seq=" + text(s.seq),
          input_text(s) + " (int64 indices)", k_eval,
          "vocab*dim",
          "0 (a table lookup moves memory and does no arithmetic)",
          product({s.vocabulary, s.width}),
          "0",
          [s] { return s.vocabulary * s.width; },
          [] { return 0.0; },
          [] { return 0.0; }};
  spec.bytes = {"0 (only the gathered rows are read: per sample)", "8*S + 4*S*dim + 4*S*dim (int64 indices; the S rows gathered; output)",
                "0", "8*" + text(s.seq) + " + 4*" + rows + " + 4*" + rows, 0.0, 8.0 * s.seq + 4.0 * 2 * s.seq * s.width};
  spec.note = {"A row lookup: no arithmetic, so 0 FLOPs by convention and no point on a FLOP/s roofline."};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::MaxPool2d& s)
{
  return pool(s, "MaxPool2d", "nn.MaxPool2d", "(K*K - 1)*C*H_out*W_out (compares)", "(" + product({s.k, s.k}) + " - 1)",
              s.k * s.k - 1,
              {"The positions of the maxima are needed only by a backward pass; whether the forward stores "
               "them shows in its operators.", "", "aten::max_pool2d_with_indices"});
}

LayerSpec layer_entry(const shapes::AvgPool2d& s)
{
  return pool(s, "AvgPool2d", "nn.AvgPool2d", "K*K*C*H_out*W_out (K*K - 1 adds and a multiply per output)",
              product({s.k, s.k}), s.k * s.k, {"Averages each window and keeps no positions.", "MaxPool2d"});
}

LayerSpec layer_entry(const shapes::Dropout& s)
{
  LayerSpec spec{"Dropout", "nn.Dropout", "Dropout(" + decimal(s.p) + ") " + text(s.width) + "-dim", input_text(s),
          dataset::LayerMode::train,
          "0",
          "1*dim (scaling by the mask; generating the mask is not counted)",
          "0",
          text(s.width),
          [] { return int64_t{0}; },
          [] { return 0.0; },
          [s] { return 1.0 * s.width; }};
  spec.bytes = {"0", "4*(dim + dim) (input; output; the mask is not counted)", "0", "4*(" + text(s.width) + " + " + text(s.width) + ")",
                0.0, 4.0 * 2 * s.width};
  spec.note = {"The identity in eval mode. In train mode it draws a random mask and scales the values it keeps; the "
              "random numbers are not counted as FLOPs."};
  return with_shape(std::move(spec), s);
}

namespace {

// An elementwise layer on B x S x d: no parameters, `per_element` FLOPs per element, input read and output written.
template<typename Shape>
LayerSpec elementwise(const Shape& s, const char* name, const char* module, int64_t per_element, const char* counted)
{
  const auto elements = product({s.seq, s.width});
  LayerSpec spec{name, module, std::string(name) + "() " + text(s.width) + "-dim seq=" + text(s.seq), input_text(s), k_eval,
          "0",
          text(per_element) + "*d*S (" + counted + ")",
          "0",
          text(per_element) + "*" + elements,
          [] { return int64_t{0}; },
          [] { return 0.0; },
          [s, per_element] { return 1.0 * per_element * s.width * s.seq; }};
  spec.bytes = {"0", "4*(S*d + S*d) (input; output)", "0", "4*(" + elements + " + " + elements + ")", 0.0, 4.0 * 2 * s.seq * s.width};
  return spec;
}

// scaled_dot_product_attention's entry for any heads; grouped-query where the keys have fewer heads.
// The query is 4-D but no image: its two entries set their rank apart from the input's (channels_last does not apply).
LayerSpec sdpa(const shapes::Sdpa& s, const char* name)
{
  const int64_t h = s.heads, kv = s.kv_heads, d = s.head_dim, t = s.seq;
  const bool grouped = kv != h;
  LayerSpec spec{name, "F.scaled_dot_product_attention",
          std::string(name) + " " + text(h) + "heads" + (grouped ? "/" + text(kv) + "kv" : "") + " x" + text(d) + " seq=" + text(t),
          input_text(s) + " (query; keys and values B x " + text(kv) + " x " + text(t) + " x " + text(d) + ")", k_eval,
          "0 (a function of its inputs)",
          "4*H*S^2*D (QK^T and AV) + H*S*D (scaling) + 4*H*S^2 (softmax)",
          "0",
          "4*" + text(h) + "*" + text(t) + "^2*" + text(d) + " + " + product({h, t, d}) + " + 4*" + text(h) + "*" + text(t) + "^2",
          [] { return int64_t{0}; },
          [=] { return 4.0 * h * t * t * d; },
          [=] { return 1.0 * h * t * d + 4.0 * h * t * t; }};
  spec.dispatch = std::string("the ATen operator Python's F.scaled_dot_product_attention(q, k, v") + (grouped ? ", enable_gqa=True" : "")
                  + ") calls, aten::scaled_dot_product_attention, which picks its backend (flash, memory-efficient, math; on "
                    "the CPU a flash kernel): the cell's recorded operators name the one that ran";
  spec.bytes = {"0", "4*(H*S*D + 2*H_kv*S*D + H*S*D) (query; keys and values; output)", "0",
                "4*(" + product({h, t, d}) + " + 2*" + product({kv, t, d}) + " + " + product({h, t, d}) + ")",
                0.0, 4.0 * (2.0 * h * t * d + 2.0 * kv * t * d)};
  return spec;
}

} // namespace

LayerSpec layer_entry(const shapes::RmsNorm& s)
{
  const auto elements = product({s.seq, s.width});
  LayerSpec spec{"RMSNorm", "nn.RMSNorm", "RMSNorm(" + text(s.width) + ") seq=" + text(s.seq), input_text(s), k_eval,
          "normalized_shape (a scale per feature; no shift)",
          "4*normalized_shape*S (square, sum, normalise, scale)",
          text(s.width),
          "4*" + elements,
          [s] { return s.width; },
          [] { return 0.0; },
          [s] { return 4.0 * s.width * s.seq; }};
  spec.dispatch = "the ATen operator of Python's nn.RMSNorm, aten::rms_norm (LibTorch has no C++ RMSNorm module; "
                  "the weight is a parameter of a plain module)";
  spec.bytes = {"4*normalized_shape", "4*(S*normalized_shape + S*normalized_shape)", "4*" + text(s.width),
                "4*(" + elements + " + " + elements + ")", 4.0 * s.width, 4.0 * 2 * s.seq * s.width};
  spec.note = {"LayerNorm without the mean and the shift: one statistic per position where LayerNorm computes two.",
               "LayerNorm"};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::Gelu& s)
{
  auto spec = elementwise(s, "GELU", "nn.GELU", 4, "scale, add, halve, multiply; erf is not counted");
  spec.note = {"The exact GELU, x * Phi(x) through erf; an elementwise layer whose time is set by reading and writing "
               "memory, not by its arithmetic.", "SiLU"};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::Silu& s)
{
  auto spec = elementwise(s, "SiLU", "nn.SiLU", 3, "add, divide and multiply of x / (1 + exp(-x)); exp is not counted");
  spec.note = {"x * sigmoid(x), the activation inside SwiGLU; elementwise, like GELU.", "GELU"};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::ScaledDotProductAttention& s)
{
  auto spec = sdpa(s, "ScaledDotProductAttention");
  spec.note = {"MultiheadAttention without its four projections and without returning the weights, so a fused "
               "kernel can keep the S x S scores out of memory.", "MultiheadAttention"};
  spec = with_shape(std::move(spec), s);
  spec.rank = InputRank::other;
  return spec;
}

LayerSpec layer_entry(const shapes::GroupedQueryAttention& s)
{
  auto spec = sdpa(s, "GroupedQueryAttention");
  spec.note = {"Several query heads share one key and value head: the same FLOPs as attention with as many key "
               "heads, fewer bytes of keys and values.", "ScaledDotProductAttention"};
  spec = with_shape(std::move(spec), s);
  spec.rank = InputRank::other;
  return spec;
}

LayerSpec layer_entry(const shapes::DepthwiseConv2d& s)
{
  const int64_t h_out = s.h - s.k + 1, w_out = s.w - s.k + 1, c = s.channels;
  LayerSpec spec{"DepthwiseConv2d", "nn.Conv2d",
          "Conv2d(" + join({c, c, s.k}, ",") + ",groups=" + text(c) + ") " + join({s.h, s.w}, "x") + " input", input_text(s), k_eval,
          "C*K*K + C",
          "2*C*K*K*H_out*W_out + C*H_out*W_out (bias); " + outputs_text(h_out, w_out),
          product({c, s.k, s.k}) + " + " + text(c),
          "2*" + product({c, s.k, s.k, h_out, w_out}) + " + " + product({c, h_out, w_out}),
          [s] { return s.channels * s.k * s.k + s.channels; },
          [=] { return 2.0 * c * s.k * s.k * h_out * w_out; },
          [=] { return 1.0 * c * h_out * w_out; }};
  spec.bytes = {"4*(C*K*K + C)", "4*(C*H*W + C*H_out*W_out)", "4*(" + spec.params_values + ")",
                "4*(" + product({c, s.h, s.w}) + " + " + product({c, h_out, w_out}) + ")",
                4.0 * spec.params(), 4.0 * (c * s.h * s.w + c * h_out * w_out)};
  spec.note = {"One filter per channel: K*K multiply-adds per output where a full convolution has C_in*K*K, so few "
               "FLOPs per byte moved.", "Conv2d"};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::Conv3d& s)
{
  const int64_t d_out = s.depth - s.k + 1, h_out = s.h - s.k + 1, w_out = s.w - s.k + 1;
  const int64_t per_group = s.c_in / s.groups;
  const std::string groups = s.groups == 1 ? "" : ",groups=" + text(s.groups);
  LayerSpec spec{"Conv3d", "nn.Conv3d",
          "Conv3d(" + join({s.c_in, s.c_out, s.k}, ",") + groups + ") " + join({s.depth, s.h, s.w}, "x") + " input", input_text(s), k_eval,
          "(C_in/G)*C_out*K^3 + C_out",
          "2*(C_in/G)*C_out*K^3*D_out*H_out*W_out + C_out*D_out*H_out*W_out (bias); D_out = " + text(d_out) + ", "
            + outputs_text(h_out, w_out),
          product({per_group, s.c_out, s.k, s.k, s.k}) + " + " + text(s.c_out),
          "2*" + product({per_group, s.c_out, s.k, s.k, s.k, d_out, h_out, w_out}) + " + " + product({s.c_out, d_out, h_out, w_out}),
          [=] { return per_group * s.c_out * s.k * s.k * s.k + s.c_out; },
          [=] { return 2.0 * per_group * s.c_out * s.k * s.k * s.k * d_out * h_out * w_out; },
          [=] { return 1.0 * s.c_out * d_out * h_out * w_out; }};
  spec.bytes = {"4*((C_in/G)*C_out*K^3 + C_out)", "4*(C_in*D*H*W + C_out*D_out*H_out*W_out)", "4*(" + spec.params_values + ")",
                "4*(" + product({s.c_in, s.depth, s.h, s.w}) + " + " + product({s.c_out, d_out, h_out, w_out}) + ")",
                4.0 * spec.params(), 4.0 * (s.c_in * s.depth * s.h * s.w + s.c_out * d_out * h_out * w_out)};
  spec.note = {"A convolution over frames as well as rows and columns, as video models use; groups equal to the "
               "channels make it depthwise."};
  return with_shape(std::move(spec), s);
}

LayerSpec layer_entry(const shapes::SwiGlu& s)
{
  const int64_t d = s.width, f = s.hidden, t = s.seq;
  LayerSpec spec{"SwiGLU", "SwiGLU (w2(silu(w1 x) * w3 x))", "SwiGLU(" + join({d, f}, ",") + ") seq=" + text(t), input_text(s), k_eval,
          "3*d*hidden (w1, w3: d -> hidden; w2: hidden -> d; no biases)",
          "3*2*d*hidden*S (three projections) + 3*hidden*S (SiLU) + hidden*S (gate product)",
          "3*" + product({d, f}),
          "6*" + product({d, f, t}) + " + 3*" + product({f, t}) + " + " + product({f, t}),
          [s] { return 3 * s.width * s.hidden; },
          [=] { return 6.0 * d * f * t; },
          [=] { return 4.0 * f * t; }};
  spec.dispatch = "the ATen operators of its Python twin (bench/gpu/layers.py: three bias-free nn.Linear, F.silu and a "
                  "product), aten::linear, aten::silu and aten::mul, called on the C++ module's weights";
  spec.bytes = {"4*3*d*hidden", "4*(S*d + S*d) (input; output)", "4*3*" + product({d, f}),
                "4*(" + product({t, d}) + " + " + product({t, d}) + ")", 4.0 * 3 * d * f, 4.0 * 2 * t * d};
  spec.note = {"The feed-forward block of LLaMA-style models: a SiLU-gated product of two projections, then a third; "
               "its weights are read whatever the batch size, as Linear's are.", "Linear"};
  return with_shape(std::move(spec), s);
}

const std::vector<LayerSpec>& todays_layers()
{
  static const std::vector<LayerSpec> layers = {
    layer_entry(shapes::RmsNorm{}),
    layer_entry(shapes::Gelu{}),
    layer_entry(shapes::Silu{}),
    layer_entry(shapes::ScaledDotProductAttention{}),
    layer_entry(shapes::GroupedQueryAttention{}),
    layer_entry(shapes::DepthwiseConv2d{}),
    layer_entry(shapes::Conv3d{}),
    layer_entry(shapes::SwiGlu{}),
  };
  return layers;
}

const std::vector<LayerSpec>& catalog()
{
  // The order of the reference page's table, each layer at its defaults.
  static const std::vector<LayerSpec> layers = {
    layer_entry(shapes::Conv2d{}),
    layer_entry(shapes::Conv1d{}),
    layer_entry(shapes::ConvTranspose2d{}),
    layer_entry(shapes::Linear{}),
    layer_entry(shapes::Lstm{}),
    layer_entry(shapes::Gru{}),
    layer_entry(shapes::TransformerEncoder{}),
    layer_entry(shapes::MultiheadAttention{}),
    layer_entry(shapes::BatchNorm2d{}),
    layer_entry(shapes::LayerNorm{}),
    layer_entry(shapes::Embedding{}),
    layer_entry(shapes::MaxPool2d{}),
    layer_entry(shapes::AvgPool2d{}),
    layer_entry(shapes::Dropout{}),
  };
  return layers;
}

const std::vector<LayerSpec>& model_catalog()
{
  static const std::vector<LayerSpec> entries = models::model_entries();
  return entries;
}

namespace {

// Entries of names with parameters ("Linear(in=4096,seq=2048)"), made once each and kept, so that every
// reader of the name gets one entry at one address, as for the catalog's own. Throws as shaped_entry.
const LayerSpec* shaped(const std::string& name)
{
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<const LayerSpec>> made;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = made.find(name); it != made.end()) {
    return it->second.get();
  }
  auto spec = shaped_entry(name);
  if (!spec) {
    return nullptr;
  }
  return made.emplace(name, std::make_unique<const LayerSpec>(std::move(*spec))).first->second.get();
}

} // namespace

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
  for (const auto* entries : {&catalog(), &todays_layers(), &model_catalog()}) {
    for (const auto& spec : *entries) {
      if (spec.name == name) {
        return &spec;
      }
    }
  }
  try {
    return shaped(name);
  } catch (const UsageError&) {
    return nullptr; // a dataset may name parameters this catalog no longer has
  }
}


const LayerSpec& find_layer(const std::string& name)
{
  if (const auto* spec = find_entry(name)) {
    return *spec;
  }
  if (const auto* spec = shaped(name)) { // throws naming what is wrong with the parameters
    return *spec;
  }
  std::vector<std::string> names;
  for (const auto* entries : {&catalog(), &todays_layers(), &model_catalog()}) {
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
  layer.shape = parameters_record(spec.shape);
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
