// SPDX-License-Identifier: MIT
#include "bench/peaks.hpp"

#include "bench/cache_levels.hpp"

#include "bench/detail/torch_compat.hpp"
#include "bench/detail/torch_device.hpp"
#include "bench/torch_error.hpp"
#include "util/format.hpp"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <algorithm>
#include <fstream>
#include <functional>
#include <vector>

namespace layerbench::bench {

namespace {

// Sizes: on 2 vCPUs a 1024^3 float32 product takes ~20 ms and the triad ~20 ms, so the CPU peaks
// cost about 1 to 3 s; on a GPU the products are large enough to fill the tensor cores.
constexpr int64_t k_cpu_matrix = 1024;
constexpr int64_t k_cuda_matrix = 8192;
constexpr int64_t k_cpu_triad_floats = int64_t{1} << 25;  // 128 MiB per array: past a server CPU's last-level cache
constexpr int64_t k_cuda_triad_floats = int64_t{1} << 27; // 512 MiB per array: 10x an H100's L2
// Each peak stops sampling here even if the noise target is not met, so the peaks stay a few seconds.
constexpr double k_budget_seconds = 1.0;

struct Precision
{
  const char* name;
  torch::ScalarType dtype;
  bool tf32;              // float32 inputs, TF32 tensor-core matmul
  const char* dtype_name; // as PyTorch's Python names it
};

// Native bf16 arithmetic, as the kernel reports it (Linux /proc/cpuinfo flags).
bool cpu_has_native_bf16()
{
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) == 0) {
      return line.find(" avx512_bf16") != std::string::npos || line.find(" amx_bf16") != std::string::npos;
    }
  }
  return false;
}

std::vector<Precision> precisions(const torch::Device& device, std::vector<std::string>& left_out)
{
  if (device.is_cuda()) {
    return {{"fp32", torch::kFloat32, false, "float32"}, {"tf32", torch::kFloat32, true, "float32"},
            {"bf16", torch::kBFloat16, false, "bfloat16"}, {"fp16", torch::kFloat16, false, "float16"}};
  }
  // Without native bf16 instructions the CPU emulates it, slower than fp32: no peak worth holding a
  // cell against, and seconds spent.
  if (cpu_has_native_bf16()) {
    return {{"fp32", torch::kFloat32, false, "float32"}, {"bf16", torch::kBFloat16, false, "bfloat16"}};
  }
  left_out.push_back("bf16: this CPU has no native bf16 instructions (AVX512-BF16 or AMX)");
  return {{"fp32", torch::kFloat32, false, "float32"}};
}

MeasureSettings peak_settings(const MeasureSettings& cells)
{
  MeasureSettings settings = cells;
  settings.stopping.budget_seconds = std::min(cells.stopping.budget_seconds, k_budget_seconds);
  return settings;
}

// Sets TF32 for CUDA matmuls while alive; IEEE again after, as every cell ran.
class Tf32Matmul
{
public:
  explicit Tf32Matmul(bool on) : m_on(on)
  {
    if (m_on) {
      detail::set_float32_precision(detail::Float32Backend::cuda, detail::Float32Op::matmul, detail::Float32Math::tf32);
    }
  }
  ~Tf32Matmul()
  {
    if (m_on) {
      use_ieee_float32();
    }
  }
  Tf32Matmul(const Tf32Matmul&) = delete;
  Tf32Matmul& operator=(const Tf32Matmul&) = delete;

private:
  bool m_on;
};

void record(dataset::PeakRate& peak, const SteadyTiming& timing)
{
  peak.median_ms = timing.summary.median;
  peak.best_ms = timing.summary.min;
  peak.rate = peak.work / (timing.summary.min / 1000.0);
  peak.noise = timing.summary.noise;
  peak.samples = timing.summary.count;
  peak.noise_target_met = timing.verdict == Verdict::target_met;
}

// nullopt when interrupted; throws when the device cannot run it.
std::optional<dataset::PeakRate> matmul_peak(DeviceBackend& backend, const Precision& precision, int64_t n,
                                             const MeasureSettings& settings, const std::atomic<bool>& interrupted)
{
  const auto options = torch::TensorOptions().dtype(precision.dtype).device(detail::torch_device(backend));
  auto a = torch::randn({n, n}, options);
  auto b = torch::randn({n, n}, options);
  auto product = torch::empty({n, n}, options);
  const Tf32Matmul tf32(precision.tf32);
  const auto timing = time_steady_state(backend, [&] { torch::mm_out(product, a, b); }, settings, interrupted);
  if (!timing) {
    return std::nullopt;
  }
  const std::string size = std::to_string(n);
  dataset::PeakRate peak;
  peak.name = precision.name;
  peak.operation = std::string(precision.dtype_name) + (precision.tf32 ? " (TF32 tensor-core math)" : "")
                   + " matrix product " + size + "x" + size + " by " + size + "x" + size + " (torch::mm_out), 2*"
                   + size + "^3 FLOP";
  peak.work = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  record(peak, *timing);
  return peak;
}

