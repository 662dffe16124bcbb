// SPDX-License-Identifier: MIT
#include "bench/cuda_variants.hpp"

#include "bench/detail/sampling.hpp"
#include "util/error.hpp"

#include <chrono>
#include <vector>

#if LAYERBENCH_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGeneratorImpl.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#endif

namespace layerbench::bench {

util::Expected<int64_t> l2_flush_bytes(int64_t l2_cache_bytes)
{
  if (l2_cache_bytes <= 0) {
    return util::Expected<int64_t>::failure("the device reports no L2 cache size (cudaDevAttrL2CacheSize is "
                                            + std::to_string(l2_cache_bytes) + ")");
  }
  constexpr int64_t k_mib = int64_t{1} << 20;
  return (2 * l2_cache_bytes + k_mib - 1) / k_mib * k_mib;
}

#if LAYERBENCH_WITH_CUDA

namespace {

using Clock = std::chrono::steady_clock;

class GraphTimer final : public BlockTimer
{
public:
  GraphTimer(const std::function<void()>& forward, int device_index)
  {
    const auto device = static_cast<c10::DeviceIndex>(device_index);
    auto side = c10::cuda::getStreamFromPool(/*isHighPriority=*/false, device);
    // The side stream starts after what the current stream has queued (the cell's own warm-up).
    at::cuda::CUDAEvent ready;
    ready.record(at::cuda::getCurrentCUDAStream(device));
    ready.block(side);
    c10::cuda::CUDAStreamGuard guard(side);
    // Warm up on the stream that captures: cuBLAS and cuDNN keep handles and workspaces per stream, and
    // they must exist before the capture, which may not allocate them.
    for (int i = 0; i < 3; ++i) {
      forward();
    }
    side.synchronize();
    torch::cuda::synchronize(device_index);
    // A capture puts the device's default generator into capture mode, and only a capture_end that
    // succeeds takes it out: after a refused capture every later random draw on the device (Dropout, an
    // input's randn) failed with "Offset increment outside graph capture encountered unexpectedly" (an
    // H200, torch 2.11). Its state is kept here and given back as a fresh one if the capture fails.
    auto generator = at::cuda::detail::getDefaultCUDAGenerator(device);
    const auto generator_state = generator.get_state();
    m_graph.capture_begin();
    try {
      for (int i = 0; i < k_forwards_per_graph; ++i) {
        forward();
      }
    } catch (...) {
      // End the capture so the stream and the caching allocator leave capture mode, then say why.
      try {
        m_graph.capture_end();
      } catch (...) {
      }
      (void)cudaGetLastError();
      auto fresh = at::make_generator<at::CUDAGeneratorImpl>(device);
      fresh.set_state(generator_state);
      generator.graphsafe_set_state(fresh);
      throw;
    }
    m_graph.capture_end();
  }

  BlockTime time_block(int64_t iterations) override
  {
    at::cuda::CUDAEvent start(cudaEventDefault);
    at::cuda::CUDAEvent stop(cudaEventDefault);
    const auto stream = at::cuda::getCurrentCUDAStream();
    const auto host_start = Clock::now();
    start.record(stream);
    for (int64_t i = 0; i < iterations; ++i) {
      m_graph.replay();
    }
    stop.record(stream);
    stop.synchronize();
    return {start.elapsed_time(stop) / 1000.0, detail::seconds_since(host_start)};
  }

  int forwards_per_iteration() const override { return k_forwards_per_graph; }

  void describe(dataset::CudaCell& cell) const override { cell.graph_forwards_per_replay = k_forwards_per_graph; }

private:
  at::cuda::CUDAGraph m_graph;
};

int64_t l2_cache_bytes(int device_index)
{
  int bytes = 0;
  C10_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device_index));
  return bytes;
}

class ColdTimer final : public BlockTimer
{
public:
  ColdTimer(const std::function<void()>& forward, int device_index) : m_forward(forward)
  {
    const auto bytes = l2_flush_bytes(l2_cache_bytes(device_index));
    if (!bytes) {
      throw Error(bytes.error());
    }
    m_bytes = *bytes;
    m_buffer = torch::empty({m_bytes}, torch::TensorOptions().dtype(torch::kUInt8).device(torch::kCUDA, device_index));
  }

  BlockTime time_block(int64_t iterations) override
  {
    while (static_cast<int64_t>(m_starts.size()) < iterations) {
      m_starts.emplace_back(cudaEventDefault);
      m_stops.emplace_back(cudaEventDefault);
    }
    const auto stream = at::cuda::getCurrentCUDAStream();
    const auto host_start = Clock::now();
    for (int64_t i = 0; i < iterations; ++i) {
      // Outside the timed interval: the events bracket the forward alone, after the write has run.
      C10_CUDA_CHECK(cudaMemsetAsync(m_buffer.data_ptr(), static_cast<int>(i & 0xff), static_cast<size_t>(m_bytes), stream));
      m_starts[i].record(stream);
      m_forward();
      m_stops[i].record(stream);
    }
    m_stops[iterations - 1].synchronize();
    double device = 0;
    for (int64_t i = 0; i < iterations; ++i) {
      device += m_starts[i].elapsed_time(m_stops[i]) / 1000.0;
    }
    return {device, detail::seconds_since(host_start)};
  }

  void describe(dataset::CudaCell& cell) const override { cell.l2_flush_bytes = m_bytes; }

private:
  std::function<void()> m_forward;
  int64_t m_bytes = 0;
  torch::Tensor m_buffer;
  std::vector<at::cuda::CUDAEvent> m_starts;
  std::vector<at::cuda::CUDAEvent> m_stops;
};

} // namespace

std::unique_ptr<BlockTimer> make_graph_timer(const std::function<void()>& forward, int device_index)
{
  return std::make_unique<GraphTimer>(forward, device_index);
}

std::unique_ptr<BlockTimer> make_cold_timer(const std::function<void()>& forward, int device_index)
{
  return std::make_unique<ColdTimer>(forward, device_index);
}

#else

std::unique_ptr<BlockTimer> make_graph_timer(const std::function<void()>& /*forward*/, int /*device_index*/)
{
  throw Error("this layerbench was built against a torch without CUDA");
}

std::unique_ptr<BlockTimer> make_cold_timer(const std::function<void()>& /*forward*/, int /*device_index*/)
{
  throw Error("this layerbench was built against a torch without CUDA");
}

#endif

} // namespace layerbench::bench
