// SPDX-License-Identifier: MIT
#pragma once

// Tensors by name in and out of a module, in the file format of Python's torch.save with a
// {name: tensor} dict. This is how a model built in Python hands its weights, inputs and outputs to the
// C++ model that claims to equal it (tests/python/test_models_reference.py).

#include <torch/torch.h>

#include <filesystem>
#include <map>
#include <string>

namespace layerbench::bench::models {

using NamedTensors = std::map<std::string, torch::Tensor>;

// Reads a file written by torch.save({name: tensor, ...}); throws Error naming the file if it cannot be
// read or holds anything else.
NamedTensors read_named_tensors(const std::filesystem::path& file);

// Writes a file that torch.load reads back as a {name: tensor} dict; with weights_only=True, once
// torch.jit._pickle.restore_type_tag is allowed (torch.serialization.safe_globals): LibTorch tags the
// dict with its type.
void write_named_tensors(const std::filesystem::path& file, const NamedTensors& tensors);

// The module's parameters and buffers by their full names ("layer1.0.bn1.running_mean").
NamedTensors named_state(const torch::nn::Module& module);

// Copies each tensor into the module's parameter or buffer of the same name. The names must match both
// ways, with equal shapes and dtypes; otherwise throws Error listing what is missing, unexpected or
// mismatched, so a model whose structure drifted from its Python twin cannot load silently.
void load_named_tensors(torch::nn::Module& module, const NamedTensors& tensors);

// Elements of the module's parameters, each tensor counted once even where it is registered twice:
// what Python's sum(p.numel() for p in module.parameters()) gives, tied weights included once.
int64_t count_unique_parameters(const torch::nn::Module& module);

} // namespace layerbench::bench::models
