// SPDX-License-Identifier: MIT
#include "bench/cuda_backend.hpp"

#include "util/error.hpp"

#include <chrono>

#if LAYERBENCH_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <cuda_runtime_api.h>
#endif

namespace layerbench::bench {

#if LAYERBENCH_WITH_CUDA

namespace {

std::string cuda_version_text(int version) // 12040 -> "12.4"
{
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

class CudaBackend final : public DeviceBackend
{
public:
  explicit CudaBackend(int index) : DeviceBackend(torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index)))
  {
    // Streams, events and the caching allocator's "current device" follow this one.
    c10::cuda::set_device(static_cast<c10::DeviceIndex>(index));
  }

  BlockTime time_block(const std::function<void()>& body, int64_t iterations) override
  {
    at::cuda::CUDAEvent start(cudaEventDefault);
    at::cuda::CUDAEvent stop(cudaEventDefault);
    const auto stream = at::cuda::getCurrentCUDAStream();
    const auto host_start = std::chrono::steady_clock::now();
    start.record(stream);
    for (int64_t i = 0; i < iterations; ++i) {
      body();
    }
    stop.record(stream);
    stop.synchronize();
    const std::chrono::duration<double> host = std::chrono::steady_clock::now() - host_start;
    return {start.elapsed_time(stop) / 1000.0, host.count()};
  }

  void synchronize() override { torch::cuda::synchronize(); }

  void reset_peak_memory() override
  {
    synchronize();
    c10::cuda::CUDACachingAllocator::resetPeakStats(device().index());
  }

  std::optional<int64_t> peak_memory_bytes() override
  {
    synchronize();
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(device().index());
    return stats.allocated_bytes[static_cast<size_t>(c10::CachingAllocator::StatType::AGGREGATE)].peak;
  }

  std::string timer_name() const override { return "cuda-events"; }
  std::string memory_method() const override
  {
    return "CUDA: the caching allocator's peak allocated bytes during one steady-state forward "
           "(parameters and input included; cuDNN and cuBLAS workspaces count where they come from "
           "the caching allocator).";
  }

  void describe(dataset::Environment& environment) const override
  {
    const auto* properties = at::cuda::getDeviceProperties(device().index());
    environment.device.type = "cuda";
    environment.device.name = properties->name;
    environment.device.compute_capability = std::to_string(properties->major) + "." + std::to_string(properties->minor);
    environment.device.memory_bytes = static_cast<int64_t>(properties->totalGlobalMem);
    int driver = 0;
    if (cudaDriverGetVersion(&driver) == cudaSuccess) {
      environment.device.driver = cuda_version_text(driver);
    }
    int runtime = 0;
    if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) {
      environment.device.cuda_runtime = cuda_version_text(runtime);
    }
    const long cudnn = at::detail::getCUDAHooks().versionCuDNN();
    environment.device.cudnn = std::to_string(cudnn / 10000) + "." + std::to_string((cudnn / 100) % 100) + "."
                               + std::to_string(cudnn % 100);
  }
};

} // namespace

std::unique_ptr<DeviceBackend> make_cuda_backend(int index)
{
  if (!torch::cuda::is_available()) {
    throw Error("--device cuda: no CUDA device is available (torch::cuda::is_available() is false)");
  }
  const auto count = static_cast<int>(torch::cuda::device_count());
  if (index >= count) {
    throw Error("--device cuda:" + std::to_string(index) + ": there is no such GPU; this machine has " + std::to_string(count)
                + " (cuda:0 to cuda:" + std::to_string(count - 1) + ")");
  }
  return std::make_unique<CudaBackend>(index);
}

#else

std::unique_ptr<DeviceBackend> make_cuda_backend(int /*index*/)
{
  throw Error("--device cuda: this layerbench was built against a torch without CUDA");
}

#endif

} // namespace layerbench::bench
