// SPDX-License-Identifier: MIT
#pragma once

// The attention layers as Python's torch.nn runs them. LibTorch's C++ modules dispatch other ATen
// operators than Python's for the same configuration: C++ multi_head_attention_forward compares
// query, key and value with torch::equal on every call (Python compares object identity), and C++
// TransformerEncoderLayer asks its attention for the weights (bmm + softmax) where Python's asks for
// none and calls scaled_dot_product_attention. These functions call, in order, the ATen operators of
// the Python code of the release given, the one built with unless a test says otherwise
// (torch/nn/functional.py multi_head_attention_forward with q is k is v, no masks, eval;
// torch/nn/modules/transformer.py TransformerEncoderLayer, post-norm, batch_first False, so neither
// takes a fast path, in 1.13 as in 2.x). tests/bench_opset_check.py keeps them equal to Python's.
// Where the releases' Python differs is bench/torch_release.hpp's table (scaled_dot_product_attention,
// mha_scale_by_multiplication): 1.13's computes the weights even when it returns none.

#include "bench/torch_release.hpp"

#include <torch/torch.h>

namespace layerbench::bench::detail {

enum class NeedWeights { no, yes };

// Self-attention (query = key = value = x, sequence-first) with the module's parameters. Returns the
// attention output; with NeedWeights::yes the head-averaged weights are computed too, as Python's
// default call does, and discarded.
torch::Tensor self_attention_like_python(torch::nn::MultiheadAttentionImpl& attention, const torch::Tensor& x, NeedWeights need_weights,
                                        TorchRelease python = built_torch_release());

// One post-norm encoder layer in eval, ReLU feed-forward, as Python's TransformerEncoderLayer.forward.
torch::Tensor encoder_layer_like_python(torch::nn::TransformerEncoderLayerImpl& layer, const torch::Tensor& x,
                                        TorchRelease python = built_torch_release());

} // namespace layerbench::bench::detail
