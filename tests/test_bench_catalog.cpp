#include "catalog/catalog.hpp"
#include "bench/detail/builder.hpp"

#include "util/error.hpp"

#include <doctest/doctest.h>
#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace layerbench::bench;

namespace {

// "512 x B x 512 (query = key = value)": the dimensions before any remark, B the batch.
std::vector<int64_t> dims_of(const std::string& input_shape, int64_t batch)
{
  const auto text = input_shape.substr(0, input_shape.find(" ("));
  std::vector<int64_t> dims;
  for (size_t begin = 0; begin <= text.size();) {
    const auto end = std::min(text.find(" x ", begin), text.size());
    const auto dim = text.substr(begin, end - begin);
    dims.push_back(dim == "B" ? batch : std::stoll(dim));
    begin = end + 3;
  }
  return dims;
}

} // namespace

TEST_CASE("bench::catalog")
{
  SUBCASE("the fourteen layers of the reference table, in its order")
  {
    std::vector<std::string> names;
    for (const auto& spec : catalog()) {
      names.push_back(spec.name);
    }
    CHECK(names == std::vector<std::string>{"Conv2d", "Conv1d", "ConvTranspose2d", "Linear", "LSTM", "GRU",
                                            "TransformerEncoder", "MultiheadAttention", "BatchNorm2d", "LayerNorm",
                                            "Embedding", "MaxPool2d", "AvgPool2d", "Dropout"});
  }
  SUBCASE("every parameter formula equals the count of the built module")
  {
    for (const auto& spec : catalog()) {
      CAPTURE(spec.name);
      const auto instance = layerbench::bench::detail::instantiate(spec, 1, torch::kCPU);
      CHECK(layerbench::bench::detail::count_parameters(*instance.module) == spec.params());
    }
  }
  SUBCASE("every entry, layer or model, has its LibTorch builder")
  {
    for (const auto* entries : {&catalog(), &model_catalog()}) {
      for (const auto& spec : *entries) {
        CAPTURE(spec.name);
        CHECK(layerbench::bench::detail::has_builder(spec));
      }
    }
    LayerSpec unknown;
    unknown.name = "Softmax";
    CHECK_FALSE(layerbench::bench::detail::has_builder(unknown));
    CHECK_THROWS_WITH_AS(layerbench::bench::detail::instantiate(unknown, 1, torch::kCPU), doctest::Contains("'Softmax' has no LibTorch builder"),
                         layerbench::Error);
  }
  SUBCASE("every layer carries LayerBench's note, and what it compares with is in the catalog")
  {
    for (const auto& spec : catalog()) {
      CAPTURE(spec.name);
      CHECK_FALSE(spec.note.text.empty());
      if (!spec.note.compare_to.empty()) {
        CHECK(find_entry(spec.note.compare_to) != nullptr);
      }
    }
    CHECK(find_entry("Softmax") == nullptr);
  }
  SUBCASE("parameter counts match PyTorch, not the reference page, for LSTM and GRU")
  {
    // Two bias vectors per gate: the page's 2,365,440 and 1,183,232 are not what PyTorch builds.
    CHECK(find_layer("LSTM").params() == 3153920);
    CHECK(find_layer("GRU").params() == 986112);
    CHECK(find_layer("TransformerEncoder").params() == 3152384);
  }
  SUBCASE("every layer runs a forward pass on its input at batch 2")
  {
    torch::InferenceMode guard;
    for (const auto& spec : catalog()) {
      CAPTURE(spec.name);
      auto instance = layerbench::bench::detail::instantiate(spec, 2, torch::kCPU);
      CHECK(instance.input.sizes().vec() == spec.input_dims(2));
      const auto output = instance.forward();
      CHECK(output.defined());
      CHECK(output.numel() > 0);
    }
  }
  SUBCASE("the input shape's text is the parameters' input dimensions, and channels_last applies to the 4-D ones")
  {
    std::vector<std::string> four_d;
    for (const auto& spec : catalog()) {
      CAPTURE(spec.name);
      CHECK(dims_of(spec.input_shape, 3) == spec.input_dims(3));
      if (spec.rank == InputRank::four_d) {
        four_d.push_back(spec.name);
      }
    }
    CHECK(four_d == std::vector<std::string>{"Conv2d", "ConvTranspose2d", "BatchNorm2d", "MaxPool2d", "AvgPool2d"});
    // A whole model's input comes from its architecture; a model's layer is built from the model's inventory.
    CHECK(find_layer("ResNet50").input_dims(1) == std::vector<int64_t>{1, 3, 224, 224});
    CHECK(find_layer("BertBase").input_dims(1) == std::vector<int64_t>{1, 128});
    CHECK(find_layer("BertTiny/0").input_dims(1).empty());
  }
  SUBCASE("unknown names are usage errors with a hint")
  {
    CHECK_THROWS_WITH_AS(find_layer("conv2D"), doctest::Contains("did you mean 'Conv2d'"), layerbench::UsageError);
    CHECK_THROWS_AS(find_layer("Softmax"), layerbench::UsageError);
  }
}

