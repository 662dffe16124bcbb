// SPDX-License-Identifier: MIT
#pragma once

// A cell's layer built at one corner, in torch's terms: what the measurers time and profile.

#include "bench/detail/builder.hpp"
#include "bench/detail/torch_compat.hpp"
#include "bench/device.hpp"
#include "bench/detail/models/grad_scaler.hpp"
#include "dataset/axes.hpp"

#include <torch/torch.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace layerbench::bench::detail {

// The grad mode a corner runs in, for the whole cell: building the layer included, so that an
// inference-mode layer holds inference tensors and a training layer ordinary ones.
class GradScope
{
public:
  explicit GradScope(dataset::GradMode mode);

private:
  std::optional<c10::InferenceMode> m_inference;
  std::optional<torch::NoGradGuard> m_no_grad;
};

// What autograd::grad differentiates for: the input where it is floating point (not Embedding's
// indices), the parameters where the layer has any.
struct GradTargets
{
  std::vector<torch::Tensor> input;
  std::vector<torch::Tensor> weights;
  std::vector<torch::Tensor> both;
};

enum class RetainGraph { no, yes };

// The gradients of `output` (seeded with `seed`) for `of`; unused targets are allowed.
torch::autograd::variable_list gradients(const torch::Tensor& output,
                                         const std::vector<torch::Tensor>& of,
                                         const torch::Tensor& seed,
                                         RetainGraph retain);

// A cell's module and input at one corner, and what one timed iteration runs: the forward, or for a
// train corner the forward and its gradients; for a whole model's train corner, its training step
// (zero_grad, the loss under the corner's autocast, backward, the optimizer step; fp16 through a
// gradient scaler, as Python's torch.amp recipe takes it). It stays where it was built: the callables refer to it.
class CellBody
{
public:
  // A compiled=aot_inductor corner runs the package `aoti_package` on the instance's input; one that
  // cannot be loaded throws Error saying how to get a fresh one.
  CellBody(const LayerSpec& spec,
           int batch_size,
           const dataset::Axes& axes,
           DeviceBackend& backend,
           const std::filesystem::path& aoti_package);
  CellBody(const CellBody&) = delete;
  CellBody& operator=(const CellBody&) = delete;

  std::function<torch::Tensor()> forward;
  std::function<void()> body;
  GradTargets targets; // train corners of layers only
  // How many times the input was copied elsewhere because its output shared its low address bits
  // (detail/placement.hpp); host forwards of layers only.
  int input_moves = 0;

private:
  void train_model(dataset::Precision precision, c10::DeviceType device_type);
  void place_input_apart();

  Instance m_instance;
  std::unique_ptr<AotiPackage> m_package;
  torch::Tensor m_seed;
  std::optional<models::GradScaler> m_scaler; // fp16 training steps
};

} // namespace layerbench::bench::detail
