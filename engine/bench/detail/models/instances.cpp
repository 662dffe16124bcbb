// SPDX-License-Identifier: MIT
#include "bench/detail/models/instances.hpp"

#include "bench/detail/models/bert.hpp"
#include "bench/detail/models/optim.hpp"
#include "bench/detail/models/resnet.hpp"

#include <ATen/CPUGeneratorImpl.h>

namespace layerbench::bench::models {

using detail::Instance;
using detail::Training;

namespace {

constexpr uint64_t k_data_seed = 2025; // the labels and masked positions, the same in every run
constexpr double k_masked_fraction = 0.15;

torch::Generator data_generator() { return at::detail::createCPUGenerator(k_data_seed); }

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

// B x 128 masked-LM labels: a random token at 15% of the positions, -100 (not scored) elsewhere.
torch::Tensor masked_lm_labels(int64_t batch_size, int64_t vocab_size, torch::Generator& generator)
{
  const auto tokens = torch::randint(1, vocab_size, {batch_size, k_sequence_length}, generator);
  const auto masked = torch::rand({batch_size, k_sequence_length}, generator) < k_masked_fraction;
  return torch::where(masked, tokens, torch::full_like(tokens, -100));
}

} // namespace

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

} // namespace layerbench::bench::models