// The CPU's fp32 peak has a second candidate: a convolution, which oneDNN runs with its own JIT code
// (AVX-512 where the CPU has it), while MKL's matrix product takes slower generic paths on some CPUs
// (AMD's): a 2-vCPU EPYC VM's oneDNN convolutions ran at 2.2x its MKL product, above a "peak" that
// no cell can pass. 3x3, 256 to 256 channels, 28x28 with padding 1, batch 4: 2*256*256*9*28*28*4 FLOP.
std::optional<dataset::PeakRate> convolution_peak(DeviceBackend& backend, const MeasureSettings& settings,
                                                  const std::atomic<bool>& interrupted)
{
  constexpr int64_t batch = 4, channels = 256, side = 28, kernel = 3;
  const auto options = torch::TensorOptions().dtype(torch::kFloat32).device(detail::torch_device(backend));
  auto input = torch::randn({batch, channels, side, side}, options);
  auto weight = torch::randn({channels, channels, kernel, kernel}, options);
  const auto timing = time_steady_state(
    backend, [&] { (void)torch::conv2d(input, weight, {}, /*stride=*/1, /*padding=*/1); }, settings, interrupted);
  if (!timing) {
    return std::nullopt;
  }
  dataset::PeakRate peak;
  peak.name = "fp32";
  peak.operation = "float32 convolution 3x3, 256 to 256 channels, 28x28 with padding 1, batch 4 (torch::conv2d, "
                   "oneDNN on the CPU), 2*256*256*9*28*28*4 FLOP; faster here than the "
                   + std::to_string(k_cpu_matrix) + "^3 matrix product, which is what the fp32 peak keeps";
  peak.work = 2.0 * channels * channels * kernel * kernel * side * side * batch;
  record(peak, *timing);
  return peak;
}

std::optional<dataset::PeakRate> triad_peak(DeviceBackend& backend, int64_t floats, const MeasureSettings& settings,
                                            const std::atomic<bool>& interrupted)
{
  const auto options = torch::TensorOptions().dtype(torch::kFloat32).device(detail::torch_device(backend));
  auto a = torch::empty({floats}, options);
  auto b = torch::randn({floats}, options);
  auto c = torch::randn({floats}, options);
  const auto timing = time_steady_state(backend, [&] { torch::add_out(a, b, c, 3.0); }, settings, interrupted);
  if (!timing) {
    return std::nullopt;
  }
  const std::string size = util::format_bytes(4.0 * static_cast<double>(floats));
  dataset::PeakRate peak;
  peak.name = "triad";
  peak.operation = "a = b + 3*c over three float32 arrays of " + size + " (torch::add_out): b and c read, a written, "
                   "3 x " + size + " per pass";
  peak.work = 3.0 * 4.0 * static_cast<double>(floats);
  record(peak, *timing);
  return peak;
}

// A cache level's triad: its three arrays fill half of what the run's threads reach at that level, so the
// level holds them with room for everything else, and the triad at the level below cannot.
std::optional<dataset::CachePeak> cache_peak(DeviceBackend& backend, const std::string& level, int64_t reachable,
                                             const std::string& source, const MeasureSettings& settings,
                                             const std::atomic<bool>& interrupted)
{
  const int64_t floats = reachable / 2 / (3 * 4);
  auto triad = triad_peak(backend, floats, settings, interrupted);
  if (!triad) {
    return std::nullopt;
  }
  triad->operation += ", sized to fit " + level;
  return dataset::CachePeak{level, reachable, source, std::move(*triad)};
}

// The CPU's L2 and L3 (the levels a cell's working set may sit in and pass the memory's roof); L1 is
// left out: a triad that small would time the operator's call, not the cache. Levels the kernel does
// not describe are named in the method text.
bool cpu_cache_peaks(DeviceBackend& backend, const MeasureSettings& settings, const std::atomic<bool>& interrupted,
                     dataset::Peaks& peaks, std::vector<std::string>& left_out)
{
  const auto levels = cpu_cache_levels();
  const int threads = at::get_num_threads();
  for (const int wanted : {2, 3}) {
    const auto found = std::find_if(levels.begin(), levels.end(), [&](const CacheLevel& level) { return level.level == wanted; });
    const std::string name = "L" + std::to_string(wanted);
    if (found == levels.end()) {
      left_out.push_back(name + " bandwidth: " + std::string(k_cpu_cache_root) + " does not describe an " + name
                         + " data cache, so its size is unknown");
      continue;
    }
    const int64_t reachable = reachable_bytes(*found, threads);
    const std::string source = found->source + ", x " + std::to_string((reachable / found->size_bytes)) + " for "
                               + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
    try {
      auto peak = cache_peak(backend, name, reachable, source, settings, interrupted);
      if (!peak) {
        return false;
      }
      peaks.caches.push_back(std::move(*peak));
    } catch (const std::exception& error) {
      left_out.push_back(name + " bandwidth: " + error_line(error));
    }
  }
  return true;
}

