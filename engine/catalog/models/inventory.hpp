// SPDX-License-Identifier: MIT
#pragma once

// A whole model's inventory: each distinct layer configuration one forward runs, at the model's own
// shapes, with how many times it runs and its FLOPs per sample under the catalog's convention
// (catalog/catalog.hpp: 2 per multiply-accumulate; 1 per elementwise add, multiply, compare; BatchNorm in
// eval 2 and LayerNorm 7 per element; softmax 4 and the scale 1 per attention score; transcendental
// functions such as GELU's erf and the pooler's tanh not counted). The model's FLOPs are the sum; its
// layer sum (issue 25) measures each entry as a layer cell. Derived from the architecture as
// resnet.cpp and bert.cpp build it, and checked against them by tests/test_bench_model_entries.cpp.

#include "catalog/models/config.hpp"
#include "catalog/models/model_use.hpp"
#include "dataset/dataset.hpp"

#include <vector>

namespace layerbench::bench::models {

// The same inventories with each use in a form that can be built (catalog/models/model_use.hpp); the
// dataset's inventory is their `use` parts, in the same order.
std::vector<ModelUse> resnet_uses(const ResNetOptions& options, int64_t image_size);
std::vector<ModelUse> bert_uses(const BertConfig& config, int64_t sequence_length);

// torchvision's ResNet on square images of `image_size` (224).
std::vector<dataset::LayerUse> resnet_inventory(const ResNetOptions& options, int64_t image_size);

// transformers' BertModel (embeddings, encoder, pooler) in eval on `sequence_length` tokens.
std::vector<dataset::LayerUse> bert_inventory(const BertConfig& config, int64_t sequence_length);

// The parameters of torchvision's ResNet and of transformers' BertModel (pooler included, heads not), from
// the architecture: each weight and bias tensor once. A test checks them against the built models.
int64_t resnet_parameters(const ResNetOptions& options);
int64_t bert_parameters(const BertConfig& config);

double matmul_flops(const std::vector<dataset::LayerUse>& uses);
double elementwise_flops(const std::vector<dataset::LayerUse>& uses);

// "count*(matmul + elementwise) + ..." with the numbers put in, which evaluates to the total.
std::string flops_values(const std::vector<dataset::LayerUse>& uses);

} // namespace layerbench::bench::models
