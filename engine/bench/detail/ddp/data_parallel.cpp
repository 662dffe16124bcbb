// SPDX-License-Identifier: MIT
#include "bench/detail/ddp/data_parallel.hpp"

#include "util/error.hpp"
#include "util/statistics.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <unistd.h>
#include <set>

namespace layerbench::bench::ddp {

namespace {

thread_local DataParallelRun* t_run = nullptr;

torch::Device rank_device(const Rendezvous& rendezvous, DeviceKind device)
{
  if (device == DeviceKind::cuda) {
    return {torch::kCUDA, static_cast<c10::DeviceIndex>(rendezvous.local_rank)};
  }
  return torch::kCPU;
}

// Each tensor once: BERT's decoder shares the word embeddings' weight.
std::vector<torch::Tensor> unique_tensors(const std::vector<torch::Tensor>& tensors)
{
  std::set<const void*> seen;
  std::vector<torch::Tensor> result;
  for (const auto& tensor : tensors) {
    if (seen.insert(tensor.unsafeGetTensorImpl()).second) {
      result.push_back(tensor);
    }
  }
  return result;
}

} // namespace

DataParallelRun::DataParallelRun(const Rendezvous& rendezvous, DeviceKind device, std::chrono::milliseconds timeout)
  : m_group(rendezvous, device, timeout), m_device(rank_device(rendezvous, device))
{
}

detail::Agreement DataParallelRun::agree(double value, bool interrupted)
{
  // A sum in which only rank 0 contributes its value is rank 0's value everywhere.
  auto both = torch::tensor({rank() == 0 ? value : 0.0, interrupted ? 1.0 : 0.0},
                            torch::TensorOptions().dtype(torch::kFloat64).device(m_device));
  const std::string what = "agreeing on the timing loop's next step";
  m_group.wait(m_group.start_sum(both, what), what);
  const auto agreed = both.cpu();
  return {agreed[0].item<double>(), agreed[1].item<double>() > 0};
}

double DataParallelRun::sum_on_first_host(double value)
{
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  // Exact in a double, so that equal names agree exactly.
  const auto host = static_cast<double>(std::hash<std::string>{}(name) % (uint64_t{1} << 52));
  const bool same_host = agree(host, false).value == host;
  auto sum = torch::tensor({same_host ? value : 0.0}, torch::TensorOptions().dtype(torch::kFloat64).device(m_device));
  const std::string what = "summing the CPU time of the ranks on rank 0's host";
  m_group.wait(m_group.start_sum(sum, what), what);
  return sum.cpu().item<double>();
}

void DataParallelRun::start_cell(torch::nn::Module& module, const std::vector<torch::Tensor>& parameters)
{
  broadcast_module_state(m_group, module);
  m_reducer = std::make_unique<GradientReducer>(m_group, unique_tensors(parameters));
  m_reduce_ms.clear();
}

void DataParallelRun::reduce_gradients()
{
  if (!m_reducer) {
    throw Error("a data-parallel step ran before its cell joined the run");
  }
  m_reducer->reduce();
  m_reduce_ms.push_back(m_reducer->last_reduce_ms());
}

dataset::DataParallel DataParallelRun::record(int64_t timed_steps) const
{
  dataset::DataParallel record;
  record.world_size = size();
  record.backend = m_device.is_cuda() ? "nccl" : "gloo";
  if (m_reducer) {
    record.bucket_cap_bytes = m_reducer->bucket_cap_bytes();
    for (const auto& bucket : m_reducer->buckets()) {
      record.bucket_bytes.push_back(bucket.bytes);
    }
  }
  const auto count = std::min<size_t>(m_reduce_ms.size(), static_cast<size_t>(std::max<int64_t>(timed_steps, 1)));
  const std::vector<double> timed(m_reduce_ms.end() - static_cast<std::ptrdiff_t>(count), m_reduce_ms.end());
  if (!timed.empty()) {
    record.all_reduce_median_ms = util::median(timed);
    record.all_reduce_p25_ms = util::quantile(timed, 0.25);
    record.all_reduce_p75_ms = util::quantile(timed, 0.75);
  }
  return record;
}

DataParallelScope::DataParallelScope(DataParallelRun& run) : m_lockstep(run), m_outer(t_run) { t_run = &run; }

DataParallelScope::~DataParallelScope() { t_run = m_outer; }

DataParallelRun* current_run() { return t_run; }

} // namespace layerbench::bench::ddp