TEST_CASE("bench::LayerSpec::matmul_flops")
{
  // Hand-computed, 2 FLOPs per multiply-accumulate.
  const std::map<std::string, double> expected = {
    {"Conv2d", 2.0 * 64 * 128 * 3 * 3 * 30 * 30},         // 132,710,400
    {"Conv1d", 2.0 * 256 * 512 * 5 * 96},                 // 125,829,120
    {"ConvTranspose2d", 2.0 * 128 * 64 * 4 * 4 * 16 * 16}, // 67,108,864
    {"Linear", 2.0 * 4096 * 4096},                        // 33,554,432
    // Per step and direction 2*4*256*(in+256); layer 1 in=512, layer 2 in=512 (both directions of layer 1).
    {"LSTM", 2 * (2.0 * 2 * 4 * 256 * (512 + 256) * 100)}, // 629,145,600
    // Layer 1 in=512, layer 2 in=256.
    {"GRU", 2.0 * 3 * 256 * (512 + 256) * 100 + 2.0 * 3 * 256 * (256 + 256) * 100}, // 196,608,000
    // Q, K, V, out projections 4 * 2*512*512*512; QK^T and AV 2 * 2*512*512*512.
    {"MultiheadAttention", 1610612736.0},
    {"TransformerEncoder", 1610612736.0 + 2 * 2.0 * 512 * 2048 * 512},
    {"BatchNorm2d", 0}, {"LayerNorm", 0}, {"Embedding", 0}, {"MaxPool2d", 0}, {"AvgPool2d", 0}, {"Dropout", 0},
  };
  for (const auto& spec : catalog()) {
    CAPTURE(spec.name);
    CHECK(spec.matmul_flops() == expected.at(spec.name));
  }
}

TEST_CASE("bench::LayerSpec::elementwise_flops")
{
  const std::map<std::string, double> expected = {
    {"Conv2d", 128.0 * 30 * 30},            // bias
    {"Conv1d", 512.0 * 96},
    {"ConvTranspose2d", 64.0 * 34 * 34},
    {"Linear", 4096},
    {"LSTM", 16.0 * 256 * 100 * 2 * 2},     // 16 per hidden unit per step, 2 layers, 2 directions
    {"GRU", 14.0 * 256 * 100 * 2},
    // biases 4*d*S + q scaling d*S + softmax 4*h*S^2
    {"MultiheadAttention", 4.0 * 512 * 512 + 512.0 * 512 + 4.0 * 8 * 512 * 512},
    {"TransformerEncoder", 4.0 * 512 * 512 + 512.0 * 512 + 4.0 * 8 * 512 * 512 + (2048.0 + 512) * 512 + 2048.0 * 512
                             + 2.0 * 512 * 512 + 14.0 * 512 * 512},
    {"BatchNorm2d", 2.0 * 256 * 32 * 32},
    {"LayerNorm", 7.0 * 512 * 512},
    {"Embedding", 0},
    {"MaxPool2d", 3.0 * 128 * 16 * 16},
    {"AvgPool2d", 4.0 * 128 * 16 * 16},
    {"Dropout", 512},
  };
  for (const auto& spec : catalog()) {
    CAPTURE(spec.name);
    CHECK(spec.elementwise_flops() == expected.at(spec.name));
    CHECK(spec.flops() == spec.matmul_flops() + spec.elementwise_flops());
  }
}

