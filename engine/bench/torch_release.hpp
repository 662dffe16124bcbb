// SPDX-License-Identifier: MIT
#pragma once

// Which torch release has which API this benchmark uses: the one table behind the compile-time
// adaptation of detail/torch_compat.hpp (docs/versions.md). Knows nothing of torch, so its decisions
// are tested without a second wheel; the compatibility header checks its own #if's against it.

#include <optional>
#include <string>

namespace layerbench::bench {

// A release as major.minor; patch releases add no API.
struct TorchRelease
{
  int major = 0;
  int minor = 0;
};

constexpr bool operator<(TorchRelease a, TorchRelease b)
{
  return a.major != b.major ? a.major < b.major : a.minor < b.minor;
}

enum class TorchFeature {
  // at::scaled_dot_product_attention, and Python's multi_head_attention_forward as 2.x has it: the
  // packed in-projection unflattened, scaled_dot_product_attention without weights, their mean over
  // heads with them. 1.13's chunks the projection, always runs bmm and softmax, and sums the weights
  // over heads then divides (detail/attention.cpp follows either).
  scaled_dot_product_attention,
  sdpa_scale,                   // scaled_dot_product_attention(..., scale): the whole models' attention
  mha_scale_by_multiplication,  // Python's attention with weights scales q by sqrt(1/E), not divides by sqrt(E)
  foreach_lerp,                 // at::_foreach_lerp_: the whole models' Adam step, as Python's foreach Adam
  kineto_event_ns,              // KinetoEvent::startNs/durationNs: profiles' operator times in ns, not us
  autocast_per_device,          // at::autocast::set_autocast_enabled(device, ...): precision=bf16,fp16
  aoti_package_loader,          // torch::inductor::AOTIModelPackageLoader: compiled=aot_inductor cells
  float32_precision_strings,    // Context::setFloat32Precision("cuda", "matmul", "tf32")
  float32_precision_enums,      // Context::setFloat32Precision(Float32Backend, Float32Op, Float32Precision)
  cxx11_abi_wheel,              // PyPI's wheel is built with the C++11 string ABI, as Debian's libraries are
  c10d_backend_base,            // c10d's ProcessGroupGloo and ProcessGroupNCCL derive from c10d::Backend
  allocator_copy_data,          // c10::Allocator::allocate is not const, and an allocator says how it copies (copy_data)
  rms_norm,                     // at::rms_norm (Python's F.rms_norm and nn.RMSNorm): the RMSNorm layer
  sdpa_enable_gqa,              // scaled_dot_product_attention(..., enable_gqa): grouped-query attention without repeating keys
};

// The first release that has `feature`; releases before it lack it.
constexpr TorchRelease first_release_with(TorchFeature feature)
{
  switch (feature) {
  case TorchFeature::scaled_dot_product_attention:
    return {2, 0};
  case TorchFeature::sdpa_scale:
    return {2, 1};
  case TorchFeature::mha_scale_by_multiplication:
    return {2, 3};
  case TorchFeature::foreach_lerp:
    return {2, 0};
  case TorchFeature::kineto_event_ns:
    return {2, 4};
  case TorchFeature::autocast_per_device:
    return {2, 4};
  case TorchFeature::aoti_package_loader:
    return {2, 6};
  case TorchFeature::float32_precision_strings:
    return {2, 9};
  case TorchFeature::float32_precision_enums:
    return {2, 10};
  case TorchFeature::cxx11_abi_wheel:
    return {2, 7};
  case TorchFeature::c10d_backend_base:
    return {2, 0};
  case TorchFeature::allocator_copy_data:
    return {2, 3};
  case TorchFeature::rms_norm:
    return {2, 4};
  case TorchFeature::sdpa_enable_gqa:
    return {2, 5};
  }
  return {0, 0};
}

constexpr bool has(TorchRelease release, TorchFeature feature)
{
  return !(release < first_release_with(feature));
}

// "2.6"
std::string to_string(TorchRelease release);

// Why `release` cannot run what needs `feature` ("needs torch >= 2.6; built with torch 2.3"), or
// nullopt when it can: the reason of the skipped cells.
std::optional<std::string> missing(TorchRelease release, TorchFeature feature);

// The release the bench library was built against (torch/version.h; detail/torch_compat.cpp).
TorchRelease built_torch_release();

// Why this build cannot run what needs `feature`, or nullopt.
std::optional<std::string> missing_here(TorchFeature feature);

} // namespace layerbench::bench
