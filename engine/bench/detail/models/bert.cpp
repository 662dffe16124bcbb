// SPDX-License-Identifier: MIT
#include "bench/detail/models/bert.hpp"

#include "bench/detail/models/python_calls.hpp"
#include "bench/detail/torch_compat.hpp"

#include "util/error.hpp"

#include <cmath>
#include <string>

namespace layerbench::bench::models {

namespace nn = torch::nn;

namespace {

// A module that only groups names, as transformers' BertAttention, BertIntermediate, BertEncoder,
// BertPooler and the heads' containers do: the parameters keep their Python names while the forward
// stays in one place.
std::shared_ptr<nn::Module> group(nn::Module& parent, const std::string& name)
{
  return parent.register_module(name, std::make_shared<nn::Module>());
}

nn::LayerNorm layer_norm(const BertConfig& config)
{
  return nn::LayerNorm(nn::LayerNormOptions({config.hidden_size}).eps(config.layer_norm_eps));
}

// transformers' BertPreTrainedModel._init_weights: Linear and Embedding weights from N(0, std), the
// padding row and every bias zero, LayerNorm at scale 1 and shift 0.
void init_like_transformers(nn::Module& model, const BertConfig& config)
{
  torch::NoGradGuard no_grad;
  for (const auto& module : model.modules(/*include_self=*/false)) {
    if (auto* linear = module->as<nn::Linear>()) {
      nn::init::normal_(linear->weight, 0.0, config.initializer_range);
      nn::init::zeros_(linear->bias);
    } else if (auto* embedding = module->as<nn::Embedding>()) {
      nn::init::normal_(embedding->weight, 0.0, config.initializer_range);
      if (const auto padding = embedding->options.padding_idx()) {
        embedding->weight[*padding].zero_();
      }
    } else if (auto* norm = module->as<nn::LayerNorm>()) {
      nn::init::ones_(norm->weight);
      nn::init::zeros_(norm->bias);
    }
  }
}

void check(const BertConfig& config)
{
  if (config.num_attention_heads <= 0 || config.hidden_size % config.num_attention_heads != 0) {
    throw Error("BERT: the hidden size (" + std::to_string(config.hidden_size) + ") is not a multiple of the number of attention heads ("
                + std::to_string(config.num_attention_heads) + ")");
  }
}

} // namespace

BertEmbeddingsImpl::BertEmbeddingsImpl(const BertConfig& config)
{
  m_word_embeddings = register_module(
      "word_embeddings", nn::Embedding(nn::EmbeddingOptions(config.vocab_size, config.hidden_size).padding_idx(config.pad_token_id)));
  m_position_embeddings = register_module("position_embeddings", nn::Embedding(config.max_position_embeddings, config.hidden_size));
  m_token_type_embeddings = register_module("token_type_embeddings", nn::Embedding(config.type_vocab_size, config.hidden_size));
  m_layer_norm = register_module("LayerNorm", layer_norm(config));
  m_dropout = register_module("dropout", nn::Dropout(config.hidden_dropout_prob));
  // Not persistent in Python (absent from its state_dict), but buffers there as here.
  m_position_ids = register_buffer("position_ids", torch::arange(config.max_position_embeddings).unsqueeze(0));
  m_token_type_ids = register_buffer("token_type_ids", torch::zeros({1, config.max_position_embeddings}, torch::kLong));
}

torch::Tensor BertEmbeddingsImpl::forward(const torch::Tensor& input_ids, torch::Tensor token_type_ids)
{
  const int64_t batch = input_ids.size(0), length = input_ids.size(1);
  const auto position_ids = m_position_ids.slice(1, 0, length);
  if (!token_type_ids.defined()) {
    const auto buffered = torch::gather(m_token_type_ids.expand({position_ids.size(0), -1}), 1, position_ids);
    token_type_ids = buffered.expand({batch, length});
  }
  auto embeddings = m_word_embeddings(input_ids) + m_token_type_embeddings(token_type_ids);
  embeddings = embeddings + m_position_embeddings(position_ids);
  return m_dropout(m_layer_norm(embeddings));
}

BertSelfAttentionImpl::BertSelfAttentionImpl(const BertConfig& config)
    : m_head_size(config.hidden_size / config.num_attention_heads), m_scaling(std::pow(static_cast<double>(m_head_size), -0.5))
{
  m_query = register_module("query", nn::Linear(config.hidden_size, config.hidden_size));
  m_key = register_module("key", nn::Linear(config.hidden_size, config.hidden_size));
  m_value = register_module("value", nn::Linear(config.hidden_size, config.hidden_size));
  m_dropout = register_module("dropout", nn::Dropout(config.attention_probs_dropout_prob));
}

namespace {

// transformers' eager_attention_forward without a mask: the scores scaled by multiplication, softmax
// in float32 cast back, dropout, and the weighted sum. Its additive mask of zeros (from an all-ones
// attention mask) is left out, as the sdpa path drops it.
torch::Tensor eager_attention(const torch::Tensor& query, const torch::Tensor& key, const torch::Tensor& value,
                              double dropout, double scaling)
{
  auto weights = torch::matmul(query, key.transpose(2, 3)) * scaling;
  weights = torch::softmax(weights, -1, torch::kFloat32).to(query.scalar_type());
  weights = torch::dropout(weights, dropout, dropout > 0);
  return torch::matmul(weights, value);
}

} // namespace

torch::Tensor BertSelfAttentionImpl::forward(const torch::Tensor& hidden_states)
{
  const int64_t batch = hidden_states.size(0), length = hidden_states.size(1);
  const auto heads = [&](const nn::Linear& projection) {
    return linear(projection, hidden_states).view({batch, length, -1, m_head_size}).transpose(1, 2);
  };
  const auto query = heads(m_query), key = heads(m_key), value = heads(m_value);
  const double dropout = is_training() ? m_dropout->options.p() : 0.0;
  // transformers picks "sdpa" only on a torch with scaled_dot_product_attention's scale (its check asks
  // for 2.1.1); on older releases it runs its eager attention, and so does this one there.
  static const bool sdpa = !missing_here(TorchFeature::sdpa_scale);
  auto context = sdpa ? detail::sdpa_scaled(query, key, value, dropout, m_scaling)
                      : eager_attention(query, key, value, dropout, m_scaling);
  // transformers' sdpa_attention_forward reshapes to the shape the result already has (it undoes a
  // grouped-query packing BERT never does); kept, as it dispatches an aten::reshape.
  context = context.reshape({context.size(0), -1, length, value.size(-1)});
  context = context.transpose(1, 2).contiguous();
  return context.reshape({batch, length, -1}).contiguous();
}

BertResidualOutputImpl::BertResidualOutputImpl(const BertConfig& config, int64_t in_features)
{
  m_dense = register_module("dense", nn::Linear(in_features, config.hidden_size));
  m_layer_norm = register_module("LayerNorm", layer_norm(config));
  m_dropout = register_module("dropout", nn::Dropout(config.hidden_dropout_prob));
}

torch::Tensor BertResidualOutputImpl::forward(const torch::Tensor& hidden_states, const torch::Tensor& residual)
{
  return m_layer_norm(m_dropout(linear(m_dense, hidden_states)) + residual);
}

BertLayerImpl::BertLayerImpl(const BertConfig& config)
{
  auto attention = group(*this, "attention");
  m_self_attention = attention->register_module("self", BertSelfAttention(config));
  m_attention_output = attention->register_module("output", BertResidualOutput(config, config.hidden_size));
  m_intermediate_dense = group(*this, "intermediate")->register_module("dense", nn::Linear(config.hidden_size, config.intermediate_size));
  m_output = register_module("output", BertResidualOutput(config, config.intermediate_size));
}

torch::Tensor BertLayerImpl::forward(const torch::Tensor& hidden_states)
{
  const auto attention_output = m_attention_output(m_self_attention(hidden_states), hidden_states);
  // BertIntermediate: transformers' "gelu" is the exact (erf) GELU.
  const auto intermediate = torch::gelu(linear(m_intermediate_dense, attention_output));
  return m_output(intermediate, attention_output);
}

BertModelImpl::BertModelImpl(const BertConfig& config) : m_config(config)
{
  check(config);
  m_embeddings = register_module("embeddings", BertEmbeddings(config));
  m_layers = group(*this, "encoder")->register_module("layer", nn::ModuleList());
  for (int64_t i = 0; i < config.num_hidden_layers; ++i) {
    m_layers->push_back(BertLayer(config));
  }
  m_pooler_dense = group(*this, "pooler")->register_module("dense", nn::Linear(config.hidden_size, config.hidden_size));
  init_like_transformers(*this, config);
}

BertOutputs BertModelImpl::forward(const torch::Tensor& input_ids, const torch::Tensor& token_type_ids)
{
  auto hidden_states = m_embeddings(input_ids, token_type_ids);
  for (const auto& layer : *m_layers) {
    hidden_states = layer->as<BertLayer>()->forward(hidden_states);
  }
  // BertPooler: the first token's hidden state, hidden_states[:, 0] in Python.
  auto pooled = torch::tanh(linear(m_pooler_dense, hidden_states.select(1, 0)));
  return {hidden_states, pooled};
}

BertForPreTrainingImpl::BertForPreTrainingImpl(const BertConfig& config)
{
  m_bert = register_module("bert", BertModel(config));
  auto cls = group(*this, "cls");
  auto predictions = group(*cls, "predictions");
  m_decoder_bias = predictions->register_parameter("bias", torch::zeros({config.vocab_size}));
  auto transform = group(*predictions, "transform");
  m_transform_dense = transform->register_module("dense", nn::Linear(config.hidden_size, config.hidden_size));
  m_transform_layer_norm = transform->register_module("LayerNorm", layer_norm(config));
  m_seq_relationship = cls->register_module("seq_relationship", nn::Linear(config.hidden_size, 2));
  init_like_transformers(*cls, config);
}

BertPreTrainingOutputs BertForPreTrainingImpl::forward(const torch::Tensor& input_ids, const torch::Tensor& token_type_ids)
{
  const auto outputs = m_bert(input_ids, token_type_ids);
  // BertPredictionHeadTransform, then the decoder: nn.Linear in Python with its weight tied to the word
  // embeddings and its bias to cls.predictions.bias, so one aten::linear.
  auto transformed = m_transform_layer_norm(torch::gelu(linear(m_transform_dense, outputs.last_hidden_state)));
  auto prediction_logits = torch::linear(transformed, m_bert->word_embeddings_weight(), m_decoder_bias);
  return {prediction_logits, linear(m_seq_relationship, outputs.pooler_output)};
}

torch::Tensor pretraining_loss(const BertPreTrainingOutputs& outputs, const torch::Tensor& masked_lm_labels,
                               const torch::Tensor& next_sentence_labels)
{
  // As BertForPreTraining.forward computes it: CrossEntropyLoss (mean, ignore_index -100) on each head.
  const int64_t vocab_size = outputs.prediction_logits.size(-1);
  namespace F = nn::functional;
  const auto masked_lm = F::cross_entropy(outputs.prediction_logits.view({-1, vocab_size}), masked_lm_labels.view(-1));
  const auto next_sentence = F::cross_entropy(outputs.seq_relationship_logits.view({-1, 2}), next_sentence_labels.view(-1));
  return masked_lm + next_sentence;
}

} // namespace layerbench::bench::models
