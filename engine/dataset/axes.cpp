// SPDX-License-Identifier: MIT
#include "dataset/axes.hpp"

#include "util/error.hpp"
#include "util/suggest.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <type_traits>

namespace layerbench::dataset {

namespace {

// Each enum's values are numbered in the order of axis_table()'s value lists.
template<typename Enum>
int index_of(Enum value)
{
  return static_cast<int>(value);
}

const AxisInfo& axis(const std::string& name)
{
  std::vector<std::string> names;
  for (const auto& info : axis_table()) {
    if (info.name == name) {
      return info;
    }
    names.push_back(info.name);
  }
  std::string message = "unknown axis '" + name + "'";
  if (const auto hint = util::closest(name, names, 4)) {
    message += ", did you mean '" + *hint + "'?";
  }
  throw Error(message + " (axes: precision, memory_format, cudnn_benchmark, mode, compiled)");
}

int value_index(const AxisInfo& info, const std::string& value)
{
  const auto found = std::find(info.values.begin(), info.values.end(), value);
  if (found != info.values.end()) {
    return static_cast<int>(found - info.values.begin());
  }
  std::string message = "axis " + info.name + ": unknown value '" + value + "'";
  if (const auto hint = util::closest(value, info.values, 4)) {
    message += ", did you mean '" + *hint + "'?";
  }
  std::string known;
  for (const auto& v : info.values) {
    known += (known.empty() ? "" : ", ") + v;
  }
  throw Error(message + " (values: " + known + ")");
}

auto tie(const Axes& a)
{
  return std::make_tuple(a.precision, a.memory_format, a.cudnn_benchmark, a.mode, a.compiled);
}

// The one place that maps an axis name to its member; Axes and AxisGrid name their members alike.
template<typename Object, typename Visit>
void visit_axis(Object& object, const std::string& name, Visit visit)
{
  if (name == "precision") {
    visit(object.precision);
  } else if (name == "memory_format") {
    visit(object.memory_format);
  } else if (name == "cudnn_benchmark") {
    visit(object.cudnn_benchmark);
  } else if (name == "mode") {
    visit(object.mode);
  } else if (name == "compiled") {
    visit(object.compiled);
  } else {
    axis(name); // throws naming the unknown axis
  }
}

} // namespace

const std::vector<AxisInfo>& axis_table()
{
  static const std::vector<AxisInfo> table = {
    {"precision", {"fp32", "tf32", "bf16", "fp16"},
     "fp32 (IEEE), tf32 (TF32 matmuls and convolutions, CUDA), bf16 or fp16 (torch.autocast; fp16 on CUDA only)"},
    {"memory_format", {"contiguous", "channels_last"},
     "channels_last converts the 4-D layers' parameters and input (Conv2d, ConvTranspose2d, BatchNorm2d, pools)"},
    {"cudnn_benchmark", {"off", "on"}, "torch.backends.cudnn.benchmark (CUDA); the first call pays the autotuning"},
    {"mode", {"inference_mode", "no_grad", "train"},
     "torch.inference_mode(), torch.no_grad() or training: module.train(), forward and backward"},
    {"compiled", {"eager", "aot_inductor", "torch_compile"},
     "eager, an AOTInductor package compiled from torch.export, or torch.compile in a Python worker (whole models)"},
  };
  return table;
}

bool Axes::is_reference() const { return *this == Axes{}; }

bool operator==(const Axes& a, const Axes& b) { return tie(a) == tie(b); }
bool operator!=(const Axes& a, const Axes& b) { return !(a == b); }
bool operator<(const Axes& a, const Axes& b) { return tie(a) < tie(b); }

std::string to_string(Precision value) { return axis_table()[0].values.at(index_of(value)); }
std::string to_string(MemoryFormat value) { return axis_table()[1].values.at(index_of(value)); }
std::string to_string(CudnnBenchmark value) { return axis_table()[2].values.at(index_of(value)); }
std::string to_string(GradMode value) { return axis_table()[3].values.at(index_of(value)); }
std::string to_string(Compiled value) { return axis_table()[4].values.at(index_of(value)); }

std::string axis_value(const Axes& axes, const std::string& name)
{
  std::string text;
  auto copy = axes;
  visit_axis(copy, name, [&](auto& member) { text = to_string(member); });
  return text;
}

void set_axis(Axes& axes, const std::string& name, const std::string& value)
{
  const int index = value_index(axis(name), value);
  visit_axis(axes, name, [&](auto& member) { member = static_cast<std::decay_t<decltype(member)>>(index); });
}

std::string label(const Axes& axes)
{
  std::string text;
  if (axes.precision != Precision::fp32) {
    text += " " + to_string(axes.precision);
  }
  if (axes.memory_format != MemoryFormat::contiguous) {
    text += " " + to_string(axes.memory_format);
  }
  if (axes.cudnn_benchmark != CudnnBenchmark::off) {
    text += " cudnn_benchmark";
  }
  if (axes.mode != GradMode::inference_mode) {
    text += " " + to_string(axes.mode);
  }
  if (axes.compiled != Compiled::eager) {
    text += " " + to_string(axes.compiled);
  }
  return text.empty() ? "reference" : text.substr(1);
}

bool AxisGrid::is_reference() const { return *this == AxisGrid{}; }

bool operator==(const AxisGrid& a, const AxisGrid& b)
{
  return a.precision == b.precision && a.memory_format == b.memory_format && a.cudnn_benchmark == b.cudnn_benchmark
         && a.mode == b.mode && a.compiled == b.compiled;
}

std::vector<Axes> corners(const AxisGrid& grid)
{
  std::vector<Axes> result;
  for (auto precision : grid.precision) {
    for (auto memory_format : grid.memory_format) {
      for (auto cudnn_benchmark : grid.cudnn_benchmark) {
        for (auto mode : grid.mode) {
          for (auto compiled : grid.compiled) {
            result.push_back({precision, memory_format, cudnn_benchmark, mode, compiled});
          }
        }
      }
    }
  }
  return result;
}

std::vector<std::string> grid_values(const AxisGrid& grid, const std::string& name)
{
  std::vector<std::string> values;
  auto copy = grid;
  visit_axis(copy, name, [&](auto& list) {
    for (auto value : list) {
      values.push_back(to_string(value));
    }
  });
  return values;
}

void set_grid_values(AxisGrid& grid, const std::string& name, const std::vector<std::string>& values)
{
  const auto& info = axis(name);
  if (values.empty()) {
    throw Error("axis " + name + ": no value given");
  }
  std::vector<int> indices;
  for (const auto& value : values) {
    const int index = value_index(info, value);
    if (std::find(indices.begin(), indices.end(), index) != indices.end()) {
      throw Error("axis " + name + ": '" + value + "' is given twice");
    }
    indices.push_back(index);
  }
  visit_axis(grid, name, [&](auto& list) {
    using Value = typename std::decay_t<decltype(list)>::value_type;
    list.clear();
    for (int index : indices) {
      list.push_back(static_cast<Value>(index));
    }
  });
}

void apply_axes_argument(AxisGrid& grid, const std::string& argument)
{
  const auto equals = argument.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw UsageError("--axes: '" + argument + "' is not AXIS=VALUE[,VALUE...] (e.g. precision=fp32,bf16)");
  }
  std::vector<std::string> values;
  size_t start = equals + 1;
  while (start <= argument.size()) {
    const auto comma = std::min(argument.find(',', start), argument.size());
    if (comma == start && !(start == argument.size() && values.empty())) {
      throw UsageError("--axes: '" + argument + "' has an empty value (two commas, or one at an end)");
    }
    if (comma > start) {
      values.push_back(argument.substr(start, comma - start));
    }
    start = comma + 1;
  }
  try {
    set_grid_values(grid, argument.substr(0, equals), values);
  } catch (const UsageError&) {
    throw;
  } catch (const Error& error) {
    throw UsageError(std::string("--axes: ") + error.what());
  }
}

void apply_axes_arguments(AxisGrid& grid, const std::vector<std::string>& arguments)
{
  std::map<std::string, std::string> given; // axis name -> the argument that set it
  for (const auto& argument : arguments) {
    const auto name = argument.substr(0, argument.find('='));
    if (const auto earlier = given.find(name); earlier != given.end()) {
      throw UsageError("--axes: axis " + name + " is given twice ('" + earlier->second + "' and '" + argument
                       + "'); give its values once, comma-separated");
    }
    apply_axes_argument(grid, argument);
    given.emplace(name, argument);
  }
}

} // namespace layerbench::dataset
