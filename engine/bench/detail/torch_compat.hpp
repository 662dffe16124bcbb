// SPDX-License-Identifier: MIT
#pragma once

// Every difference between the torch releases this benchmark builds against, in one place
// (docs/versions.md): the rest of bench calls these names and has no #if of its own. Which release
// has what is bench/torch_release.hpp's table; the macros below are checked against it.

#include "bench/torch_release.hpp"

#include <torch/torch.h>
#include <torch/version.h>

#include <string>
#include <type_traits>
#include <vector>

#define LAYERBENCH_TORCH_AT_LEAST(major, minor) \
  (TORCH_VERSION_MAJOR > (major) || (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))
#define LAYERBENCH_TORCH_HAS_SDPA LAYERBENCH_TORCH_AT_LEAST(2, 0)
#define LAYERBENCH_TORCH_HAS_SDPA_SCALE LAYERBENCH_TORCH_AT_LEAST(2, 1)
#define LAYERBENCH_TORCH_HAS_FOREACH_LERP LAYERBENCH_TORCH_AT_LEAST(2, 0)
#define LAYERBENCH_TORCH_HAS_KINETO_EVENT_NS LAYERBENCH_TORCH_AT_LEAST(2, 4)
#define LAYERBENCH_TORCH_HAS_AUTOCAST_PER_DEVICE LAYERBENCH_TORCH_AT_LEAST(2, 4)
#define LAYERBENCH_TORCH_HAS_AOTI_PACKAGE_LOADER LAYERBENCH_TORCH_AT_LEAST(2, 6)
#define LAYERBENCH_TORCH_HAS_FLOAT32_PRECISION_STRINGS LAYERBENCH_TORCH_AT_LEAST(2, 9)
#define LAYERBENCH_TORCH_HAS_FLOAT32_PRECISION_ENUMS LAYERBENCH_TORCH_AT_LEAST(2, 10)
#define LAYERBENCH_TORCH_HAS_C10D_BACKEND_BASE LAYERBENCH_TORCH_AT_LEAST(2, 0)
#define LAYERBENCH_TORCH_HAS_ALLOCATOR_COPY_DATA LAYERBENCH_TORCH_AT_LEAST(2, 3)
#define LAYERBENCH_TORCH_HAS_RMS_NORM LAYERBENCH_TORCH_AT_LEAST(2, 4)
#define LAYERBENCH_TORCH_HAS_SDPA_ENABLE_GQA LAYERBENCH_TORCH_AT_LEAST(2, 5)

#if LAYERBENCH_TORCH_HAS_AOTI_PACKAGE_LOADER
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>
#endif

namespace torch::autograd::profiler {
struct KinetoEvent;
} // namespace torch::autograd::profiler

namespace c10d {
class Backend;
class ProcessGroup;
} // namespace c10d

