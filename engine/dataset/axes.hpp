// SPDX-License-Identifier: MIT
#pragma once

// The performance settings a PyTorch user turns (issue 13): one corner of the cube is one value of
// each axis. A cell is keyed by (layer, batch size, axes). The reference corner (fp32, contiguous,
// cudnn.benchmark off, inference mode, eager) is what every dataset before 1.3.0 measured, and a
// cell without "axes" in the file is that corner.

#include <string>
#include <vector>

namespace layerbench::dataset {

enum class Precision {
  fp32, // IEEE float32
  tf32, // float32 tensors, TF32 matmuls and convolutions (CUDA)
  bf16, // torch.autocast with bfloat16
  fp16  // torch.autocast with float16 (CUDA)
};

enum class MemoryFormat { contiguous, channels_last };

enum class CudnnBenchmark { off, on };

enum class GradMode {
  inference_mode, // torch.inference_mode(): no autograd state at all
  no_grad,        // torch.no_grad(): tensors stay ordinary, nothing recorded
  train           // module.train(), forward + backward
};

// torch_compile: a whole model compiled with torch.compile in a Python worker (bench/python_worker.hpp).
enum class Compiled { eager, aot_inductor, torch_compile };

struct Axes
{
  Precision precision = Precision::fp32;
  MemoryFormat memory_format = MemoryFormat::contiguous;
  CudnnBenchmark cudnn_benchmark = CudnnBenchmark::off;
  GradMode mode = GradMode::inference_mode;
  Compiled compiled = Compiled::eager;

  bool is_reference() const;
};

bool operator==(const Axes& a, const Axes& b);
bool operator!=(const Axes& a, const Axes& b);
bool operator<(const Axes& a, const Axes& b); // the cube's order: precision first, compiled last

// The axes' names and values as the command line, the JSON and the CSV spell them.
struct AxisInfo
{
  std::string name;                // "precision"
  std::vector<std::string> values; // "fp32", "tf32", "bf16", "fp16"; the first is the reference
  std::string help;
};
const std::vector<AxisInfo>& axis_table();

// The value of axis `name` in `axes`, as text ("bf16").
std::string axis_value(const Axes& axes, const std::string& name);
// Sets axis `name` to `value`; throws Error naming the axis or value, with the closest known one.
void set_axis(Axes& axes, const std::string& name, const std::string& value);

std::string to_string(Precision value);
std::string to_string(MemoryFormat value);
std::string to_string(CudnnBenchmark value);
std::string to_string(GradMode value);
std::string to_string(Compiled value);

// A short label of the values that differ from the reference corner, "bf16 channels_last train";
// "reference" for the reference corner. Unique per corner, so it also serves as a key.
std::string label(const Axes& axes);

// The values of each axis a run asks for; the cube is their product. Every list holds at least one
// value, the reference value when the run names none.
struct AxisGrid
{
  std::vector<Precision> precision{Precision::fp32};
  std::vector<MemoryFormat> memory_format{MemoryFormat::contiguous};
  std::vector<CudnnBenchmark> cudnn_benchmark{CudnnBenchmark::off};
  std::vector<GradMode> mode{GradMode::inference_mode};
  std::vector<Compiled> compiled{Compiled::eager};

  bool is_reference() const; // one corner, the reference
};

bool operator==(const AxisGrid& a, const AxisGrid& b);

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

} // namespace layerbench::dataset
