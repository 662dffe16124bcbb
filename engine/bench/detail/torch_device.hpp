// SPDX-License-Identifier: MIT
#pragma once

// The backend's device in torch's terms, for the code that builds tensors on it.

#include "bench/device.hpp"

#include <torch/torch.h>

namespace layerbench::bench::detail {

inline torch::Device torch_device(const DeviceBackend& backend)
{
  if (backend.kind() == DeviceKind::cuda) {
    return {torch::kCUDA, static_cast<c10::DeviceIndex>(backend.index())};
  }
  return torch::kCPU;
}

} // namespace layerbench::bench::detail
