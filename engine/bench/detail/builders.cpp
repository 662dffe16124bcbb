// SPDX-License-Identifier: MIT
#include "bench/detail/builder.hpp"

#include "bench/detail/attention.hpp"
#include "bench/detail/models/instances.hpp"
#include "bench/detail/models/uses.hpp"
#include "bench/detail/torch_compat.hpp"
#include "catalog/models/entries.hpp"
#include "catalog/shapes.hpp"

#include "util/error.hpp"

#include <optional>
#include <type_traits>
#include <variant>

namespace layerbench::bench::detail {

namespace nn = torch::nn;

namespace {

torch::TensorOptions on(torch::Device device) { return torch::TensorOptions().dtype(torch::kFloat32).device(device); }

// A module whose forward takes and returns one tensor.
template<typename Module>
Instance single(Module module, torch::Tensor input, torch::Device device)
{
  module->to(device);
  return {module.ptr(), input, [module](const torch::Tensor& x) mutable { return module->forward(x); }};
}

// The input at the layer's dimensions: floats, or the indices of a lookup.
torch::Tensor input_of(const shapes::Dims& dims, torch::Device device)
{
  return torch::randn(dims, on(device));
}

// One builder per layer type and model family of catalog/shapes.hpp, from the catalog entry's parameters; instantiate picks
// it by the type, so a layer type without one does not compile.
Instance build(const shapes::Conv2d& s, int64_t batch, torch::Device device)
{
  return single(nn::Conv2d(nn::Conv2dOptions(s.c_in, s.c_out, s.k)), input_of(s.input(batch), device), device);
}

Instance build(const shapes::Conv1d& s, int64_t batch, torch::Device device)
{
  return single(nn::Conv1d(nn::Conv1dOptions(s.c_in, s.c_out, s.k)), input_of(s.input(batch), device), device);
}

Instance build(const shapes::ConvTranspose2d& s, int64_t batch, torch::Device device)
{
  return single(nn::ConvTranspose2d(nn::ConvTranspose2dOptions(s.c_in, s.c_out, s.k).stride(s.stride)),
                input_of(s.input(batch), device), device);
}

Instance build(const shapes::Linear& s, int64_t batch, torch::Device device)
{
  // LibTorch's LinearImpl::forward calls addmm directly for 2-D input; Python's calls aten::linear.
  nn::Linear module(s.in, s.out);
  module->to(device);
  return Instance{module.ptr(), input_of(s.input(batch), device),
                  [module](const torch::Tensor& x) { return torch::linear(x, module->weight, module->bias); }};
}

// LSTM and GRU: the output sequence, without the final states.
template<typename Module>
Instance recurrent(Module module, const shapes::Recurrent& s, int64_t batch, torch::Device device)
{
  module->to(device);
  return Instance{module.ptr(), input_of(s.input(batch), device),
                  [module](const torch::Tensor& x) mutable { return std::get<0>(module->forward(x)); }};
}

Instance build(const shapes::Lstm& s, int64_t batch, torch::Device device)
{
  return recurrent(nn::LSTM(nn::LSTMOptions(s.input_size, s.hidden).num_layers(s.layers).bidirectional(s.directions == 2)),
                   s, batch, device);
}

Instance build(const shapes::Gru& s, int64_t batch, torch::Device device)
{
  return recurrent(nn::GRU(nn::GRUOptions(s.input_size, s.hidden).num_layers(s.layers).bidirectional(s.directions == 2)),
                   s, batch, device);
}

Instance build(const shapes::MultiheadAttention& a, int64_t batch, torch::Device device)
{
  nn::MultiheadAttention module(nn::MultiheadAttentionOptions(a.d, a.heads));
  module->to(device);
  return Instance{module.ptr(), input_of(a.input(batch), device), [module](const torch::Tensor& x) mutable {
                    return self_attention_like_python(*module, x, NeedWeights::yes);
                  }};
}

Instance build(const shapes::TransformerEncoder& a, int64_t batch, torch::Device device)
{
  nn::TransformerEncoder module(
    nn::TransformerEncoderOptions(nn::TransformerEncoderLayerOptions(a.d, a.heads).dim_feedforward(a.feedforward), 1));
  module->to(device);
  return Instance{module.ptr(), input_of(a.input(batch), device), [module](const torch::Tensor& x) mutable {
                    auto output = x;
                    for (const auto& layer : *module->layers) {
                      output = encoder_layer_like_python(*layer->as<nn::TransformerEncoderLayerImpl>(), output);
                    }
                    return output;
                  }};
}

Instance build(const shapes::BatchNorm2d& s, int64_t batch, torch::Device device)
{
  return single(nn::BatchNorm2d(s.features), input_of(s.input(batch), device), device);
}

Instance build(const shapes::LayerNorm& s, int64_t batch, torch::Device device)
{
  return single(nn::LayerNorm(nn::LayerNormOptions({s.width})), input_of(s.input(batch), device), device);
}

Instance build(const shapes::Embedding& s, int64_t batch, torch::Device device)
{
  auto input = torch::randint(0, s.vocabulary, s.input(batch), torch::TensorOptions().dtype(torch::kInt64).device(device));
  return single(nn::Embedding(s.vocabulary, s.width), input, device);
}

template<typename Pool, typename Options>
Instance pool(const shapes::Pool& s, int64_t batch, torch::Device device)
{
  return single(Pool(Options(s.k).stride(s.k)), input_of(s.input(batch), device), device);
}

Instance build(const shapes::MaxPool2d& s, int64_t batch, torch::Device device)
{
  return pool<nn::MaxPool2d, nn::MaxPool2dOptions>(s, batch, device);
}

Instance build(const shapes::AvgPool2d& s, int64_t batch, torch::Device device)
{
  return pool<nn::AvgPool2d, nn::AvgPool2dOptions>(s, batch, device);
}

Instance build(const shapes::Dropout& s, int64_t batch, torch::Device device)
{
  return single(nn::Dropout(s.p), input_of(s.input(batch), device), device);
}

Instance build(const shapes::RmsNorm& s, int64_t batch, torch::Device device)
{
  // LibTorch has no RMSNorm module: a plain one holds the weight, and the call is Python's F.rms_norm's.
  auto module = std::make_shared<nn::Module>();
  auto weight = module->register_parameter("weight", torch::ones({s.width}, on(torch::kCPU)));
  module->to(device);
  weight = module->named_parameters()["weight"];
  return Instance{module, input_of(s.input(batch), device), [weight, width = s.width](const torch::Tensor& x) {
                    return detail::rms_norm(x, width, weight);
                  }};
}

Instance build(const shapes::Gelu& s, int64_t batch, torch::Device device)
{
  return single(nn::GELU(), input_of(s.input(batch), device), device);
}

Instance build(const shapes::Silu& s, int64_t batch, torch::Device device)
{
  return single(nn::SiLU(), input_of(s.input(batch), device), device);
}

// The query is the cell's input; the keys and values are built beside it and held by the call.
Instance sdpa(const shapes::Sdpa& s, int64_t batch, torch::Device device)
{
  const auto key = input_of(s.key_dims(batch), device);
  const auto value = input_of(s.key_dims(batch), device);
  const bool grouped = s.kv_heads != s.heads;
  return Instance{std::make_shared<nn::Module>(), input_of(s.input(batch), device), [key, value, grouped](const torch::Tensor& q) {
                    return detail::sdpa_gqa(q, key, value, grouped);
                  }};
}

Instance build(const shapes::ScaledDotProductAttention& s, int64_t batch, torch::Device device) { return sdpa(s, batch, device); }

Instance build(const shapes::GroupedQueryAttention& s, int64_t batch, torch::Device device) { return sdpa(s, batch, device); }

Instance build(const shapes::DepthwiseConv2d& s, int64_t batch, torch::Device device)
{
  return single(nn::Conv2d(nn::Conv2dOptions(s.channels, s.channels, s.k).groups(s.channels)), input_of(s.input(batch), device),
                device);
}

Instance build(const shapes::Conv3d& s, int64_t batch, torch::Device device)
{
  return single(nn::Conv3d(nn::Conv3dOptions(s.c_in, s.c_out, s.k).groups(s.groups)), input_of(s.input(batch), device), device);
}

Instance build(const shapes::SwiGlu& s, int64_t batch, torch::Device device)
{
  auto module = std::make_shared<nn::Module>();
  const auto projection = [&](const char* name, int64_t in, int64_t out) {
    return module->register_module(name, nn::Linear(nn::LinearOptions(in, out).bias(false)));
  };
  auto w1 = projection("w1", s.width, s.hidden);
  auto w3 = projection("w3", s.width, s.hidden);
  auto w2 = projection("w2", s.hidden, s.width);
  module->to(device);
  // Python's twin: w2(F.silu(w1(x)) * w3(x)), each projection aten::linear without a bias.
  return Instance{module, input_of(s.input(batch), device), [w1, w2, w3](const torch::Tensor& x) {
                    const auto gate = torch::silu(torch::linear(x, w1->weight));
                    const auto up = torch::linear(x, w3->weight);
                    return torch::linear(gate * up, w2->weight);
                  }};
}

Instance build(const models::ResNetOptions& options, int64_t batch, torch::Device device)
{
  return models::resnet_instance(options, batch, device);
}

Instance build(const models::BertConfig& config, int64_t batch, torch::Device device)
{
  return models::bert_instance(config, batch, device);
}

// The builder of a layer or a whole model, picked by its parameters' type; nullopt for an entry without
// them (a model's layer).
std::optional<Instance> build_layer(const shapes::LayerShape& shape, int64_t batch, torch::Device device)
{
  return std::visit(
    [&](const auto& s) -> std::optional<Instance> {
      if constexpr (std::is_same_v<std::decay_t<decltype(s)>, std::monostate>) {
        return std::nullopt;
      } else {
        return build(s, batch, device);
      }
    },
    shape);
}

} // namespace

bool has_builder(const LayerSpec& spec)
{
  return !std::holds_alternative<std::monostate>(spec.shape) || spec.part_of;
}

Instance instantiate(const LayerSpec& spec, int64_t batch_size, torch::Device device)
{
  if (auto layer = build_layer(spec.shape, batch_size, device)) {
    return std::move(*layer);
  }
  if (spec.part_of) { // a layer of a model's layer sum, at the model's shapes
    const auto uses = models::model_uses(spec.part_of->model);
    if (spec.part_of->use >= 0 && static_cast<size_t>(spec.part_of->use) < uses.size()) {
      return models::build_use(uses[spec.part_of->use].shape, batch_size, device);
    }
  }
  throw Error("'" + spec.name + "' has no LibTorch builder (bench/detail/builders.cpp)");
}

int64_t count_parameters(const torch::nn::Module& module)
{
  int64_t total = 0;
  for (const auto& parameter : module.parameters()) {
    total += parameter.numel();
  }
  return total;
}

} // namespace layerbench::bench::detail

namespace layerbench::bench {

int64_t count_parameters(const LayerSpec& spec)
{
  return detail::count_parameters(*detail::instantiate(spec, 1, torch::kCPU).module);
}

} // namespace layerbench::bench