TEST_CASE("bench::describe")
{
  const auto layer = describe(find_layer("Dropout"));
  CHECK(layer.mode == layerbench::dataset::LayerMode::train); // measured in training mode, as the page did
  CHECK(layer.config == "Dropout(0.5) 512-dim");
  // The formula, then the same with this configuration's numbers put in.
  CHECK(layer.flops_formula == "1*dim (scaling by the mask; generating the mask is not counted); with values: 512");
  CHECK(describe(find_layer("Conv2d")).params_formula == "C_in*C_out*K*K + C_out; with values: 64*128*3*3 + 128");
  CHECK(*layer.params == 0);
  CHECK(!layer.params_counted); // needs the module; filled by the run
}

namespace {

namespace nn = torch::nn;

// What one forward pass at batch 1 must read and write, built here from torch::nn on its own so the
// catalog's bytes formulas are checked against real tensors, not against themselves.
struct Traffic
{
  std::vector<torch::Tensor> read;    // inputs, parameters, buffers the forward uses
  std::vector<torch::Tensor> written; // every output the module returns
};

std::vector<torch::Tensor> with_parameters(const nn::Module& module, std::vector<torch::Tensor> inputs)
{
  for (const auto& parameter : module.parameters()) {
    inputs.push_back(parameter);
  }
  return inputs;
}

int64_t nbytes(const std::vector<torch::Tensor>& tensors)
{
  int64_t total = 0;
  for (const auto& tensor : tensors) {
    total += static_cast<int64_t>(tensor.nbytes());
  }
  return total;
}

Traffic traffic(const std::string& layer)
{
  if (layer == "Conv2d") {
    nn::Conv2d m(nn::Conv2dOptions(64, 128, 3));
    auto x = torch::randn({1, 64, 32, 32});
    return {with_parameters(*m, {x}), {m->forward(x)}};
  }
  if (layer == "Conv1d") {
    nn::Conv1d m(nn::Conv1dOptions(256, 512, 5));
    auto x = torch::randn({1, 256, 100});
    return {with_parameters(*m, {x}), {m->forward(x)}};
  }
  if (layer == "ConvTranspose2d") {
    nn::ConvTranspose2d m(nn::ConvTranspose2dOptions(128, 64, 4).stride(2));
    auto x = torch::randn({1, 128, 16, 16});
    return {with_parameters(*m, {x}), {m->forward(x)}};
  }
  if (layer == "Linear") {
    nn::Linear m(4096, 4096);
    auto x = torch::randn({1, 4096});
    return {with_parameters(*m, {x}), {m->forward(x)}};
  }
  if (layer == "LSTM") {
    nn::LSTM m(nn::LSTMOptions(512, 256).num_layers(2).bidirectional(true));
    auto x = torch::randn({100, 1, 512});
    auto [output, state] = m->forward(x);
    return {with_parameters(*m, {x}), {output, std::get<0>(state), std::get<1>(state)}};
  }
  if (layer == "GRU") {
    nn::GRU m(nn::GRUOptions(512, 256).num_layers(2));
    auto x = torch::randn({100, 1, 512});
    auto [output, hidden] = m->forward(x);
    return {with_parameters(*m, {x}), {output, hidden}};
  }
  if (layer == "TransformerEncoder") {
    nn::TransformerEncoder m(nn::TransformerEncoderOptions(nn::TransformerEncoderLayerOptions(512, 8).dim_feedforward(2048), 1));
    m->eval();
    auto x = torch::randn({512, 1, 512});
    return {with_parameters(*m, {x}), {m->forward(x)}};
  }
  if (layer == "MultiheadAttention") {
    nn::MultiheadAttention m(nn::MultiheadAttentionOptions(512, 8));
    auto x = torch::randn({512, 1, 512});
    auto [output, weights] = m->forward(x, x, x); // query, key and value are one tensor, read once
    return {with_parameters(*m, {x}), {output, weights}};
  }
  if (layer == "BatchNorm2d") {
    nn::BatchNorm2d m(256);
    m->eval();
    auto x = torch::randn({1, 256, 32, 32});
    return {with_parameters(*m, {x, m->running_mean, m->running_var}), {m->forward(x)}};
  }
  if (layer == "LayerNorm") {
    nn::LayerNorm m(nn::LayerNormOptions({512}));
    auto x = torch::randn({1, 512, 512});
    return {with_parameters(*m, {x}), {m->forward(x)}};
  }
  if (layer == "Embedding") {
    nn::Embedding m(50000, 768);
    auto indices = torch::randint(0, 50000, {1, 128}, torch::kInt64);
    // Only the gathered rows of the table are read.
    return {{indices, m->weight.index_select(0, indices.flatten())}, {m->forward(indices)}};
  }
  if (layer == "MaxPool2d" || layer == "AvgPool2d") {
    auto x = torch::randn({1, 128, 32, 32});
    auto y = layer == "MaxPool2d" ? nn::MaxPool2d(nn::MaxPool2dOptions(2).stride(2))->forward(x)
                                  : nn::AvgPool2d(nn::AvgPool2dOptions(2).stride(2))->forward(x);
    return {{x}, {y}};
  }
  if (layer == "Dropout") {
    nn::Dropout m(0.5);
    m->train();
    auto x = torch::randn({1, 512});
    return {{x}, {m->forward(x)}};
  }
  throw std::runtime_error("no traffic for " + layer);
}

} // namespace

