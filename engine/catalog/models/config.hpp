// SPDX-License-Identifier: MIT
#pragma once

// The whole models' configurations, torch-free: what the catalog describes and counts
// (catalog/models/entries.hpp, inventory.hpp) and what the LibTorch builders build
// (bench/detail/models/resnet.hpp, bert.hpp).

#include <array>
#include <cstdint>
#include <vector>

namespace layerbench::bench::models {

// The inputs the models are measured on: ImageNet-sized images, BERT's pretraining sequence length.
constexpr int64_t k_image_size = 224;
constexpr int64_t k_sequence_length = 128;

// torchvision's ResNet(Bottleneck, blocks, num_classes): the defaults are resnet50. Fewer blocks make
// the small variants tests use; the widths are fixed, as torchvision fixes them.
struct ResNetOptions
{
  std::array<int64_t, 4> blocks{3, 4, 6, 3}; // bottlenecks in layer1..layer4
  int64_t num_classes = 1000;

  std::vector<int64_t> input(int64_t batch) const { return {batch, 3, k_image_size, k_image_size}; }
};

// A bottleneck block outputs its 3x3 convolution's width times this.
constexpr int64_t k_bottleneck_expansion = 4;

// transformers' BertConfig, with its field names; the defaults are bert-base-uncased's (vocabulary 30522).
struct BertConfig
{
  int64_t vocab_size = 30522;
  int64_t hidden_size = 768;
  int64_t num_hidden_layers = 12;
  int64_t num_attention_heads = 12;
  int64_t intermediate_size = 3072;
  int64_t max_position_embeddings = 512;
  int64_t type_vocab_size = 2;
  int64_t pad_token_id = 0;
  double hidden_dropout_prob = 0.1;
  double attention_probs_dropout_prob = 0.1;
  double layer_norm_eps = 1e-12;
  double initializer_range = 0.02;

  std::vector<int64_t> input(int64_t batch) const { return {batch, k_sequence_length}; } // token ids
};

// bert-base-cased and bert-large-cased (their config.json): a 28,996-token cased vocabulary.
BertConfig bert_base_cased();
BertConfig bert_large_cased();

} // namespace layerbench::bench::models
