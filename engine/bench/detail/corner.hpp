// SPDX-License-Identifier: MIT
#pragma once

// A corner of the performance-setting cube applied to torch: the process-wide knobs (TF32,
// cudnn.benchmark) for the life of a cell, autocast around each forward as Python's torch.autocast
// does it, and the channels_last layout of a built layer.

#include "bench/detail/builder.hpp"
#include "bench/detail/torch_compat.hpp"
#include "dataset/axes.hpp"

#include <torch/torch.h>

#include <optional>

namespace layerbench::bench::detail {

// Sets TF32 and cudnn.benchmark as the corner asks, and puts back the reference (IEEE float32,
// benchmark off) when it goes out of scope, so that no cell sees the previous cell's knobs.
class GlobalKnobs
{
public:
  explicit GlobalKnobs(const dataset::Axes& axes);
  GlobalKnobs(const GlobalKnobs&) = delete;
  GlobalKnobs& operator=(const GlobalKnobs&) = delete;
  ~GlobalKnobs();
};

// torch.autocast(device, dtype) for one forward, with Python's __enter__/__exit__: enable and set the
// dtype, count the nesting, and on leaving the outermost scope clear the cache of cast weights and
// restore what was in force.
class AutocastScope
{
public:
  AutocastScope(c10::DeviceType device, c10::ScalarType dtype);
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;
  ~AutocastScope();

private:
  c10::DeviceType m_device;
  AutocastState m_previous;
};

// The autocast dtype of a precision, nullopt for fp32 and tf32 (which run float32 tensors).
std::optional<c10::ScalarType> autocast_dtype(dataset::Precision precision);

// Module.to(memory_format=torch.channels_last) as Python does it (4-D parameters and buffers), plus
// the input; LibTorch's Module::to takes no memory format.
void to_channels_last(Instance& instance);

// What each axis does to the measurement, for the methodology.
std::string describe_axes();

} // namespace layerbench::bench::detail
