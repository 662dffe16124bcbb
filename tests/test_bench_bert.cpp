// SPDX-License-Identifier: MIT
// The equality with transformers' BertModel and BertForPreTraining (outputs, operators, counts against
// Python) is checked by tests/python/test_models_reference.py; these tests need no Python.
#include "bench/detail/models/bert.hpp"

#include "bench/detail/models/weights.hpp"
#include "util/error.hpp"

#include <doctest/doctest.h>
#include <torch/torch.h>

using namespace layerbench;
using namespace layerbench::bench::models;

namespace {

BertConfig tiny()
{
  BertConfig config;
  config.vocab_size = 50;
  config.hidden_size = 16;
  config.num_hidden_layers = 2;
  config.num_attention_heads = 4;
  config.intermediate_size = 24;
  config.max_position_embeddings = 20;
  return config;
}

// BertModel's parameters by hand: embeddings and their LayerNorm; per layer Q, K, V, the attention
// output, two LayerNorms, the intermediate and output dense layers; the pooler.
int64_t bert_parameters(const BertConfig& c)
{
  const int64_t h = c.hidden_size, i = c.intermediate_size;
  const int64_t embeddings = (c.vocab_size + c.max_position_embeddings + c.type_vocab_size) * h + 2 * h;
  const int64_t layer = 4 * (h * h + h) + 2 * (2 * h) + (h * i + i) + (i * h + h);
  return embeddings + c.num_hidden_layers * layer + (h * h + h);
}

torch::Tensor token_ids(const BertConfig& config) { return torch::randint(1, config.vocab_size, {2, 7}); }

} // namespace

TEST_CASE("bench::models::bert_base_cased")
{
  SUBCASE("bert-base-cased: 12 layers of 768 with 12 heads, a 28,996-token vocabulary")
  {
    const auto config = bert_base_cased();
    CHECK(config.vocab_size == 28996);
    CHECK(config.num_hidden_layers == 12);
    CHECK(config.hidden_size == 768);
    CHECK(config.num_attention_heads == 12);
    CHECK(config.intermediate_size == 3072);
    CHECK(config.max_position_embeddings == 512);
    CHECK(config.type_vocab_size == 2);
    CHECK(config.layer_norm_eps == 1e-12);
  }

  SUBCASE("bert-large-cased: 24 layers of 1024 with 16 heads")
  {
    const auto config = bert_large_cased();
    CHECK(config.vocab_size == 28996);
    CHECK(config.num_hidden_layers == 24);
    CHECK(config.hidden_size == 1024);
    CHECK(config.num_attention_heads == 16);
    CHECK(config.intermediate_size == 4096);
  }
}

TEST_CASE("bench::models::BertModel")
{
  torch::NoGradGuard no_grad;

  SUBCASE("parameters as counted by hand, with transformers' names")
  {
    BertModel model(tiny());
    CHECK(count_unique_parameters(*model) == bert_parameters(tiny()));
    const auto names = named_state(*model);
    CHECK(names.count("embeddings.word_embeddings.weight") == 1);
    CHECK(names.count("embeddings.LayerNorm.bias") == 1);
    CHECK(names.count("embeddings.position_ids") == 1);
    CHECK(names.count("encoder.layer.1.attention.self.query.weight") == 1);
    CHECK(names.count("encoder.layer.1.attention.output.LayerNorm.weight") == 1);
    CHECK(names.count("encoder.layer.0.intermediate.dense.bias") == 1);
    CHECK(names.count("encoder.layer.0.output.dense.weight") == 1);
    CHECK(names.count("pooler.dense.weight") == 1);
    CHECK(names.count("encoder.layer.2.output.dense.weight") == 0);
  }

  SUBCASE("one hidden state per token and one pooled row per sequence")
  {
    BertModel model(tiny());
    model->eval();
    const auto outputs = model(token_ids(tiny()));
    CHECK(outputs.last_hidden_state.sizes() == torch::IntArrayRef({2, 7, 16}));
    CHECK(outputs.pooler_output.sizes() == torch::IntArrayRef({2, 16}));
    CHECK(outputs.pooler_output.abs().max().item<double>() <= 1.0); // tanh
  }

  SUBCASE("no token types means token type 0 everywhere, and other types change the output")
  {
    BertModel model(tiny());
    model->eval();
    const auto ids = token_ids(tiny());
    const auto implicit = model(ids).last_hidden_state;
    CHECK(torch::equal(implicit, model(ids, torch::zeros_like(ids)).last_hidden_state));
    CHECK_FALSE(torch::allclose(implicit, model(ids, torch::ones_like(ids)).last_hidden_state));
  }

  SUBCASE("a hidden size that the heads do not divide is refused")
  {
    auto config = tiny();
    config.num_attention_heads = 5;
    CHECK_THROWS_AS(BertModel{config}, Error);
  }
}

TEST_CASE("bench::models::BertForPreTraining")
{
  torch::NoGradGuard no_grad;

  SUBCASE("the decoder is the word embeddings: counted once, and it moves the masked-LM logits")
  {
    const auto config = tiny();
    BertForPreTraining model(config);
    model->eval();
    const int64_t h = config.hidden_size;
    // transform (dense, LayerNorm), decoder bias, next-sentence classifier: no second vocab x hidden matrix.
    const int64_t heads = (h * h + h) + 2 * h + config.vocab_size + (2 * h + 2);
    CHECK(count_unique_parameters(*model) == bert_parameters(config) + heads);
    int64_t listed = 0;
    for (const auto& parameter : model->parameters()) {
      listed += parameter.numel();
    }
    CHECK(listed == count_unique_parameters(*model)); // an optimizer sees each tensor once
    const auto ids = token_ids(config);
    const auto before = model(ids).prediction_logits;
    CHECK(before.sizes() == torch::IntArrayRef({2, 7, config.vocab_size}));
    // Not a constant: the transformed hidden state is LayerNorm'd, so its components sum to about zero
    // and adding one value to every weight of the row would barely move the logit (the test was flaky).
    const_cast<torch::Tensor&>(model->bert()->word_embeddings_weight())[3].add_(torch::linspace(-1.0, 1.0, h));
    const auto after = model(ids).prediction_logits;
    CHECK_FALSE(torch::allclose(before.select(-1, 3), after.select(-1, 3)));
  }
}

TEST_CASE("bench::models::pretraining_loss")
{
  SUBCASE("masked-LM cross-entropy over the scored tokens plus next-sentence cross-entropy")
  {
    BertPreTrainingOutputs outputs{torch::randn({2, 3, 5}), torch::randn({2, 2})};
    auto labels = torch::full({2, 3}, -100, torch::kLong);
    labels[0][1] = 4;
    labels[1][2] = 0;
    const auto next = torch::tensor({1, 0}, torch::kLong);
    const auto log_p = outputs.prediction_logits.log_softmax(-1);
    const auto log_q = outputs.seq_relationship_logits.log_softmax(-1);
    const double masked_lm = -(log_p[0][1][4] + log_p[1][2][0]).item<double>() / 2;
    const double next_sentence = -(log_q[0][1] + log_q[1][0]).item<double>() / 2;
    CHECK(pretraining_loss(outputs, labels, next).item<double>() == doctest::Approx(masked_lm + next_sentence));
  }
}
