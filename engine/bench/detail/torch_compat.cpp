// SPDX-License-Identifier: MIT
#include "bench/detail/torch_compat.hpp"

#include "util/error.hpp"

#include <ATen/Context.h>
#include <ATen/autocast_mode.h>
#include <torch/csrc/autograd/profiler_kineto.h>

namespace layerbench::bench {

TorchRelease built_torch_release()
{
  return detail::k_built_torch;
}

} // namespace layerbench::bench

namespace layerbench::bench::detail {

namespace {

// Only the releases that lack an API call it.
[[noreturn, maybe_unused]] void throw_missing(const std::string& what, TorchFeature feature)
{
  throw Error(what + " " + missing(k_built_torch, feature).value_or("is missing"));
}

#if LAYERBENCH_TORCH_HAS_FLOAT32_PRECISION_STRINGS && !LAYERBENCH_TORCH_HAS_FLOAT32_PRECISION_ENUMS
const char* name(Float32Backend backend)
{
  return backend == Float32Backend::cuda ? "cuda" : "mkldnn";
}

const char* name(Float32Op op)
{
  switch (op) {
  case Float32Op::matmul:
    return "matmul";
  case Float32Op::conv:
    return "conv";
  case Float32Op::rnn:
    return "rnn";
  }
  return "matmul";
}
#endif

#if LAYERBENCH_TORCH_HAS_FLOAT32_PRECISION_ENUMS
at::Float32Backend torch_backend(Float32Backend backend)
{
  return backend == Float32Backend::cuda ? at::Float32Backend::CUDA : at::Float32Backend::MKLDNN;
}

at::Float32Op torch_op(Float32Op op)
{
  switch (op) {
  case Float32Op::matmul:
    return at::Float32Op::MATMUL;
  case Float32Op::conv:
    return at::Float32Op::CONV;
  case Float32Op::rnn:
    return at::Float32Op::RNN;
  }
  return at::Float32Op::MATMUL;
}
#endif

#if !LAYERBENCH_TORCH_HAS_FLOAT32_PRECISION_STRINGS
// Before 2.9: cuBLAS and cuDNN have one TF32 switch each; oneDNN's matmul follows the matmul precision.
void set_legacy_float32(Float32Backend backend, Float32Op op, bool tf32)
{
  auto& context = at::globalContext();
  if (backend == Float32Backend::cuda) {
    if (op == Float32Op::matmul) {
      context.setAllowTF32CuBLAS(tf32);
    } else {
      context.setAllowTF32CuDNN(tf32);
    }
    return;
  }
  if (op == Float32Op::matmul) {
    context.setFloat32MatmulPrecision(tf32 ? at::Float32MatmulPrecision::HIGH : at::Float32MatmulPrecision::HIGHEST);
  }
}

std::string legacy_float32(Float32Backend backend, Float32Op op)
{
  const auto& context = at::globalContext();
  if (backend == Float32Backend::cuda) {
    const bool tf32 = op == Float32Op::matmul ? context.allowTF32CuBLAS() : context.allowTF32CuDNN();
    return tf32 ? "tf32" : "ieee";
  }
  if (op != Float32Op::matmul) {
    return "not settable before torch 2.9";
  }
  switch (context.float32MatmulPrecision()) {
  case at::Float32MatmulPrecision::HIGHEST:
    return "ieee";
  case at::Float32MatmulPrecision::HIGH:
    return "tf32";
  case at::Float32MatmulPrecision::MEDIUM:
    return "bf16";
  }
  return "unknown";
}
#endif

} // namespace

#if !LAYERBENCH_TORCH_HAS_AOTI_PACKAGE_LOADER
AotiPackage::AotiPackage(const std::string& path)
{
  throw_missing("AOTInductor package " + path + ": loading it", TorchFeature::aoti_package_loader);
}

std::vector<at::Tensor> AotiPackage::run(const std::vector<at::Tensor>&)
{
  return {};
}
#endif

at::Tensor sdpa_no_mask(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v)
{
#if LAYERBENCH_TORCH_HAS_SDPA
  return at::scaled_dot_product_attention(q, k, v, /*attn_mask=*/{}, /*dropout_p=*/0.0, /*is_causal=*/false);
#else
  (void)q, (void)k, (void)v;
  throw_missing("scaled_dot_product_attention", TorchFeature::scaled_dot_product_attention);
#endif
}

at::Tensor sdpa_scaled(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, double dropout, double scale)
{
#if LAYERBENCH_TORCH_HAS_SDPA_SCALE
  return at::scaled_dot_product_attention(q, k, v, /*attn_mask=*/{}, dropout, /*is_causal=*/false, scale);
#else
  (void)q, (void)k, (void)v, (void)dropout, (void)scale;
  throw_missing("scaled_dot_product_attention with a scale", TorchFeature::sdpa_scale);
#endif
}

at::Tensor rms_norm(const at::Tensor& x, int64_t width, const at::Tensor& weight)
{
#if LAYERBENCH_TORCH_HAS_RMS_NORM
  return at::rms_norm(x, {width}, weight, std::nullopt);
#else
  (void)x, (void)width, (void)weight;
  throw_missing("rms_norm", TorchFeature::rms_norm);
#endif
}

at::Tensor sdpa_gqa(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, bool grouped)
{
#if LAYERBENCH_TORCH_HAS_SDPA_ENABLE_GQA
  return at::scaled_dot_product_attention(q, k, v, /*attn_mask=*/{}, /*dropout_p=*/0.0, /*is_causal=*/false,
                                          /*scale=*/std::nullopt, grouped);
#else
  (void)q, (void)k, (void)v, (void)grouped;
  throw_missing("scaled_dot_product_attention with enable_gqa", TorchFeature::sdpa_enable_gqa);
#endif
}

void foreach_lerp_(at::TensorList self, at::TensorList end, double weight)
{
#if LAYERBENCH_TORCH_HAS_FOREACH_LERP
  at::_foreach_lerp_(self, end, weight);
#else
  (void)self, (void)end, (void)weight;
  throw_missing("_foreach_lerp_ (Adam's step)", TorchFeature::foreach_lerp);
#endif
}

EventTimes event_times(const torch::autograd::profiler::KinetoEvent& event)
{
  // endNs() came in 2.5; it is start + duration (profiler_kineto.cpp).
#if LAYERBENCH_TORCH_HAS_KINETO_EVENT_NS
  return {event.startNs(), event.startNs() + event.durationNs()};
#else
  const uint64_t start = event.startUs() * 1000;
  return {start, start + event.durationUs() * 1000};
#endif
}

#if LAYERBENCH_TORCH_HAS_AUTOCAST_PER_DEVICE
AutocastState autocast_state(c10::DeviceType device)
{
  return {at::autocast::is_autocast_enabled(device), at::autocast::get_autocast_dtype(device)};
}

void set_autocast_state(c10::DeviceType device, AutocastState state)
{
  at::autocast::set_autocast_enabled(device, state.enabled);
  at::autocast::set_autocast_dtype(device, state.dtype);
}
#else
AutocastState autocast_state(c10::DeviceType device)
{
  if (device == c10::DeviceType::CUDA) {
    return {at::autocast::is_enabled(), at::autocast::get_autocast_gpu_dtype()};
  }
  if (device == c10::DeviceType::CPU) {
    return {at::autocast::is_cpu_enabled(), at::autocast::get_autocast_cpu_dtype()};
  }
  throw_missing("autocast on " + c10::DeviceTypeName(device), TorchFeature::autocast_per_device);
}

void set_autocast_state(c10::DeviceType device, AutocastState state)
{
  if (device == c10::DeviceType::CUDA) {
    at::autocast::set_enabled(state.enabled);
    at::autocast::set_autocast_gpu_dtype(state.dtype);
    return;
  }
  if (device == c10::DeviceType::CPU) {
    at::autocast::set_cpu_enabled(state.enabled);
    at::autocast::set_autocast_cpu_dtype(state.dtype);
    return;
  }
  throw_missing("autocast on " + c10::DeviceTypeName(device), TorchFeature::autocast_per_device);
}
#endif

void set_float32_precision(Float32Backend backend, Float32Op op, Float32Math math)
{
  const bool tf32 = math == Float32Math::tf32;
#if LAYERBENCH_TORCH_HAS_FLOAT32_PRECISION_ENUMS
  at::globalContext().setFloat32Precision(torch_backend(backend), torch_op(op),
                                          tf32 ? at::Float32Precision::TF32 : at::Float32Precision::IEEE);
#elif LAYERBENCH_TORCH_HAS_FLOAT32_PRECISION_STRINGS
  at::globalContext().setFloat32Precision(name(backend), name(op), tf32 ? "tf32" : "ieee");
#else
  set_legacy_float32(backend, op, tf32);
#endif
}

std::string float32_precision(Float32Backend backend, Float32Op op)
{
#if LAYERBENCH_TORCH_HAS_FLOAT32_PRECISION_ENUMS
  return at::precision2str(at::globalContext().float32Precision(torch_backend(backend), torch_op(op)));
#elif LAYERBENCH_TORCH_HAS_FLOAT32_PRECISION_STRINGS
  return at::globalContext().float32Precision(name(backend), name(op));
#else
  return legacy_float32(backend, op);
#endif
}

} // namespace layerbench::bench::detail
