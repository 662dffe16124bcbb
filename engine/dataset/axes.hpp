// SPDX-License-Identifier: MIT
#pragma once

// The performance settings a PyTorch user turns (issue 13): one corner of the cube is one value of
// each axis. A cell is keyed by (layer, batch size, axes). The reference corner (fp32, contiguous,
// cudnn.benchmark off, inference mode, eager) is what every dataset before 1.3.0 measured, and a
// cell without "axes" in the file is that corner.
//
// An axis is declared once: LAYERBENCH_AXIS below gives C++ its enum and handle, and its row in
// axis_table() (axes.cpp) its help and label. From those come the comparison and order of corners,
// their labels, the names and values the command line, the JSON and the CSV spell, the iteration
// over the cube, the CSV columns, the --axes help and the presets. A value is one more enumerator.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace layerbench::dataset {

// An axis known to C++ code: its place in axis_table(), its name, and its enum.
template<typename Enum>
struct Axis
{
  std::size_t index;
  const char* name;
};

// Declares axis number `index`: enum class `Enum` whose enumerators are the values as the files spell
// them (the first is the reference; no "= N"), and the handle k_<name>. The values' text comes from
// the enumerator list itself, as nvbench's NVBENCH_DECLARE_ENUM_TYPE_STRINGS does for its enum axes.
#define LAYERBENCH_AXIS(index, name, Enum, ...)                                                               \
  enum class Enum : std::uint8_t { __VA_ARGS__ };                                                           \
  constexpr const char* axis_values_text(Enum) { return #__VA_ARGS__; }                                    \
  inline constexpr Axis<Enum> k_##name{index, #name}

// fp32: IEEE float32; tf32: float32 tensors, TF32 matmuls and convolutions (CUDA); bf16 and fp16:
// torch.autocast with that dtype (fp16 on CUDA).
LAYERBENCH_AXIS(0, precision, Precision, fp32, tf32, bf16, fp16);
LAYERBENCH_AXIS(1, memory_format, MemoryFormat, contiguous, channels_last);
LAYERBENCH_AXIS(2, cudnn_benchmark, CudnnBenchmark, off, on);
// inference_mode: no autograd state at all; no_grad: tensors stay ordinary, nothing recorded;
// train: module.train(), forward + backward.
LAYERBENCH_AXIS(3, mode, GradMode, inference_mode, no_grad, train);
// torch_compile: a whole model compiled with torch.compile in a Python worker (bench/python_worker.hpp).
LAYERBENCH_AXIS(4, compiled, Compiled, eager, aot_inductor, torch_compile);

// How a corner's label names an axis's value other than the reference: by the value ("bf16"), or,
// for an off/on axis, by the axis's name ("cudnn_benchmark").
enum class LabelBy { value, axis_name };

// An axis's names and values as the command line, the JSON and the CSV spell them.
struct AxisInfo
{
  std::string name;                // "precision"
  std::vector<std::string> values; // "fp32", "tf32", "bf16", "fp16"; the first is the reference
  std::string help;
  LabelBy label_by = LabelBy::value;
};

// Every axis, in the cube's order: precision first, compiled last.
const std::vector<AxisInfo>& axis_table();

// The table holds at most this many axes; a corner is this many small numbers.
inline constexpr std::size_t k_max_axes = 8;

// Adds an axis after the others for the life of the object. For tests, which declare an axis of their
// own to see it reach every place the table drives; no two at once, and destroyed in reverse order.
class ScopedAxis
{
public:
  explicit ScopedAxis(AxisInfo info);
  ScopedAxis(const ScopedAxis&) = delete;
  ScopedAxis& operator=(const ScopedAxis&) = delete;
  ~ScopedAxis();

  std::size_t index() const { return m_index; }

private:
  std::size_t m_index;
};

// The values of an axis's enum, in order, as text.
std::vector<std::string> split_axis_values(const char* values_text);

template<typename Enum, typename = decltype(axis_values_text(Enum{}))>
std::string to_string(Enum value)
{
  static const auto values = split_axis_values(axis_values_text(Enum{}));
  return values.at(static_cast<std::size_t>(value));
}

// One corner of the cube: a value of each axis, held as its place in the axis's value list.
class Axes
{
public:
  template<typename Enum>
  Enum operator[](Axis<Enum> axis) const
  {
    return static_cast<Enum>(m_values.at(axis.index));
  }
  template<typename Enum>
  void set(Axis<Enum> axis, Enum value)
  {
    m_values.at(axis.index) = static_cast<std::uint8_t>(value);
  }

  int value_index(std::size_t axis) const { return m_values.at(axis); }
  void set_value_index(std::size_t axis, int value);

  bool is_reference() const;

  friend bool operator==(const Axes& a, const Axes& b) { return a.m_values == b.m_values; }
  friend bool operator!=(const Axes& a, const Axes& b) { return !(a == b); }
  // The cube's order: precision first, compiled last, each axis's values in their declared order.
  friend bool operator<(const Axes& a, const Axes& b) { return a.m_values < b.m_values; }

private:
  std::array<std::uint8_t, k_max_axes> m_values{}; // every axis at its reference value
};

// The value of axis `name` in `axes`, as text ("bf16").
std::string axis_value(const Axes& axes, const std::string& name);
// Sets axis `name` to `value`; throws Error naming the axis or value, with the closest known one.
void set_axis(Axes& axes, const std::string& name, const std::string& value);

// A short label of the values that differ from the reference corner, "bf16 channels_last train";
// "reference" for the reference corner. Unique per corner, so it also serves as a key.
std::string label(const Axes& axes);

// The values of each axis a run asks for; the cube is their product. Every list holds at least one
// value, the reference value when the run names none.
class AxisGrid
{
public:
  AxisGrid();

  template<typename Enum>
  std::vector<Enum> operator[](Axis<Enum> axis) const
  {
    std::vector<Enum> result;
    for (int index : value_indices(axis.index)) {
      result.push_back(static_cast<Enum>(index));
    }
    return result;
  }
  template<typename Enum>
  void set(Axis<Enum> axis, const std::vector<Enum>& values)
  {
    std::vector<int> indices;
    for (Enum value : values) {
      indices.push_back(static_cast<int>(value));
    }
    set_value_indices(axis.index, indices);
  }

  const std::vector<int>& value_indices(std::size_t axis) const { return m_values.at(axis); }
  void set_value_indices(std::size_t axis, std::vector<int> indices);

  bool is_reference() const; // one corner, the reference

  friend bool operator==(const AxisGrid& a, const AxisGrid& b) { return a.m_values == b.m_values; }

private:
  std::array<std::vector<int>, k_max_axes> m_values;
};

// The product of the grid's values, in the grid's order (the last axis varies fastest).
std::vector<Axes> corners(const AxisGrid& grid);

// The values of axis `name` in the grid, as text.
std::vector<std::string> grid_values(const AxisGrid& grid, const std::string& name);
// Replaces axis `name`'s values; throws Error on an unknown axis or value, or a value given twice.
void set_grid_values(AxisGrid& grid, const std::string& name, const std::vector<std::string>& values);

// One `--axes` argument, "precision=fp32,bf16", applied to the grid. Throws UsageError naming --axes.
void apply_axes_argument(AxisGrid& grid, const std::string& argument);
// Every --axes argument in turn; an axis named by two of them is a UsageError naming both.
void apply_axes_arguments(AxisGrid& grid, const std::vector<std::string>& arguments);

// Every axis with its values, "precision=fp32,tf32,bf16,fp16 memory_format=contiguous,channels_last ...",
// for --axes's help.
std::string axes_help();
// A corner as AXIS=VALUE pairs, "precision=fp32, memory_format=contiguous, ...", every axis named.
std::string describe(const Axes& axes);

} // namespace layerbench::dataset
