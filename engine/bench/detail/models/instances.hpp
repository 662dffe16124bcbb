// SPDX-License-Identifier: MIT
#pragma once

// The whole models built in LibTorch with their inputs and training step (catalog/models/entries.hpp says
// what each cell runs): ResNet on random images and class labels, BERT on random token ids with
// masked-LM and next-sentence labels. The data comes from a fixed seed, the same in every run.

#include "bench/detail/builder.hpp"
#include "catalog/models/config.hpp"

namespace layerbench::bench::models {

detail::Instance resnet_instance(const ResNetOptions& options, int64_t batch_size, torch::Device device);

// One BertForPreTraining: inference runs its BertModel, training the whole of it.
detail::Instance bert_instance(const BertConfig& config, int64_t batch_size, torch::Device device);

} // namespace layerbench::bench::models
