// SPDX-License-Identifier: MIT
#pragma once

// The machine's own speed at the moment a cell starts, from two fixed workloads timed right before
// it: a compute-bound matrix product and a memory-bound copy. On a shared host the same cell can run
// 30 % slower in one process than in the next while neither the code nor the allocator changed;
// the canary moving with the cell says the machine did, and it is recorded beside every cell.

#include "bench/device.hpp"
#include "dataset/dataset.hpp"

#include <torch/torch.h>

namespace layerbench::bench::detail {

class Canary
{
public:
  // Allocates its tensors once, so timing it takes no page faults and changes no allocator history.
  explicit Canary(DeviceBackend& backend);

  // Medians of a few timed repetitions of each workload: a few tens of milliseconds in all.
  dataset::CanaryTime measure();

  // What the two workloads are, for the methodology.
  static std::string describe();

private:
  DeviceBackend& m_backend;
  torch::Tensor m_a, m_b, m_product;
  torch::Tensor m_source, m_target;
};

} // namespace layerbench::bench::detail