TEST_CASE("bench::LayerSpec::bytes")
{
  SUBCASE("at batch 1, the bytes formula is the sum of the input, parameter and output nbytes, for all 14 layers")
  {
    torch::NoGradGuard no_grad;
    int checked = 0;
    for (const auto& spec : catalog()) {
      CAPTURE(spec.name);
      const auto tensors = traffic(spec.name);
      CHECK(spec.bytes.fixed + spec.bytes.per_sample == static_cast<double>(nbytes(tensors.read) + nbytes(tensors.written)));
      ++checked;
    }
    CHECK(checked == 14);
  }
  SUBCASE("the fixed part is what a batch shares: the parameters, or nothing for a lookup")
  {
    CHECK(find_layer("Linear").bytes.fixed == 4.0 * (4096 * 4096 + 4096));
    CHECK(find_layer("Embedding").bytes.fixed == 0);
    CHECK(find_layer("BatchNorm2d").bytes.fixed == 4.0 * 4 * 256); // weight, bias, running mean and variance
  }
  SUBCASE("describe writes the formula with its values as the bytes of a batch of B")
  {
    const auto layer = describe(find_layer("Linear"));
    CHECK(layer.bytes_formula == "per forward: 4*(in*out + out); per sample: 4*(in + out); with values: "
                                 "4*(4096*4096 + 4096) + B*(4*(4096 + 4096))");
    CHECK(*layer.bytes_per_sample == 4.0 * 8192);
  }
}

namespace {

// The arithmetic of the formulas' values, as tests/bench_formula_values.py evaluates the published ones:
// integers, + - * ^ and parentheses. Throws on anything else, so a stray symbol fails the test.
class Arithmetic
{
public:
  explicit Arithmetic(std::string text) : m_text(std::move(text)) {}

  int64_t evaluate()
  {
    const auto value = sum();
    skip_spaces();
    if (m_at != m_text.size()) {
      throw std::runtime_error("not plain arithmetic at " + std::to_string(m_at) + ": " + m_text);
    }
    return value;
  }

private:
  void skip_spaces()
  {
    while (m_at < m_text.size() && m_text[m_at] == ' ') {
      ++m_at;
    }
  }

