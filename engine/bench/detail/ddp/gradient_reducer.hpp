// SPDX-License-Identifier: MIT
#pragma once

// Gradients averaged over the ranks after backward, in buckets, as DistributedDataParallel's reducer
// does (docs/scale.md): parameters in reverse order, since backward produces their gradients roughly
// last layer first; a bucket closed once it holds its cap or more, DDP's 1 MiB for the first and
// 25 MiB for the others by default; one dtype per bucket; each bucket's gradients flattened into one
// tensor, summed over the ranks in one all-reduce and divided by the world size. Unlike DDP, no
// all-reduce starts during backward: they all start after it, so the all-reduce is timed on its own
// and a step's time is forward + backward + all-reduce + optimizer, not overlapped.

#include "bench/detail/ddp/process_group.hpp"

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace layerbench::bench::ddp {

constexpr int64_t k_default_bucket_cap_bytes = 25 * 1024 * 1024; // DDP's bucket_cap_mb = 25
constexpr int64_t k_first_bucket_cap_bytes = 1024 * 1024;         // DDP's _DEFAULT_FIRST_BUCKET_BYTES

struct Bucket
{
  std::vector<size_t> parameters; // indices into the reducer's parameters, in the order they are packed
  int64_t bytes = 0;
};

// The buckets of `parameters`, as described above; the first cap is min(first_cap_bytes, cap_bytes).
std::vector<Bucket> plan_buckets(const std::vector<torch::Tensor>& parameters, int64_t cap_bytes,
                                 int64_t first_cap_bytes = k_first_bucket_cap_bytes);

// Rank 0's parameters and buffers into every rank's module, as DDP does when it wraps a module, so
// that all ranks start from the same weights.
void broadcast_module_state(ProcessGroup& group, torch::nn::Module& module);

class GradientReducer
{
public:
  GradientReducer(ProcessGroup& group, std::vector<torch::Tensor> parameters,
                  int64_t bucket_cap_bytes = k_default_bucket_cap_bytes);

  // Every parameter's gradient becomes its mean over the ranks; a parameter without a gradient counts
  // as a zero gradient, so every rank makes the same all-reduces. Throws Error, within the group's
  // timeout, when a rank has died.
  void reduce();

  // The wall time of the last reduce(), from packing the first bucket to unpacking the last.
  double last_reduce_ms() const { return m_last_reduce_ms; }
  int64_t bucket_cap_bytes() const { return m_bucket_cap_bytes; }
  const std::vector<Bucket>& buckets() const { return m_buckets; }

private:
  torch::Tensor pack(const Bucket& bucket) const;
  void unpack(const Bucket& bucket, const torch::Tensor& flat);

  ProcessGroup& m_group;
  std::vector<torch::Tensor> m_parameters;
  int64_t m_bucket_cap_bytes;
  std::vector<Bucket> m_buckets;
  double m_last_reduce_ms = 0.0;
};

} // namespace layerbench::bench::ddp
