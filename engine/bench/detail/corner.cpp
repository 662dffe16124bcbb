// SPDX-License-Identifier: MIT
#include "bench/detail/corner.hpp"

#include "bench/detail/torch_compat.hpp"
#include "bench/device.hpp"
#include "util/error.hpp"

#include <ATen/autocast_mode.h>

#include <map>

namespace layerbench::bench::detail {

namespace {

void set_cuda_float32(Float32Math math)
{
  for (const auto op : {Float32Op::matmul, Float32Op::conv, Float32Op::rnn}) {
    set_float32_precision(Float32Backend::cuda, op, math);
  }
}

} // namespace

GlobalKnobs::GlobalKnobs(const dataset::Axes& axes)
{
  if (axes[dataset::k_precision] == dataset::Precision::tf32) {
    set_cuda_float32(Float32Math::tf32);
  }
  if (axes[dataset::k_cudnn_benchmark] == dataset::CudnnBenchmark::on) {
    at::globalContext().setBenchmarkCuDNN(true);
  }
}

GlobalKnobs::~GlobalKnobs()
{
  use_ieee_float32();
  at::globalContext().setBenchmarkCuDNN(false);
}

AutocastScope::AutocastScope(c10::DeviceType device, c10::ScalarType dtype)
  : m_device(device),
    m_previous(autocast_state(device))
{
  set_autocast_state(device, {true, dtype});
  at::autocast::increment_nesting();
}

AutocastScope::~AutocastScope()
{
  if (at::autocast::decrement_nesting() == 0) {
    at::autocast::clear_cache();
  }
  set_autocast_state(m_device, m_previous);
}

std::optional<c10::ScalarType> autocast_dtype(dataset::Precision precision)
{
  switch (precision) {
  case dataset::Precision::bf16:
    return c10::ScalarType::BFloat16;
  case dataset::Precision::fp16:
    return c10::ScalarType::Half;
  case dataset::Precision::fp32:
  case dataset::Precision::tf32:
    break;
  }
  return std::nullopt;
}

void to_channels_last(Instance& instance)
{
  const auto convert = [](torch::Tensor& tensor) {
    if (tensor.defined() && tensor.dim() == 4) {
      tensor.set_data(tensor.contiguous(at::MemoryFormat::ChannelsLast));
    }
  };
  torch::NoGradGuard no_grad;
  for (auto& parameter : instance.module->parameters()) {
    convert(parameter);
  }
  for (auto& buffer : instance.module->buffers()) {
    convert(buffer);
  }
  instance.input = instance.input.contiguous(at::MemoryFormat::ChannelsLast);
}

namespace {

// How each axis is applied, in words, keyed by the axis table's names.
const std::map<std::string, std::string>& how_applied()
{
  static const std::map<std::string, std::string> text = {
    {dataset::k_precision.name,
     "fp32 is IEEE float32; tf32 lets CUDA matmuls, convolutions and RNNs use TF32 (setFloat32Precision); bf16 and "
     "fp16 run each forward inside autocast on the layer's device, entered and left per forward as Python's "
     "torch.autocast does (nesting counted, the cast-weight cache cleared on exit), the backward outside it."},
    {dataset::k_memory_format.name,
     "channels_last converts the 4-D parameters, buffers and the input with contiguous(channels_last), as "
     "Module.to(memory_format=...) does."},
    {dataset::k_cudnn_benchmark.name,
     "torch.backends.cudnn.benchmark for the cell; first_call_ms then includes the autotuning."},
    {dataset::k_mode.name,
     "inference_mode builds and runs the layer under torch.inference_mode(); no_grad under torch.no_grad(); train "
     "puts the module in train() (Dropout and BatchNorm use batch behaviour) with autograd on: stats time one step, "
     "a forward and one torch::autograd::grad for the input and the parameters together, and train times its parts "
     "apart, each with its own samples: the forward alone (graph recorded), the input gradient and the weight "
     "gradient (autograd::grad with retain_graph on one recorded forward), DeepBench's fwd, bwd_inputs and "
     "bwd_params, and their sum. Integer inputs (Embedding) have no input gradient and layers without parameters "
     "no weight gradient."},
    {dataset::k_compiled.name, "eager runs the catalog's forward."},
  };
  return text;
}

} // namespace

std::string describe_axes()
{
  std::string text;
  for (const auto& info : dataset::axis_table()) {
    const auto found = how_applied().find(info.name);
    if (found == how_applied().end()) {
      throw Error("axis " + info.name + ": bench/detail/corner.cpp does not say how it is applied");
    }
    text += (text.empty() ? "" : " ") + info.name + ": " + found->second;
  }
  return text;
}

} // namespace layerbench::bench::detail