  bool take(char symbol)
  {
    skip_spaces();
    if (m_at < m_text.size() && m_text[m_at] == symbol) {
      ++m_at;
      return true;
    }
    return false;
  }

  int64_t sum()
  {
    auto value = product();
    for (;;) {
      if (take('+')) {
        value += product();
      } else if (take('-')) {
        value -= product();
      } else {
        return value;
      }
    }
  }

  int64_t product()
  {
    auto value = power();
    while (take('*')) {
      value *= power();
    }
    return value;
  }

  int64_t power()
  {
    const auto base = operand();
    if (!take('^')) {
      return base;
    }
    const auto exponent = power();
    int64_t value = 1;
    for (int64_t i = 0; i < exponent; ++i) {
      value *= base;
    }
    return value;
  }

  int64_t operand()
  {
    if (take('(')) {
      const auto value = sum();
      if (!take(')')) {
        throw std::runtime_error("unclosed parenthesis: " + m_text);
      }
      return value;
    }
    skip_spaces();
    const auto begin = m_at;
    while (m_at < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_at]))) {
      ++m_at;
    }
    if (m_at == begin) {
      throw std::runtime_error("not plain arithmetic at " + std::to_string(m_at) + ": " + m_text);
    }
    return std::stoll(m_text.substr(begin, m_at - begin));
  }

  std::string m_text;
  size_t m_at = 0;
};

double evaluate(const std::string& text) { return static_cast<double>(Arithmetic(text).evaluate()); }

template<typename Recurrent>
Recurrent recurrent(int64_t input_size, int64_t hidden, int64_t layers, int64_t directions, int64_t steps)
{
  Recurrent s;
  s.input_size = input_size;
  s.hidden = hidden;
  s.layers = layers;
  s.directions = directions;
  s.steps = steps;
  return s;
}

// Two shapes of each layer, none its default, with unequal sides and odd sizes, so that a number typed
// by hand, a swapped pair or a term that holds only for the defaults shows; beside each, its configuration text.
std::vector<std::pair<LayerSpec, std::string>> other_shapes()
{
  return {
    {layer_entry(shapes::Conv2d{3, 16, 5, 20, 24}), "Conv2d(3,16,5) 20x24 input"},
    {layer_entry(shapes::Conv2d{32, 8, 1, 7, 7}), "Conv2d(32,8,1) 7x7 input"},
    {layer_entry(shapes::Conv1d{3, 10, 3, 50}), "Conv1d(3,10,3) len=50"},
    {layer_entry(shapes::Conv1d{16, 4, 7, 33}), "Conv1d(16,4,7) len=33"},
    {layer_entry(shapes::ConvTranspose2d{8, 4, 3, 1, 9, 11}), "ConvTranspose2d(8,4,3,1) 9x11"},
    {layer_entry(shapes::ConvTranspose2d{16, 32, 2, 3, 5, 5}), "ConvTranspose2d(16,32,2,3) 5x5"},
    {layer_entry(shapes::Linear{300, 7}), "Linear(300,7)"},
    {layer_entry(shapes::Linear{64, 1000, 12}), "Linear(64,1000) seq=12"},
    {layer_entry(recurrent<shapes::Lstm>(48, 32, 1, 1, 12)), "LSTM(48,32,1) len=12"},
    {layer_entry(recurrent<shapes::Lstm>(20, 24, 3, 2, 7)), "LSTM(20,24,3,bidir=True) len=7"},
    {layer_entry(recurrent<shapes::Gru>(40, 16, 3, 2, 9)), "GRU(40,16,3,bidir=True) len=9"},
    {layer_entry(recurrent<shapes::Gru>(10, 12, 1, 1, 5)), "GRU(10,12,1) len=5"},
    {layer_entry(shapes::TransformerEncoder{{96, 3, 40}, 200}), "d=96,3heads,ff=200 seq=40"},
    {layer_entry(shapes::TransformerEncoder{{64, 4, 9}, 128}), "d=64,4heads,ff=128 seq=9"},
    {layer_entry(shapes::MultiheadAttention{{96, 3, 40}}), "embed=96,3heads seq=40"},
    {layer_entry(shapes::MultiheadAttention{{64, 8, 17}}), "embed=64,8heads seq=17"},
    {layer_entry(shapes::BatchNorm2d{12, 5, 7}), "BatchNorm2d(12) 5x7 input"},
    {layer_entry(shapes::BatchNorm2d{300, 3, 3}), "BatchNorm2d(300) 3x3 input"},
    {layer_entry(shapes::LayerNorm{96, 33}), "LayerNorm(96) seq=33"},
    {layer_entry(shapes::LayerNorm{10, 2}), "LayerNorm(10) seq=2"},
    {layer_entry(shapes::Embedding{1000, 32, 17}), "Embedding(1000,32) seq=17"},
    {layer_entry(shapes::Embedding{77, 5, 300}), "Embedding(77,5) seq=300"},
    {layer_entry(shapes::MaxPool2d{{16, 20, 24, 3}}), "MaxPool2d(3,stride=3) 16ch 20x24"},
    {layer_entry(shapes::MaxPool2d{{4, 9, 9, 4}}), "MaxPool2d(4,stride=4) 4ch 9x9"},
    {layer_entry(shapes::AvgPool2d{{16, 20, 24, 3}}), "AvgPool2d(3,stride=3) 16ch 20x24"},
    {layer_entry(shapes::AvgPool2d{{4, 9, 9, 4}}), "AvgPool2d(4,stride=4) 4ch 9x9"},
    {layer_entry(shapes::Dropout{300, 0.1}), "Dropout(0.1) 300-dim"},
    {layer_entry(shapes::Dropout{64, 0.25}), "Dropout(0.25) 64-dim"},
  };
}

} // namespace

