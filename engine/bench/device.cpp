// SPDX-License-Identifier: MIT
#include "bench/device.hpp"

#include "bench/cpu_backend.hpp"
#include "bench/cpu_identity.hpp"
#include "bench/cuda_backend.hpp"
#include "bench/detail/torch_compat.hpp"
#include "util/error.hpp"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <cstdlib>
#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <sys/utsname.h>
#include <thread>

namespace layerbench::bench {

bool DeviceBackend::is_out_of_memory(const std::exception& error) const
{
  if (dynamic_cast<const c10::OutOfMemoryError*>(&error) != nullptr) {
    return true;
  }
  const std::string what = error.what();
  return what.find("out of memory") != std::string::npos || what.find("std::bad_alloc") != std::string::npos;
}

util::Expected<std::unique_ptr<BlockTimer>> DeviceBackend::variant_timer(Variant /*variant*/,
                                                                        const std::function<void()>& /*forward*/)
{
  return util::Expected<std::unique_ptr<BlockTimer>>::failure("measured on CUDA devices only");
}

DeviceSelection parse_device_choice(const std::string& text)
{
  if (text == "auto") {
    return {DeviceChoice::automatic, 0};
  }
  if (text == "cpu") {
    return {DeviceChoice::cpu, 0};
  }
  if (text == "cuda") {
    return {DeviceChoice::cuda, 0};
  }
  const std::string prefix = "cuda:";
  const auto digits = text.substr(std::min(text.size(), prefix.size()));
  if (text.rfind(prefix, 0) == 0 && !digits.empty() && digits.size() <= 4
      && std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return {DeviceChoice::cuda, std::stoi(digits)};
  }
  throw UsageError("--device: '" + text + "' is not one of auto, cpu, cuda, cuda:N (N: the GPU's index)");
}

bool cuda_available() { return torch::cuda::is_available(); }

std::unique_ptr<DeviceBackend> make_backend(DeviceSelection selection)
{
  const auto choice = selection.choice;
  if (choice == DeviceChoice::cuda || (choice == DeviceChoice::automatic && cuda_available())) {
    return make_cuda_backend(selection.cuda_index);
  }
  return make_cpu_backend();
}

namespace {

std::string first_match(const std::string& text, const std::string& pattern)
{
  std::smatch match;
  if (std::regex_search(text, match, std::regex(pattern))) {
    return match[1].str();
  }
  return {};
}

std::string cpu_model()
{
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "unknown";
}

std::string operating_system()
{
  std::string name = "unknown";
  std::ifstream release("/etc/os-release");
  std::string line;
  while (std::getline(release, line)) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      name = line.substr(12);
      name.erase(std::remove(name.begin(), name.end(), '"'), name.end());
    }
  }
  utsname host{};
  if (uname(&host) == 0) {
    name += std::string(", ") + host.sysname + " " + host.release + " " + host.machine;
  }
  return name;
}

std::string blas(const std::string& config, const std::string& parallel)
{
  // "Intel(R) oneAPI Math Kernel Library Version 2024.2-Product Build ..." names the version;
  // BLAS_INFO=mkl only the family.
  const auto mkl = first_match(parallel + config, "(Intel\\(R\\) oneAPI Math Kernel Library Version [0-9.]+)");
  if (!mkl.empty()) {
    return mkl;
  }
  const auto family = first_match(config, "BLAS_INFO=([^,]+)");
  return family.empty() ? "unknown" : family;
}

} // namespace

void describe_host(dataset::Environment& environment)
{
  const std::string config = at::show_config();
  const std::string parallel = at::get_parallel_info();
  environment.torch_version = first_match(config, "TORCH_VERSION=([^,]+)");
  environment.torch_git_hash = first_match(config, "COMMIT_SHA=([0-9a-f]+)");
  if (environment.torch_version.empty()) {
    environment.torch_version = "unknown";
  }
  if (environment.torch_git_hash.empty()) {
    environment.torch_git_hash = "unknown";
  }
#if defined(__clang__)
  environment.compiler = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  environment.compiler = std::string("gcc ") + __VERSION__;
#else
  environment.compiler = "unknown";
#endif
  environment.cpu_model = cpu_model();
  environment.cpu = read_cpu_identity();
  if (environment.cpu) {
    // "CPU capability usage: AVX2" in every release's configuration text (at::get_cpu_capability() came in 2.1):
    // the vector kernels ATen's dispatch picked, ATEN_CPU_CAPABILITY included.
    environment.cpu->aten_capability = first_match(config, "CPU capability usage: ([A-Za-z0-9_ ]*[A-Za-z0-9_])");
  }
  environment.logical_cores = static_cast<int>(std::thread::hardware_concurrency());
  environment.threads = at::get_num_threads();
  environment.blas = blas(config, parallel);
  environment.os = operating_system();
  // Read through the float32-precision API only: once use_ieee_float32() has set it, the legacy allowTF32 getters
  // throw ("mix of the legacy and new APIs").
  using detail::Float32Backend;
  using detail::Float32Op;
  environment.matmul_allow_tf32 = detail::float32_precision(Float32Backend::cuda, Float32Op::matmul) == "tf32";
  environment.cudnn_allow_tf32 = detail::float32_precision(Float32Backend::cuda, Float32Op::conv) == "tf32";
  environment.cudnn_benchmark = at::globalContext().benchmarkCuDNN();
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  environment.glibc_tunables = tunables ? tunables : "";
}

void use_ieee_float32()
{
  using detail::Float32Op;
  for (const auto backend : {detail::Float32Backend::cuda, detail::Float32Backend::mkldnn}) {
    for (const auto op : {Float32Op::matmul, Float32Op::conv, Float32Op::rnn}) {
      detail::set_float32_precision(backend, op, detail::Float32Math::ieee);
    }
  }
}

std::string precision_in_force()
{
  using detail::Float32Backend;
  using detail::Float32Op;
  std::string text = "float32 tensors and parameters; TF32 and other reduced precisions set off explicitly before the "
                     "first cell. In force during this run:";
  const std::pair<Float32Backend, const char*> backends[] = {{Float32Backend::mkldnn, "CPU (oneDNN)"},
                                                            {Float32Backend::cuda, "CUDA (cuBLAS, cuDNN)"}};
  for (const auto& [backend, name] : backends) {
    text += std::string(" ") + name + ": matmul " + detail::float32_precision(backend, Float32Op::matmul)
            + ", convolution " + detail::float32_precision(backend, Float32Op::conv) + ", RNN "
            + detail::float32_precision(backend, Float32Op::rnn) + ";";
  }
  text.back() = '.';
  return text + " The CPU's other kernels (MKL, ATen's own) compute in IEEE fp32.";
}

} // namespace layerbench::bench
