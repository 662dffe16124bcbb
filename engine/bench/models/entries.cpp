// SPDX-License-Identifier: MIT
#include "bench/models/entries.hpp"

#include "bench/models/bert.hpp"
#include "bench/models/inventory.hpp"
#include "bench/models/optim.hpp"
#include "bench/models/resnet.hpp"
#include "bench/models/weights.hpp"

#include "util/error.hpp"

#include <ATen/CPUGeneratorImpl.h>

#include <variant>

namespace layerbench::bench::models {

namespace {

constexpr int64_t k_image_size = 224;
constexpr int64_t k_sequence_length = 128;
constexpr uint64_t k_data_seed = 2025; // the labels and masked positions, the same in every run
constexpr double k_masked_fraction = 0.15;

torch::Generator data_generator() { return at::detail::createCPUGenerator(k_data_seed); }

// The parts every model entry shares: its FLOPs from its inventory, its parameters counted once from
// a model built on the CPU (`count`), the formulas that say so.
LayerSpec model_spec(const std::string& name,
                     std::vector<dataset::LayerUse> inventory,
                     std::function<int64_t()> count)
{
  LayerSpec spec;
  spec.name = name;
  spec.kind = dataset::LayerKind::model;
  const double matmul = matmul_flops(inventory);
  const double elementwise = elementwise_flops(inventory);
  spec.matmul_flops = [matmul] { return matmul; };
  spec.elementwise_flops = [elementwise] { return elementwise; };
  spec.flops_formula = "the sum over the model's layers of count x FLOPs per sample (layers[].contains)";
  spec.flops_values = flops_values(inventory);
  spec.contains = std::move(inventory);
  auto cached = std::make_shared<std::optional<int64_t>>();
  spec.params = [cached, count] {
    if (!*cached) {
      *cached = count();
    }
    return **cached;
  };
  spec.params_formula = "counted from the model: each parameter tensor once";
  return spec;
}

// The training step of a model whose loss `loss` computes, stepped by `optimizer`.
std::shared_ptr<Training> training_of(std::shared_ptr<Optimizer> optimizer, std::vector<torch::Tensor> parameters,
                                      std::function<torch::Tensor()> loss)
{
  auto training = std::make_shared<Training>();
  training->loss = std::move(loss);
  training->zero_grad = [optimizer] { optimizer->zero_grad(); };
  training->step = [optimizer] { optimizer->step(); };
  training->parameters = std::move(parameters);
  return training;
}

Instance resnet_instance(const ResNetOptions& options, int64_t batch_size, torch::Device device)
{
  ResNet model(options);
  model->to(device);
  auto generator = data_generator();
  Instance instance;
  instance.module = model.ptr();
  instance.input = torch::randn({batch_size, 3, k_image_size, k_image_size}, generator).to(device);
  instance.call = [model](const torch::Tensor& images) mutable { return model->forward(images); };
  const auto labels = torch::randint(0, options.num_classes, {batch_size}, generator).to(device);
  instance.training = training_of(std::make_shared<Sgd>(model->parameters(), SgdOptions{}), model->parameters(),
                                  [model, images = instance.input, labels]() mutable {
                                    return torch::nn::functional::cross_entropy(model->forward(images), labels);
                                  });
  return instance;
}

LayerSpec resnet_entry(const std::string& name, const ResNetOptions& options, const std::string& config)
{
  auto spec = model_spec(name, resnet_inventory(options, k_image_size),
                         [options] { return count_unique_parameters(*ResNet(options)); });
  spec.module = "torchvision.models.resnet50";
  spec.config = config;
  spec.input_shape = "B x 3 x 224 x 224";
  spec.rank = InputRank::four_d;
  spec.instantiate = [options](int64_t batch_size, torch::Device device) {
    return resnet_instance(options, batch_size, device);
  };
  spec.dispatch = "the ATen operators of torchvision's resnet50 (docs/models.md compares the profiles)";
  spec.train_step = "zero_grad (set to none); cross-entropy of the logits against random class labels; backward; "
                    "torch.optim.SGD(lr=1e-3, momentum=0.9, weight_decay=1e-4) step";
  return spec;
}

// B x 128 masked-LM labels: a random token at 15% of the positions, -100 (not scored) elsewhere.
torch::Tensor masked_lm_labels(int64_t batch_size, int64_t vocab_size, torch::Generator& generator)
{
  const auto tokens = torch::randint(1, vocab_size, {batch_size, k_sequence_length}, generator);
  const auto masked = torch::rand({batch_size, k_sequence_length}, generator) < k_masked_fraction;
  return torch::where(masked, tokens, torch::full_like(tokens, -100));
}

// One BertForPreTraining: inference runs its BertModel ("bert"), training the whole of it.
Instance bert_instance(const BertConfig& config, int64_t batch_size, torch::Device device)
{
  BertForPreTraining model(config);
  model->to(device);
  auto generator = data_generator();
  Instance instance;
  instance.module = model.ptr();
  instance.input = torch::randint(1, config.vocab_size, {batch_size, k_sequence_length}, generator).to(device);
  BertModel bert = model->bert();
  instance.call = [bert](const torch::Tensor& input_ids) mutable { return bert->forward(input_ids).last_hidden_state; };
  const auto mlm_labels = masked_lm_labels(batch_size, config.vocab_size, generator).to(device);
  const auto next_sentence = torch::randint(0, 2, {batch_size}, generator).to(device);
  instance.training = training_of(std::make_shared<AdamW>(model->parameters(), AdamWOptions{}), model->parameters(),
                                  [model, input_ids = instance.input, mlm_labels, next_sentence]() mutable {
                                    return pretraining_loss(model->forward(input_ids), mlm_labels, next_sentence);
                                  });
  return instance;
}

LayerSpec bert_entry(const std::string& name, const BertConfig& config, const std::string& description)
{
  auto spec = model_spec(name, bert_inventory(config, k_sequence_length),
                         [config] { return count_unique_parameters(*BertModel(config)); });
  spec.module = "transformers.BertModel";
  spec.config = description + ", sequence length 128";
  spec.input_shape = "B x 128 token ids";
  spec.instantiate = [config](int64_t batch_size, torch::Device device) {
    return bert_instance(config, batch_size, device);
  };
  spec.dispatch = "the ATen operators of transformers' BertModel with its default \"sdpa\" attention "
                  "(docs/models.md compares the profiles)";
  spec.train_step = "zero_grad (set to none); BertForPreTraining's pretraining loss (masked-LM cross-entropy on "
                    "15% of the tokens plus next-sentence cross-entropy); backward; "
                    "torch.optim.AdamW(lr=1e-4, weight_decay=0.01) step";
  return spec;
}

BertConfig bert_tiny()
{
  auto config = bert_base_cased();
  config.num_hidden_layers = 2;
  config.hidden_size = 128;
  config.num_attention_heads = 2;
  config.intermediate_size = 512;
  return config;
}

// The models by name, with the configuration their entry and their layer sum are both built from.
struct NamedModel
{
  std::string name;
  std::variant<ResNetOptions, BertConfig> config;
  std::string description;
};

const std::vector<NamedModel>& named_models()
{
  static const std::vector<NamedModel> models = {
    {"ResNet50", ResNetOptions{}, "ResNet-50 v1.5 (torchvision), 224x224 images, 1000 classes"},
    {"BertBase", bert_base_cased(), "BERT base cased: 12 layers, 768 wide, 12 heads"},
    {"BertLarge", bert_large_cased(), "BERT large cased: 24 layers, 1024 wide, 16 heads"},
    {"ResNetTiny", ResNetOptions{{1, 1, 1, 1}, 1000}, "ResNet-50's stages with one bottleneck each, 224x224 images (for tests)"},
    {"BertTiny", bert_tiny(), "BERT base cased's vocabulary, 2 layers, 128 wide, 2 heads (for tests)"},
  };
  return models;
}

} // namespace

std::vector<LayerSpec> model_entries()
{
  std::vector<LayerSpec> entries;
  for (const auto& model : named_models()) {
    if (const auto* options = std::get_if<ResNetOptions>(&model.config)) {
      entries.push_back(resnet_entry(model.name, *options, model.description));
    } else {
      entries.push_back(bert_entry(model.name, std::get<BertConfig>(model.config), model.description));
    }
  }
  return entries;
}

std::vector<ModelUse> model_uses(const std::string& model)
{
  for (const auto& named : named_models()) {
    if (named.name != model) {
      continue;
    }
    if (const auto* options = std::get_if<ResNetOptions>(&named.config)) {
      return resnet_uses(*options, k_image_size);
    }
    return bert_uses(std::get<BertConfig>(named.config), k_sequence_length);
  }
  throw Error("no model named '" + model + "' has an inventory");
}

} // namespace layerbench::bench::models
