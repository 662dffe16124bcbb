// SPDX-License-Identifier: MIT
#include "bench/cuda_backend.hpp"

#include "bench/cuda_variants.hpp"
#include "bench/nvml.hpp"
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
  explicit CudaBackend(int index) : DeviceBackend(DeviceKind::cuda, index)
  {
    // Streams, events and the caching allocator's "current device" follow this one.
    c10::cuda::set_device(static_cast<c10::DeviceIndex>(index));
    open_nvml(index);
  }

  util::Expected<std::unique_ptr<BlockTimer>> variant_timer(Variant variant, const std::function<void()>& forward) override
  {
    using Result = util::Expected<std::unique_ptr<BlockTimer>>;
    const auto index = this->index();
    try {
      return variant == Variant::graph ? make_graph_timer(forward, index) : make_cold_timer(forward, index);
    } catch (const std::exception& error) {
      return Result::failure(error_line(error));
    }
  }

  std::optional<ClockReading> read_clock() override
  {
    if (!m_nvml) {
      return std::nullopt;
    }
    return m_nvml->read(m_nvml_device);
  }

  std::optional<unsigned> default_clock_mhz() const override { return m_default_clock_mhz; }
  std::string clock_unavailable_reason() const override { return m_clock_unavailable_reason; }

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

  // The caching allocator's allocated bytes (blocks handed to tensors), not its reserved ones: what it
  // keeps cached for reuse is no tensor's. Its canary buffers count here as on the CPU, and are taken
  // off the same way, by the baseline read before the cell is built.
  std::optional<int64_t> live_memory_bytes() override { return allocated_bytes().current; }

  void reset_peak_memory() override
  {
    synchronize();
    c10::cuda::CUDACachingAllocator::resetPeakStats(static_cast<c10::DeviceIndex>(index()));
  }

  std::optional<int64_t> peak_memory_bytes() override { return allocated_bytes().peak; }

  std::optional<int64_t> memory_capacity_bytes() const override
  {
    size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
      return std::nullopt;
    }
    return static_cast<int64_t>(free);
  }

  std::string timer_name() const override { return "cuda-events"; }
  std::string memory_method() const override
  {
    return "CUDA: the caching allocator's peak allocated bytes during one steady-state forward (a train "
           "corner: one training iteration), less the bytes allocated before the cell built its layer and input: "
           "so the layer's parameters and buffers, its input, its output and the forward's scratch tensors, and "
           "nothing else the process holds (not the machine-speed canary's buffers); cuDNN and cuBLAS workspaces "
           "count where they come from the caching allocator.";
  }

  void describe(dataset::Environment& environment) const override
  {
    const auto* properties = at::cuda::getDeviceProperties(static_cast<c10::DeviceIndex>(index()));
    environment.device.type = "cuda";
    environment.device.name = properties->name;
    environment.device.compute_capability = std::to_string(properties->major) + "." + std::to_string(properties->minor);
    environment.device.memory_bytes = static_cast<int64_t>(properties->totalGlobalMem);
    if (properties->l2CacheSize > 0) {
      environment.last_level_cache_bytes = properties->l2CacheSize;
    }
    int driver = 0;
    if (cudaDriverGetVersion(&driver) == cudaSuccess) {
      environment.device.driver = cuda_version_text(driver);
    }
    int runtime = 0;
    if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) {
      environment.device.cuda_runtime = cuda_version_text(runtime);
    }
    if (m_nvml) {
      if (const auto version = m_nvml->driver_version()) {
        environment.device.kernel_driver = *version;
      }
    }
    const long cudnn = at::detail::getCUDAHooks().versionCuDNN();
    environment.device.cudnn = std::to_string(cudnn / 10000) + "." + std::to_string((cudnn / 100) % 100) + "."
                               + std::to_string(cudnn % 100);
  }

private:
  struct AllocatedBytes
  {
    int64_t current = 0;
    int64_t peak = 0;
  };

  AllocatedBytes allocated_bytes()
  {
    synchronize();
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(static_cast<c10::DeviceIndex>(index()));
    const auto& allocated = stats.allocated_bytes[static_cast<size_t>(c10::CachingAllocator::StatType::AGGREGATE)];
    return {allocated.current, allocated.peak};
  }

  // Clocks are read where NVML can be had; without it the run goes on and records why.
  void open_nvml(int index)
  {
    char bus_id[32] = {};
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index) != cudaSuccess) {
      (void)cudaGetLastError();
      m_clock_unavailable_reason = "cudaDeviceGetPCIBusId failed, so the GPU cannot be found in NVML";
      return;
    }
    auto nvml = Nvml::load();
    if (!nvml) {
      m_clock_unavailable_reason = nvml.error();
      return;
    }
    const auto device = (*nvml)->device_by_pci_bus_id(bus_id);
    if (!device) {
      m_clock_unavailable_reason = device.error();
      return;
    }
    m_nvml = std::move(nvml).value();
    m_nvml_device = *device;
    // Without a default clock the clocks are still recorded, but no sample is dropped.
    if (const auto mhz = m_nvml->default_sm_clock_mhz(m_nvml_device)) {
      m_default_clock_mhz = *mhz;
    }
  }

  std::unique_ptr<Nvml> m_nvml;
  Nvml::Device m_nvml_device = nullptr;
  std::optional<unsigned> m_default_clock_mhz;
  std::string m_clock_unavailable_reason;
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
