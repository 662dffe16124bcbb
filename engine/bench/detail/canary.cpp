// SPDX-License-Identifier: MIT
#include "bench/detail/canary.hpp"

#include "bench/detail/torch_device.hpp"
#include "bench/statistics.hpp"

#include <vector>

namespace layerbench::bench::detail {

namespace {

constexpr int64_t k_matmul_size = 256;            // 2*256^3 = 33.6 MFLOP per product
constexpr int64_t k_copy_floats = 8 * 1024 * 1024; // 32 MiB read and 32 MiB written per copy
constexpr int k_repetitions = 7;

double median_ms(DeviceBackend& backend, const std::function<void()>& body)
{
  body(); // one untimed call: the first may still find cold caches or pages
  std::vector<double> times;
  for (int i = 0; i < k_repetitions; ++i) {
    times.push_back(backend.time_block(body, 1).device_seconds * 1e3);
  }
  return quantile(times, 0.5);
}

} // namespace

Canary::Canary(DeviceBackend& backend) : m_backend(backend)
{
  const auto options = torch::TensorOptions().dtype(torch::kFloat32).device(torch_device(backend));
  m_a = torch::randn({k_matmul_size, k_matmul_size}, options);
  m_b = torch::randn({k_matmul_size, k_matmul_size}, options);
  m_product = torch::empty({k_matmul_size, k_matmul_size}, options);
  m_source = torch::randn({k_copy_floats}, options);
  m_target = torch::empty({k_copy_floats}, options);
}

dataset::CanaryTime Canary::measure()
{
  torch::InferenceMode guard;
  dataset::CanaryTime time;
  time.matmul_ms = median_ms(m_backend, [this] { torch::mm_out(m_product, m_a, m_b); });
  time.copy_ms = median_ms(m_backend, [this] { m_target.copy_(m_source); });
  return time;
}

std::string Canary::describe()
{
  return "before each cell, on the run's device and threads: the median of " + std::to_string(k_repetitions)
         + " timings of a 256x256 by 256x256 float32 matrix product (compute-bound) and of a 32 MiB float32 copy "
           "(memory-bound), into buffers allocated once; a cell whose time moves between runs together with "
           "these moved because the machine did";
}

} // namespace layerbench::bench::detail
