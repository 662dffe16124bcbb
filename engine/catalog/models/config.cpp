// SPDX-License-Identifier: MIT
#include "catalog/models/config.hpp"

namespace layerbench::bench::models {

BertConfig bert_base_cased()
{
  BertConfig config;
  config.vocab_size = 28996;
  return config;
}

BertConfig bert_large_cased()
{
  BertConfig config = bert_base_cased();
  config.hidden_size = 1024;
  config.num_hidden_layers = 24;
  config.num_attention_heads = 16;
  config.intermediate_size = 4096;
  return config;
}

} // namespace layerbench::bench::models