TEST_CASE("bench::layer_entry")
{
  const auto entries = other_shapes();
  SUBCASE("two shapes other than the defaults for each of the fourteen layers")
  {
    std::map<std::string, int> shapes_of;
    for (const auto& [spec, config] : entries) {
      ++shapes_of[spec.name];
    }
    CHECK(shapes_of.size() == catalog().size());
    for (const auto& spec : catalog()) {
      CAPTURE(spec.name);
      CHECK(shapes_of[spec.name] == 2);
    }
  }
  SUBCASE("the formulas' values evaluate to the figures computed from the same parameters")
  {
    for (const auto& [spec, config] : entries) {
      CAPTURE(config);
      CHECK(evaluate(spec.params_values) == static_cast<double>(spec.params()));
      CHECK(evaluate(spec.flops_values) == spec.flops());
      CHECK(evaluate(spec.bytes.fixed_values) == spec.bytes.fixed);
      CHECK(evaluate(spec.bytes.per_sample_values) == spec.bytes.per_sample);
    }
    // The evaluator is the published formulas' arithmetic: it takes the defaults' text and refuses a symbol.
    CHECK(evaluate(find_layer("Conv2d").flops_values) == find_layer("Conv2d").flops());
    CHECK(evaluate("4*512^2 + (2 - 1)*3") == 4.0 * 512 * 512 + 3);
    CHECK_THROWS(evaluate("4*d^2"));
  }
  SUBCASE("the configuration and input-shape texts are the parameters'")
  {
    for (const auto& [spec, config] : entries) {
      CAPTURE(config);
      CHECK(spec.config == config);
      CHECK(dims_of(spec.input_shape, 3) == spec.input_dims(3));
    }
    // Output sizes that differ are written apart; the defaults' square ones as one.
    CHECK(layer_entry(shapes::Conv2d{3, 16, 5, 20, 24}).flops_formula.find("H_out = 16, W_out = 20") != std::string::npos);
    CHECK(layer_entry(shapes::Conv1d{3, 10, 3, 50}).flops_formula.find("L_out = 48") != std::string::npos);
    CHECK(find_layer("Conv2d").flops_formula.find("H_out = W_out = 30") != std::string::npos);
  }
  SUBCASE("the parameter formula equals the count of the built module, and the built input has the entry's dimensions")
  {
    for (const auto& [spec, config] : entries) {
      CAPTURE(config);
      const auto instance = layerbench::bench::detail::instantiate(spec, 2, torch::kCPU);
      CHECK(layerbench::bench::detail::count_parameters(*instance.module) == spec.params());
      CHECK(instance.input.sizes().vec() == spec.input_dims(2));
    }
  }
  SUBCASE("the rank follows from the parameters' input")
  {
    CHECK(layer_entry(shapes::Conv2d{3, 16, 5, 20, 24}).rank == InputRank::four_d);
    CHECK(layer_entry(shapes::Linear{300, 7}).rank == InputRank::other);
  }
}

