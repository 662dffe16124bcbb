// SPDX-License-Identifier: MIT
#include "bench/detail/builder.hpp"

#include "catalog/shapes.hpp"
#include "bench/detail/attention.hpp"
#include "bench/detail/models/instances.hpp"
#include "bench/detail/models/uses.hpp"
#include "catalog/models/entries.hpp"

#include "util/error.hpp"

#include <map>

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

Instance conv2d(int64_t batch, torch::Device device)
{
  constexpr auto s = shapes::k_conv2d;
  return single(nn::Conv2d(nn::Conv2dOptions(s.c_in, s.c_out, s.k)), torch::randn({batch, s.c_in, s.h, s.w}, on(device)), device);
}

Instance conv1d(int64_t batch, torch::Device device)
{
  constexpr auto s = shapes::k_conv1d;
  return single(nn::Conv1d(nn::Conv1dOptions(s.c_in, s.c_out, s.k)), torch::randn({batch, s.c_in, s.length}, on(device)), device);
}

Instance conv_transpose2d(int64_t batch, torch::Device device)
{
  constexpr auto s = shapes::k_conv_transpose2d;
  return single(nn::ConvTranspose2d(nn::ConvTranspose2dOptions(s.c_in, s.c_out, s.k).stride(s.stride)),
                torch::randn({batch, s.c_in, s.h, s.w}, on(device)), device);
}

Instance linear(int64_t batch, torch::Device device)
{
  // LibTorch's LinearImpl::forward calls addmm directly for 2-D input; Python's calls aten::linear.
  constexpr auto s = shapes::k_linear;
  nn::Linear module(s.in, s.out);
  module->to(device);
  auto input = torch::randn({batch, s.in}, on(device));
  return Instance{module.ptr(), input, [module](const torch::Tensor& x) { return torch::linear(x, module->weight, module->bias); }};
}

// LSTM and GRU: the output sequence, without the final states.
template<typename Module>
Instance recurrent(Module module, const shapes::Recurrent& s, int64_t batch, torch::Device device)
{
  module->to(device);
  auto input = torch::randn({s.steps, batch, s.input}, on(device));
  return Instance{module.ptr(), input, [module](const torch::Tensor& x) mutable { return std::get<0>(module->forward(x)); }};
}

Instance lstm(int64_t batch, torch::Device device)
{
  constexpr auto s = shapes::k_lstm;
  return recurrent(nn::LSTM(nn::LSTMOptions(s.input, s.hidden).num_layers(s.layers).bidirectional(s.directions == 2)), s,
                   batch, device);
}

Instance gru(int64_t batch, torch::Device device)
{
  constexpr auto s = shapes::k_gru;
  return recurrent(nn::GRU(nn::GRUOptions(s.input, s.hidden).num_layers(s.layers).bidirectional(s.directions == 2)), s,
                   batch, device);
}

Instance multihead_attention(int64_t batch, torch::Device device)
{
  constexpr auto a = shapes::k_attention;
  nn::MultiheadAttention module(nn::MultiheadAttentionOptions(a.d, a.heads));
  module->to(device);
  auto input = torch::randn({a.seq, batch, a.d}, on(device));
  return Instance{module.ptr(), input, [module](const torch::Tensor& x) mutable {
                    return self_attention_like_python(*module, x, NeedWeights::yes);
                  }};
}

Instance transformer_encoder(int64_t batch, torch::Device device)
{
  constexpr auto a = shapes::k_attention;
  nn::TransformerEncoder module(
    nn::TransformerEncoderOptions(nn::TransformerEncoderLayerOptions(a.d, a.heads).dim_feedforward(shapes::k_feedforward), 1));
  module->to(device);
  auto input = torch::randn({a.seq, batch, a.d}, on(device));
  return Instance{module.ptr(), input, [module](const torch::Tensor& x) mutable {
                    auto output = x;
                    for (const auto& layer : *module->layers) {
                      output = encoder_layer_like_python(*layer->as<nn::TransformerEncoderLayerImpl>(), output);
                    }
                    return output;
                  }};
}

Instance batch_norm2d(int64_t batch, torch::Device device)
{
  constexpr auto s = shapes::k_batch_norm2d;
  return single(nn::BatchNorm2d(s.features), torch::randn({batch, s.features, s.h, s.w}, on(device)), device);
}

Instance layer_norm(int64_t batch, torch::Device device)
{
  constexpr auto s = shapes::k_layer_norm;
  return single(nn::LayerNorm(nn::LayerNormOptions({s.width})), torch::randn({batch, s.seq, s.width}, on(device)), device);
}

Instance embedding(int64_t batch, torch::Device device)
{
  constexpr auto s = shapes::k_embedding;
  auto input = torch::randint(0, s.vocabulary, {batch, s.seq}, torch::TensorOptions().dtype(torch::kInt64).device(device));
  return single(nn::Embedding(s.vocabulary, s.width), input, device);
}

template<typename Pool, typename Options>
Instance pool(int64_t batch, torch::Device device)
{
  constexpr auto s = shapes::k_pool;
  return single(Pool(Options(s.k).stride(s.k)), torch::randn({batch, s.channels, s.h, s.w}, on(device)), device);
}

Instance dropout(int64_t batch, torch::Device device)
{
  constexpr auto s = shapes::k_dropout;
  return single(nn::Dropout(s.p), torch::randn({batch, s.width}, on(device)), device);
}

using Builder = Instance (*)(int64_t batch, torch::Device device);

// The fourteen layers of catalog/catalog.cpp, by name.
const std::map<std::string, Builder>& layer_builders()
{
  static const std::map<std::string, Builder> builders = {
    {"Conv2d", conv2d},
    {"Conv1d", conv1d},
    {"ConvTranspose2d", conv_transpose2d},
    {"Linear", linear},
    {"LSTM", lstm},
    {"GRU", gru},
    {"TransformerEncoder", transformer_encoder},
    {"MultiheadAttention", multihead_attention},
    {"BatchNorm2d", batch_norm2d},
    {"LayerNorm", layer_norm},
    {"Embedding", embedding},
    {"MaxPool2d", pool<nn::MaxPool2d, nn::MaxPool2dOptions>},
    {"AvgPool2d", pool<nn::AvgPool2d, nn::AvgPool2dOptions>},
    {"Dropout", dropout},
  };
  return builders;
}

} // namespace

bool has_builder(const LayerSpec& spec)
{
  return layer_builders().count(spec.name) > 0 || models::resnet_options(spec.name) || models::bert_config(spec.name)
         || spec.part_of;
}

Instance instantiate(const LayerSpec& spec, int64_t batch_size, torch::Device device)
{
  const auto& builders = layer_builders();
  if (const auto found = builders.find(spec.name); found != builders.end()) {
    return found->second(batch_size, device);
  }
  if (const auto* options = models::resnet_options(spec.name)) {
    return models::resnet_instance(*options, batch_size, device);
  }
  if (const auto* config = models::bert_config(spec.name)) {
    return models::bert_instance(*config, batch_size, device);
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
