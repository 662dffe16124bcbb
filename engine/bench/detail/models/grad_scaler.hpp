// SPDX-License-Identifier: MIT
#pragma once

// torch.amp.GradScaler for the fp16 training corners, as Python's runs it (torch/amp/grad_scaler.py):
// the loss multiplied by the scale (65536 at first); after backward the gradients unscaled and checked
// for infinities in one aten::_amp_foreach_non_finite_check_and_unscale_; the optimizer step skipped
// when one was found (read back with .item(), a synchronisation, as Python's step does); then
// aten::_amp_update_scale_ (growth 2 every 2000 clean steps, backoff 0.5). LibTorch has no C++ class.

#include <torch/torch.h>

#include <functional>
#include <vector>

namespace layerbench::bench::models {

class GradScaler
{
public:
  torch::Tensor scale(const torch::Tensor& loss);
  // Unscales the gradients of `parameters`, runs `step` unless one is not finite, updates the scale.
  // Returns whether the step ran.
  bool step_and_update(const std::vector<torch::Tensor>& parameters, const std::function<void()>& step);

private:
  torch::Tensor m_scale;          // float32 scalar on the loss's device
  torch::Tensor m_growth_tracker; // int32 scalar
};

} // namespace layerbench::bench::models