TEST_CASE("bench::todays_layers")
{
  std::vector<const LayerSpec*> entries;
  for (const auto& spec : todays_layers()) {
    entries.push_back(&spec);
  }
  // A second shape of each, through the names users write.
  for (const auto* name : {"RMSNorm(d=96,seq=10)", "GELU(d=30,seq=4)", "SiLU(d=3,seq=9)",
                           "ScaledDotProductAttention(heads=3,kv_heads=3,head_dim=5,seq=7)",
                           "GroupedQueryAttention(heads=6,kv_heads=3,head_dim=8,seq=5)", "DepthwiseConv2d(c=3,k=5,h=5,w=7)",
                           "Conv3d(in=8,out=8,k=2,depth=4,h=4,w=5,groups=4)", "SwiGLU(d=7,hidden=5,seq=3)"}) {
    entries.push_back(&find_layer(name));
  }
  SUBCASE("eight layers of today's models, none of the reference's, each found by name")
  {
    std::vector<std::string> names;
    for (const auto& spec : todays_layers()) {
      names.push_back(spec.name);
      CHECK(&find_layer(spec.name) == &spec);
    }
    CHECK(names == std::vector<std::string>{"RMSNorm", "GELU", "SiLU", "ScaledDotProductAttention", "GroupedQueryAttention",
                                            "DepthwiseConv2d", "Conv3d", "SwiGLU"});
  }
  SUBCASE("the formulas' values evaluate to the figures, and the built module and input are the entry's")
  {
    for (const auto* spec : entries) {
      CAPTURE(spec->name);
      CHECK(evaluate(spec->params_values) == static_cast<double>(spec->params()));
      CHECK(evaluate(spec->flops_values) == spec->flops());
      CHECK(evaluate(spec->bytes.fixed_values) == spec->bytes.fixed);
      CHECK(evaluate(spec->bytes.per_sample_values) == spec->bytes.per_sample);
      CHECK(dims_of(spec->input_shape, 3) == spec->input_dims(3));
      const auto instance = layerbench::bench::detail::instantiate(*spec, 2, torch::kCPU);
      CHECK(layerbench::bench::detail::count_parameters(*instance.module) == spec->params());
      CHECK(instance.input.sizes().vec() == spec->input_dims(2));
      const auto output = instance.forward();
      CHECK(output.defined());
    }
  }
  SUBCASE("the attention kernels' query is 4-D but takes no channels_last; the depthwise convolution does")
  {
    CHECK(find_layer("ScaledDotProductAttention").rank == InputRank::other);
    CHECK(find_layer("GroupedQueryAttention").rank == InputRank::other);
    CHECK(find_layer("DepthwiseConv2d").rank == InputRank::four_d);
  }
  SUBCASE("grouped-query attention moves fewer bytes of keys and values for the same FLOPs")
  {
    const auto& full = find_layer("ScaledDotProductAttention");
    const auto& grouped = find_layer("GroupedQueryAttention");
    CHECK(full.flops() == grouped.flops());
    CHECK(grouped.bytes.per_sample < full.bytes.per_sample);
  }
}
