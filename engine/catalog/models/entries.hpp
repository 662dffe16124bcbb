// SPDX-License-Identifier: MIT
#pragma once

// The whole models as catalog entries beside the layers (issue 25): each builds its model and a batch
// of input on a device, and the training step a train corner times.
//
// Inference (modes inference_mode and no_grad): eval(), the forward only. ResNet50 is torchvision's
// resnet50 on B x 3 x 224 x 224 images; BertBase and BertLarge are transformers' BertModel on B x 128
// token ids (no padding, so no attention mask).
// Training (mode train): train(), then zero_grad (set to none), the loss, backward and the optimizer
// step, as a Python training loop runs them: ResNet50 cross-entropy against class labels with SGD
// (momentum 0.9, weight decay 1e-4, lr 1e-3); BERT BertForPreTraining's pretraining loss (masked-LM on
// 15% of the tokens plus next-sentence) with AdamW (lr 1e-4, weight decay 0.01). The learning rates are
// small so that thousands of timed steps on random data keep the weights finite.

#include "catalog/catalog.hpp"
#include "catalog/models/config.hpp"
#include "catalog/models/model_use.hpp"

#include <string>
#include <vector>

namespace layerbench::bench::models {

std::vector<LayerSpec> model_entries();

// The architecture of a model of that family, or nullptr where `name` is not one; the entry carries the
// same in its `shape`, which picks its builder. For tests that build a family's model directly.
const ResNetOptions* resnet_options(const std::string& name);
const BertConfig* bert_config(const std::string& name);

// A model's inventory in a form that can be built, in the order of its layers[].contains (its layer
// sum, catalog/models/layer_sum.hpp). Throws Error for a name that is no model.
std::vector<ModelUse> model_uses(const std::string& model);

} // namespace layerbench::bench::models
