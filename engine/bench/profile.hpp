// SPDX-License-Identifier: MIT
#pragma once

// What one forward pass dispatched: the ATen operators with their share of host time (children
// excluded) and, on CUDA, the kernels with their share of device time. Taken with PyTorch's own
// profiler (Kineto), the one `torch.profiler` uses, so the names compare with a Python profile.

#include "dataset/dataset.hpp"

#include <functional>
#include <vector>

namespace layerbench::bench {

struct Profile
{
  std::vector<dataset::Operator> operators; // largest share first
  std::vector<dataset::Kernel> kernels;     // CUDA only
};

enum class ProfileDevice { cpu, cuda };

// Runs `forward` once under the profiler; `synchronize` waits for the device before it stops.
Profile profile_forward(const std::function<void()>& forward, const std::function<void()>& synchronize, ProfileDevice device);

// One operator call as the profiler saw it, for the self-time arithmetic (exposed for tests).
struct OpSpan
{
  std::string name;
  uint64_t thread = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
};

// Operators aggregated by name: calls and self time (duration less the direct children on the same
// thread) over the total self time. Only names starting with "aten::" are kept.
std::vector<dataset::Operator> aggregate_operators(std::vector<OpSpan> spans);

// A profiled name as a dataset can hold it: cut to the readers' string limit, on a character boundary,
// with "..." (a templated CUDA kernel's name can outrun it).
std::string recordable_name(const std::string& name);

} // namespace layerbench::bench