// A GPU's L2 (its size as the CUDA runtime reports it).
bool cuda_cache_peaks(DeviceBackend& backend, const MeasureSettings& settings, const std::atomic<bool>& interrupted,
                      dataset::Peaks& peaks, std::vector<std::string>& left_out)
{
  dataset::Environment environment;
  backend.describe(environment);
  if (!environment.last_level_cache_bytes) {
    left_out.push_back("L2 bandwidth: the CUDA runtime gave no L2 size");
    return true;
  }
  const auto size = *environment.last_level_cache_bytes;
  try {
    auto peak = cache_peak(backend, "L2", size, "cudaDeviceProp::l2CacheSize: " + util::format_bytes(static_cast<double>(size)),
                           settings, interrupted);
    if (!peak) {
      return false;
    }
    peaks.caches.push_back(std::move(*peak));
  } catch (const std::exception& error) {
    left_out.push_back("L2 bandwidth: " + error_line(error));
  }
  return true;
}

std::string method_text(const MeasureSettings& settings, const std::vector<std::string>& left_out)
{
  std::string text = "after the last cell, on the run's device and threads, with the cells' timing and noise rules "
                     "(warm-up, a block of back-to-back iterations grown to "
                     + util::format_significant(settings.block_target_seconds * 1000, 3)
                     + " ms, samples until the noise target or " + util::format_significant(settings.stopping.budget_seconds, 2)
                     + " s per peak): the time of a dense square matrix product per precision, into a "
                       "preallocated output, counted as 2*N^3 FLOP (on the CPU, fp32 also as a 3x3 convolution, the faster "
                       "of the two kept: oneDNN's own code outruns MKL's product on some CPUs); and of a triad a = b + 3*c over three float32 "
                       "arrays well past the last-level cache, counted as the bytes read plus written (2 arrays read, "
                       "1 written; write-allocate traffic not counted, as STREAM counts it); and of the same triad sized to fill half of "
                       "each cache level the run's threads reach (L2 and L3 on the CPU, sizes from Linux's sysfs; L2 on "
                       "a GPU), the roof of a cell whose working set fits there. Each rate is taken "
                       "from the fastest sample, as STREAM reports its best rate: a roof is what the device can do, and "
                       "a sample slowed by other work on the machine says less of that (a median roof measured at a "
                       "busy moment sat below cells measured at a quieter one). Each peak keeps its median, its "
                       "noise and whether it met the target.";
  for (const auto& reason : left_out) {
    text += " Not measured: " + reason + ".";
  }
  return text;
}

} // namespace

std::optional<dataset::Peaks> measure_peaks(DeviceBackend& backend,
                                            const MeasureSettings& cell_settings,
                                            const std::atomic<bool>& interrupted)
{
  torch::InferenceMode guard;
  const bool cuda = backend.kind() == DeviceKind::cuda;
  const auto settings = peak_settings(cell_settings);
  std::vector<std::string> left_out;
  dataset::Peaks peaks;
  for (const auto& precision : precisions(detail::torch_device(backend), left_out)) {
    try {
      auto peak = matmul_peak(backend, precision, cuda ? k_cuda_matrix : k_cpu_matrix, settings, interrupted);
      if (!peak) {
        return std::nullopt;
      }
      if (!cuda && std::string(precision.name) == "fp32") {
        auto convolution = convolution_peak(backend, settings, interrupted);
        if (!convolution) {
          return std::nullopt;
        }
        if (convolution->rate > peak->rate) {
          convolution->operation += " (" + util::format_rate(peak->rate, "FLOP/s") + ")";
          peak = std::move(convolution);
        }
      }
      peaks.compute.push_back(std::move(*peak));
    } catch (const std::exception& error) {
      left_out.push_back(std::string(precision.name) + ": " + error_line(error));
    }
  }
  try {
    auto memory = triad_peak(backend, cuda ? k_cuda_triad_floats : k_cpu_triad_floats, settings, interrupted);
    if (!memory) {
      return std::nullopt;
    }
    peaks.memory = std::move(*memory);
  } catch (const std::exception& error) {
    left_out.push_back("memory bandwidth: " + error_line(error));
  }
  if (!(cuda ? cuda_cache_peaks : cpu_cache_peaks)(backend, settings, interrupted, peaks, left_out)) {
    return std::nullopt;
  }
  peaks.method = method_text(settings, left_out);
  return peaks;
}

std::string describe(const dataset::Peaks& peaks)
{
  std::string text;
  for (const auto& peak : peaks.compute) {
    text += (text.empty() ? "" : ", ") + peak.name + " " + util::format_rate(peak.rate, "FLOP/s");
  }
  if (peaks.memory) {
    text += (text.empty() ? "" : ", ") + peaks.memory->name + " " + util::format_rate(peaks.memory->rate, "B/s");
  }
  for (const auto& cache : peaks.caches) {
    text += (text.empty() ? "" : ", ") + cache.level + " " + util::format_rate(cache.triad.rate, "B/s");
  }
  return text.empty() ? "none measured" : text;
}

} // namespace layerbench::bench
