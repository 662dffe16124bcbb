// SPDX-License-Identifier: MIT
#include "bench/detail/ddp/gradient_reducer.hpp"

#include "util/error.hpp"

#include <chrono>
#include <map>

namespace layerbench::bench::ddp {

std::vector<Bucket> plan_buckets(const std::vector<torch::Tensor>& parameters, int64_t cap_bytes, int64_t first_cap_bytes)
{
  if (cap_bytes <= 0) {
    throw Error("the bucket cap must be a positive number of bytes, not " + std::to_string(cap_bytes));
  }
  std::vector<Bucket> closed;
  std::map<c10::ScalarType, Bucket> open; // one open bucket per dtype, as DDP keeps
  for (size_t back = parameters.size(); back > 0; --back) {
    const auto index = back - 1;
    const auto& parameter = parameters[index];
    auto& bucket = open[parameter.scalar_type()];
    bucket.parameters.push_back(index);
    bucket.bytes += parameter.numel() * static_cast<int64_t>(parameter.element_size());
    const auto cap = closed.empty() ? std::min(first_cap_bytes, cap_bytes) : cap_bytes;
    if (bucket.bytes >= cap) {
      closed.push_back(std::move(bucket));
      open.erase(parameter.scalar_type());
    }
  }
  for (auto& [dtype, bucket] : open) {
    closed.push_back(std::move(bucket));
  }
  return closed;
}

void broadcast_module_state(ProcessGroup& group, torch::nn::Module& module)
{
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> state = module.parameters();
  for (const auto& buffer : module.buffers()) {
    state.push_back(buffer);
  }
  group.broadcast_from_first(state, "broadcasting rank 0's weights");
}

GradientReducer::GradientReducer(ProcessGroup& group, std::vector<torch::Tensor> parameters, int64_t bucket_cap_bytes)
  : m_group(group), m_parameters(std::move(parameters)), m_bucket_cap_bytes(bucket_cap_bytes),
    m_buckets(plan_buckets(m_parameters, bucket_cap_bytes))
{
}

torch::Tensor GradientReducer::pack(const Bucket& bucket) const
{
  std::vector<torch::Tensor> flat;
  for (const auto index : bucket.parameters) {
    const auto& parameter = m_parameters[index];
    const auto& gradient = parameter.grad();
    flat.push_back(gradient.defined() ? gradient.reshape({-1}) : torch::zeros({parameter.numel()}, parameter.options()));
  }
  return torch::cat(flat);
}

void GradientReducer::unpack(const Bucket& bucket, const torch::Tensor& flat)
{
  int64_t offset = 0;
  for (const auto index : bucket.parameters) {
    auto& parameter = m_parameters[index];
    const auto mean = flat.narrow(0, offset, parameter.numel()).view(parameter.sizes());
    if (parameter.grad().defined()) {
      parameter.mutable_grad().copy_(mean);
    } else {
      parameter.mutable_grad() = mean.clone();
    }
    offset += parameter.numel();
  }
}

void GradientReducer::reduce()
{
  torch::NoGradGuard no_grad;
  const auto start = std::chrono::steady_clock::now();
  std::vector<torch::Tensor> flats;
  std::vector<c10::intrusive_ptr<c10d::Work>> works;
  const auto what = [this](size_t i) {
    return "the all-reduce of gradient bucket " + std::to_string(i + 1) + " of " + std::to_string(m_buckets.size());
  };
  for (size_t i = 0; i < m_buckets.size(); ++i) {
    flats.push_back(pack(m_buckets[i]));
    works.push_back(m_group.start_sum(flats.back(), what(i)));
  }
  for (size_t i = 0; i < m_buckets.size(); ++i) {
    m_group.wait(works[i], what(i));
    flats[i].div_(m_group.size());
    unpack(m_buckets[i], flats[i]);
  }
  if (!m_parameters.empty() && m_parameters.front().is_cuda()) {
    torch::cuda::synchronize();
  }
  m_last_reduce_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace layerbench::bench::ddp