namespace layerbench::bench::detail {

inline constexpr TorchRelease k_built_torch{TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR};

static_assert(LAYERBENCH_TORCH_HAS_SDPA == has(k_built_torch, TorchFeature::scaled_dot_product_attention));
static_assert(LAYERBENCH_TORCH_HAS_SDPA_SCALE == has(k_built_torch, TorchFeature::sdpa_scale));
static_assert(LAYERBENCH_TORCH_HAS_FOREACH_LERP == has(k_built_torch, TorchFeature::foreach_lerp));
static_assert(LAYERBENCH_TORCH_HAS_KINETO_EVENT_NS == has(k_built_torch, TorchFeature::kineto_event_ns));
static_assert(LAYERBENCH_TORCH_HAS_AUTOCAST_PER_DEVICE == has(k_built_torch, TorchFeature::autocast_per_device));
static_assert(LAYERBENCH_TORCH_HAS_AOTI_PACKAGE_LOADER == has(k_built_torch, TorchFeature::aoti_package_loader));
static_assert(LAYERBENCH_TORCH_HAS_FLOAT32_PRECISION_STRINGS
              == has(k_built_torch, TorchFeature::float32_precision_strings));
static_assert(LAYERBENCH_TORCH_HAS_FLOAT32_PRECISION_ENUMS
              == has(k_built_torch, TorchFeature::float32_precision_enums));
static_assert(LAYERBENCH_TORCH_HAS_C10D_BACKEND_BASE == has(k_built_torch, TorchFeature::c10d_backend_base));
static_assert(LAYERBENCH_TORCH_HAS_RMS_NORM == has(k_built_torch, TorchFeature::rms_norm));
static_assert(LAYERBENCH_TORCH_HAS_SDPA_ENABLE_GQA == has(k_built_torch, TorchFeature::sdpa_enable_gqa));

// The base class of c10d's Gloo and NCCL process groups: c10d::Backend from torch 2.0, c10d::ProcessGroup
// before (1.13 has a Backend class too, which they do not derive from). The data-parallel group holds
// its backend as one (bench/detail/ddp/process_group.hpp includes both headers).
using C10dBackend = std::conditional_t<LAYERBENCH_TORCH_HAS_C10D_BACKEND_BASE, c10d::Backend, c10d::ProcessGroup>;
static_assert(LAYERBENCH_TORCH_HAS_ALLOCATOR_COPY_DATA == has(k_built_torch, TorchFeature::allocator_copy_data));

// A c10::Allocator whose allocation is allocate_bytes(), whichever form this release's interface has:
// from 2.3 allocate() is not const and copy_data() is c10's default copy; before, allocate() is const
// (read from the 2.2.2 and 2.3.1 wheels' c10/core/Allocator.h).
class Allocator : public c10::Allocator
{
public:
  virtual c10::DataPtr allocate_bytes(size_t bytes) = 0;

#if LAYERBENCH_TORCH_HAS_ALLOCATOR_COPY_DATA
  c10::DataPtr allocate(size_t bytes) final { return allocate_bytes(bytes); }
  void copy_data(void* dest, const void* src, std::size_t count) const final { default_copy_data(dest, src, count); }
#else
  c10::DataPtr allocate(size_t bytes) const final { return const_cast<Allocator*>(this)->allocate_bytes(bytes); }
#endif
};

// An AOTInductor package, loaded; before torch 2.6 its constructor throws Error saying so.
#if LAYERBENCH_TORCH_HAS_AOTI_PACKAGE_LOADER
using AotiPackage = torch::inductor::AOTIModelPackageLoader;
#else
class AotiPackage
{
public:
  explicit AotiPackage(const std::string& path);
  std::vector<at::Tensor> run(const std::vector<at::Tensor>& inputs);
};
#endif

// at::scaled_dot_product_attention with no mask, no dropout, not causal; before torch 2.0 it throws
// Error, so the attention layers become skipped cells with the reason.
at::Tensor sdpa_no_mask(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v);

// at::scaled_dot_product_attention with no mask, not causal, and the scale given (transformers'
// BERT); before torch 2.1, which has no scale argument, it throws Error: the whole models' cells
// that use it are skipped with the reason.
at::Tensor sdpa_scaled(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, double dropout, double scale);

// at::rms_norm(x, {width}, weight) at the default eps, as Python's F.rms_norm calls it; before torch
// 2.4, which has none, it throws Error: the RMSNorm cells are skipped with the reason.
at::Tensor rms_norm(const at::Tensor& x, int64_t width, const at::Tensor& weight);

// at::scaled_dot_product_attention with no mask, no dropout, not causal, and enable_gqa where the keys
// have fewer heads than the queries; before torch 2.5, which has no enable_gqa, it throws Error: the
// ScaledDotProductAttention and GroupedQueryAttention cells are skipped with the reason.
at::Tensor sdpa_gqa(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, bool grouped);

// at::_foreach_lerp_(self, end, weight); before torch 2.0 it throws Error (1.13's Python Adam ran
// _foreach_mul_ and _foreach_add_ instead): the whole models' training cells are skipped with the reason.
void foreach_lerp_(at::TensorList self, at::TensorList end, double weight);

// A profiler event's start and end in nanoseconds. Before torch 2.4 KinetoEvent has microseconds
// only, so the profiles' operator times have microsecond resolution there (docs/versions.md).
struct EventTimes
{
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
};

EventTimes event_times(const torch::autograd::profiler::KinetoEvent& event);

// at::autocast's state for one device type, whichever API this release has: per device type from
// 2.4; before, one switch and dtype for CUDA and one for the CPU (other devices throw Error).
struct AutocastState
{
  bool enabled = false;
  c10::ScalarType dtype = c10::ScalarType::Float;
};

AutocastState autocast_state(c10::DeviceType device);
void set_autocast_state(c10::DeviceType device, AutocastState state);

// The float32 precision settings, whichever of torch's three APIs this release has: per backend and
// operation (enums from 2.10, strings in 2.9), or the older allowTF32 switches and matmul precision.
enum class Float32Backend { cuda, mkldnn };
enum class Float32Op { matmul, conv, rnn };
enum class Float32Math { ieee, tf32 };

void set_float32_precision(Float32Backend backend, Float32Op op, Float32Math math);

// "ieee", "tf32", "bf16" or "none" as torch names them; before torch 2.9, what the older switches
// imply, or "not settable before torch 2.9" where they say nothing.
std::string float32_precision(Float32Backend backend, Float32Op op);

} // namespace layerbench::bench::detail
