// SPDX-License-Identifier: MIT
#pragma once

// BERT as Hugging Face transformers builds it (models/bert/modeling_bert.py, transformers 5.23):
// BertModel (embeddings, encoder, pooler) and BertForPreTraining (BertModel plus the masked-LM and
// next-sentence heads). Module, parameter and buffer names are transformers' ("encoder.layer.3.attention
// .self.query.weight"), so a state dict saved in Python loads by name (bench/detail/models/weights.hpp).
//
// Attention follows the implementation BertModel picks by default, "sdpa": one
// aten::scaled_dot_product_attention per layer with no mask (transformers drops an all-ones mask), with
// transformers' views, transposes and reshapes around it; docs/models.md compares the operators. On a
// torch before 2.1, which has no scale argument for it and where transformers falls back to "eager",
// the eager attention instead (matmul, softmax, dropout, matmul; docs/versions.md).
// Weights are initialised as transformers initialises them (normal, std initializer_range; biases 0).
//
// A LibTorch builder, internal to engine/bench like the layers' builders in bench/detail/builders.cpp.

#include "catalog/models/config.hpp"

#include <torch/torch.h>

#include <cstdint>

namespace layerbench::bench::models {

// transformers' BertEmbeddings: word + token type + position, then LayerNorm and Dropout.
class BertEmbeddingsImpl : public torch::nn::Module
{
public:
  explicit BertEmbeddingsImpl(const BertConfig& config);

  // An undefined `token_type_ids` means all zeros, taken from the buffer as transformers takes it.
  torch::Tensor forward(const torch::Tensor& input_ids, torch::Tensor token_type_ids);

  const torch::Tensor& word_embeddings_weight() const { return m_word_embeddings->weight; }

private:
  torch::nn::Embedding m_word_embeddings{nullptr};
  torch::nn::Embedding m_position_embeddings{nullptr};
  torch::nn::Embedding m_token_type_embeddings{nullptr};
  torch::nn::LayerNorm m_layer_norm{nullptr};
  torch::nn::Dropout m_dropout{nullptr};
  torch::Tensor m_position_ids;   // 1 x max_position_embeddings: 0, 1, 2, ...
  torch::Tensor m_token_type_ids; // 1 x max_position_embeddings zeros
};
TORCH_MODULE(BertEmbeddings);

// transformers' BertSelfAttention on the "sdpa" path.
class BertSelfAttentionImpl : public torch::nn::Module
{
public:
  explicit BertSelfAttentionImpl(const BertConfig& config);

  torch::Tensor forward(const torch::Tensor& hidden_states);

private:
  int64_t m_head_size;
  double m_scaling;
  torch::nn::Linear m_query{nullptr};
  torch::nn::Linear m_key{nullptr};
  torch::nn::Linear m_value{nullptr};
  torch::nn::Dropout m_dropout{nullptr}; // its probability goes to the attention call, as in transformers
};
TORCH_MODULE(BertSelfAttention);

// transformers' BertSelfOutput and BertOutput, which differ only in their input width: dense, Dropout,
// then LayerNorm over the sum with the residual.
class BertResidualOutputImpl : public torch::nn::Module
{
public:
  BertResidualOutputImpl(const BertConfig& config, int64_t in_features);

  torch::Tensor forward(const torch::Tensor& hidden_states, const torch::Tensor& residual);

private:
  torch::nn::Linear m_dense{nullptr};
  torch::nn::LayerNorm m_layer_norm{nullptr};
  torch::nn::Dropout m_dropout{nullptr};
};
TORCH_MODULE(BertResidualOutput);

// transformers' BertLayer with its BertAttention ("attention.self", "attention.output"), BertIntermediate
// ("intermediate.dense", GELU with erf) and BertOutput ("output").
class BertLayerImpl : public torch::nn::Module
{
public:
  explicit BertLayerImpl(const BertConfig& config);

  torch::Tensor forward(const torch::Tensor& hidden_states);

private:
  BertSelfAttention m_self_attention{nullptr};
  BertResidualOutput m_attention_output{nullptr};
  torch::nn::Linear m_intermediate_dense{nullptr};
  BertResidualOutput m_output{nullptr};
};
TORCH_MODULE(BertLayer);

struct BertOutputs
{
  torch::Tensor last_hidden_state; // batch x sequence x hidden_size
  torch::Tensor pooler_output;     // batch x hidden_size: tanh(dense(first token))
};

// transformers' BertModel with its pooling layer, on input_ids without padding (no attention mask).
class BertModelImpl : public torch::nn::Module
{
public:
  explicit BertModelImpl(const BertConfig& config);

  BertOutputs forward(const torch::Tensor& input_ids, const torch::Tensor& token_type_ids = {});

  const BertConfig& config() const { return m_config; }
  const torch::Tensor& word_embeddings_weight() const { return m_embeddings->word_embeddings_weight(); }

private:
  BertConfig m_config;
  BertEmbeddings m_embeddings{nullptr};
  torch::nn::ModuleList m_layers{nullptr}; // "encoder.layer"
  torch::nn::Linear m_pooler_dense{nullptr};
};
TORCH_MODULE(BertModel);

struct BertPreTrainingOutputs
{
  torch::Tensor prediction_logits;       // batch x sequence x vocab_size
  torch::Tensor seq_relationship_logits; // batch x 2
};

// transformers' BertForPreTraining: "bert" and the heads "cls.predictions" (transform: dense, GELU,
// LayerNorm; then a decoder whose weight is the word embeddings' and whose bias is "cls.predictions.bias")
// and "cls.seq_relationship" (next sentence, over the pooled output).
//
// The decoder's weight is not registered a second time: parameters() lists each tensor once, as Python's
// module.parameters() does for tied weights, so an optimizer steps it once and counts agree.
class BertForPreTrainingImpl : public torch::nn::Module
{
public:
  explicit BertForPreTrainingImpl(const BertConfig& config);

  BertPreTrainingOutputs forward(const torch::Tensor& input_ids, const torch::Tensor& token_type_ids = {});

  BertModel& bert() { return m_bert; }

private:
  BertModel m_bert{nullptr};
  torch::nn::Linear m_transform_dense{nullptr};
  torch::nn::LayerNorm m_transform_layer_norm{nullptr};
  torch::Tensor m_decoder_bias; // "cls.predictions.bias"
  torch::nn::Linear m_seq_relationship{nullptr};
};
TORCH_MODULE(BertForPreTraining);

// BertForPreTraining's loss, the one BERT was pretrained with: cross-entropy of the masked-LM logits
// against `masked_lm_labels` (batch x sequence; -100 where a token is not masked, and so not scored)
// plus cross-entropy of the next-sentence logits against `next_sentence_labels` (batch; 0 or 1).
torch::Tensor pretraining_loss(const BertPreTrainingOutputs& outputs, const torch::Tensor& masked_lm_labels,
                               const torch::Tensor& next_sentence_labels);

} // namespace layerbench::bench::models
