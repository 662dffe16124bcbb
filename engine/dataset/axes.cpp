// SPDX-License-Identifier: MIT
#include "dataset/axes.hpp"

#include "util/error.hpp"
#include "util/suggest.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <map>

namespace layerbench::dataset {

namespace {

std::string joined(const std::vector<std::string>& items, const std::string& separator)
{
  std::string text;
  for (const auto& item : items) {
    text += (text.empty() ? "" : separator) + item;
  }
  return text;
}

// A built-in axis's row: its name and values from its LAYERBENCH_AXIS declaration.
template<typename Enum>
AxisInfo row(Axis<Enum> axis, std::string help, LabelBy label_by = LabelBy::value)
{
  return {axis.name, split_axis_values(axis_values_text(Enum{})), std::move(help), label_by};
}

std::vector<AxisInfo> built_in_axes()
{
  std::vector<AxisInfo> table = {
    row(k_precision, "fp32 (IEEE), tf32 (TF32 matmuls and convolutions, CUDA), bf16 or fp16 (torch.autocast; fp16 on CUDA only)"),
    row(k_memory_format, "channels_last converts the 4-D layers' parameters and input (Conv2d, ConvTranspose2d, BatchNorm2d, pools)"),
    row(k_cudnn_benchmark, "torch.backends.cudnn.benchmark (CUDA); the first call pays the autotuning", LabelBy::axis_name),
    row(k_mode, "torch.inference_mode(), torch.no_grad() or training: module.train(), forward and backward"),
    row(k_compiled, "eager, an AOTInductor package compiled from torch.export, or torch.compile in a Python "
                    "worker (whole models)"),
  };
  return table;
}

std::vector<AxisInfo>& table()
{
  static std::vector<AxisInfo> axes = built_in_axes();
  return axes;
}

std::vector<std::string> axis_names()
{
  std::vector<std::string> names;
  for (const auto& info : axis_table()) {
    names.push_back(info.name);
  }
  return names;
}

size_t axis_index(const std::string& name)
{
  const auto names = axis_names();
  const auto found = std::find(names.begin(), names.end(), name);
  if (found != names.end()) {
    return static_cast<size_t>(found - names.begin());
  }
  std::string message = "unknown axis '" + name + "'";
  if (const auto hint = util::closest(name, names, 4)) {
    message += ", did you mean '" + *hint + "'?";
  }
  throw Error(message + " (axes: " + joined(names, ", ") + ")");
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
  throw Error(message + " (values: " + joined(info.values, ", ") + ")");
}

void check_value_index(size_t axis, int value)
{
  if (value < 0 || static_cast<size_t>(value) >= axis_table().at(axis).values.size()) {
    throw Error("axis " + axis_table()[axis].name + ": no value number " + std::to_string(value));
  }
}

} // namespace

std::vector<std::string> split_axis_values(const char* values_text)
{
  std::vector<std::string> values;
  std::string value;
  for (const char* c = values_text;; ++c) {
    if (*c == ',' || *c == '\0') {
      values.push_back(value);
      value.clear();
    } else if (*c != ' ') {
      value += *c;
    }
    if (*c == '\0') {
      return values;
    }
  }
}

const std::vector<AxisInfo>& axis_table() { return table(); }

ScopedAxis::ScopedAxis(AxisInfo info) : m_index(table().size())
{
  if (m_index >= k_max_axes || info.values.empty()) {
    throw Error("axis " + info.name + ": the table holds " + std::to_string(k_max_axes)
                + " axes of one value or more");
  }
  table().push_back(std::move(info));
}

ScopedAxis::~ScopedAxis() { table().pop_back(); }

void Axes::set_value_index(size_t axis, int value)
{
  check_value_index(axis, value);
  m_values.at(axis) = static_cast<std::uint8_t>(value);
}

bool Axes::is_reference() const { return *this == Axes{}; }

std::string axis_value(const Axes& axes, const std::string& name)
{
  const size_t axis = axis_index(name);
  return axis_table()[axis].values.at(axes.value_index(axis));
}

void set_axis(Axes& axes, const std::string& name, const std::string& value)
{
  const size_t axis = axis_index(name);
  axes.set_value_index(axis, value_index(axis_table()[axis], value));
}

std::string label(const Axes& axes)
{
  std::vector<std::string> words;
  for (size_t axis = 0; axis < axis_table().size(); ++axis) {
    const auto& info = axis_table()[axis];
    if (const int index = axes.value_index(axis); index != 0) {
      words.push_back(info.label_by == LabelBy::axis_name ? info.name : info.values.at(index));
    }
  }
  return words.empty() ? "reference" : joined(words, " ");
}

AxisGrid::AxisGrid() { m_values.fill({0}); }

void AxisGrid::set_value_indices(size_t axis, std::vector<int> indices)
{
  for (int index : indices) {
    check_value_index(axis, index);
  }
  m_values.at(axis) = std::move(indices);
}

bool AxisGrid::is_reference() const { return *this == AxisGrid{}; }

std::vector<Axes> corners(const AxisGrid& grid)
{
  std::vector<Axes> result{Axes{}};
  for (size_t axis = 0; axis < axis_table().size(); ++axis) {
    std::vector<Axes> grown;
    for (const auto& corner : result) {
      for (int index : grid.value_indices(axis)) {
        grown.push_back(corner);
        grown.back().set_value_index(axis, index);
      }
    }
    result = std::move(grown);
  }
  return result;
}

std::vector<std::string> grid_values(const AxisGrid& grid, const std::string& name)
{
  const size_t axis = axis_index(name);
  std::vector<std::string> values;
  for (int index : grid.value_indices(axis)) {
    values.push_back(axis_table()[axis].values.at(index));
  }
  return values;
}

void set_grid_values(AxisGrid& grid, const std::string& name, const std::vector<std::string>& values)
{
  const size_t axis = axis_index(name);
  if (values.empty()) {
    throw Error("axis " + name + ": no value given");
  }
  std::vector<int> indices;
  for (const auto& value : values) {
    const int index = value_index(axis_table()[axis], value);
    if (std::find(indices.begin(), indices.end(), index) != indices.end()) {
      throw Error("axis " + name + ": '" + value + "' is given twice");
    }
    indices.push_back(index);
  }
  grid.set_value_indices(axis, indices);
}

void apply_axes_argument(AxisGrid& grid, const std::string& argument)
{
  const auto equals = argument.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw UsageError("--axes: '" + argument + "' is not AXIS=VALUE[,VALUE...] (e.g. precision=fp32,bf16)");
  }
  const auto name = argument.substr(0, equals);
  const auto values = util::comma_list(argument.substr(equals + 1), "--axes: axis " + name);
  try {
    set_grid_values(grid, name, values);
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

std::string axes_help()
{
  std::vector<std::string> axes;
  for (const auto& info : axis_table()) {
    axes.push_back(info.name + "=" + joined(info.values, ","));
  }
  return joined(axes, " ");
}

std::string describe(const Axes& axes)
{
  std::vector<std::string> pairs;
  for (const auto& info : axis_table()) {
    pairs.push_back(info.name + "=" + axis_value(axes, info.name));
  }
  return joined(pairs, ", ");
}

} // namespace layerbench::dataset
