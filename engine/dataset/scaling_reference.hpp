// SPDX-License-Identifier: MIT
#pragma once

// data/reference/data-parallel-scaling.json: the data-parallel scaling figures the site shows that no
// dataset in data/ holds, each with its source (issue 38 item 4): LayerBench's own two-rank test of the
// path on two cores (its datasets are in bench/validity, not published), published multi-GPU figures
// (NVIDIA DeepLearningExamples, seed 001's article) and the inputs of the all-reduce model of
// docs/scale.md (the links' published bandwidths). A figure measured into a published dataset is read
// from that dataset instead.

#include "dataset/dataset.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::dataset {

// Same meaning of major/minor/patch as the dataset's SchemaVersion.
inline constexpr SchemaVersion k_scaling_reference_version{1, 0, 0};

struct ScalingSource
{
  std::string title;
  std::string url; // empty where the source names none
  std::string note;
};

// A scaling factor LayerBench measured outside data/, as `layerbench scaling` printed it.
struct MeasuredScaling
{
  std::string model;
  Axes axes; // mode and precision
  int batch_per_rank = 0;
  int world_size = 0;
  std::string device;
  std::string device_type; // "cpu" or "cuda"
  int cores = 0;           // the machine's, where the ranks share one CPU; 0 otherwise
  double one_process_samples_per_s = 0;
  double all_ranks_samples_per_s = 0;
  double factor = 0;
  double factor_low = 0;
  double factor_high = 0;
  double all_reduce_ms = 0;
  std::string date;
  std::vector<std::string> files; // the datasets it was computed from, relative to the repository
  std::string command;
  std::string note;
};

// A published multi-device figure: either both throughputs (the factor is computed) or a stated range.
struct PublishedScaling
{
  ScalingSource source;
  std::string model;
  std::string setting; // as the source names it: "TF32", "mixed precision", "fp32"
  std::string device;
  int devices = 0;                             // 0 where the source gives a range for several counts
  std::optional<double> one_samples_per_s;     // one device
  std::optional<double> all_samples_per_s;     // `devices` devices
  std::optional<double> factor_low;            // a stated range, where no throughputs are given
  std::optional<double> factor_high;
};

struct Link
{
  std::string name;
  double bidirectional_bytes_per_s = 0;
  ScalingSource source;
};

// The all-reduce model of docs/scale.md: a ring over `devices` devices moves 2(N-1)/N of the
// gradients' bytes each way through each link.
struct AllReduceModel
{
  std::string model; // whose parameter count sets the gradients' size
  int devices = 0;
  int gradient_bytes_per_parameter = 0;
  std::vector<Link> links;
};

struct ScalingReference
{
  SchemaVersion format_version = k_scaling_reference_version;
  std::string about;
  std::vector<MeasuredScaling> measured;
  std::vector<PublishedScaling> published;
  std::optional<AllReduceModel> all_reduce_model;
};

// Throws Error naming `origin` and the JSON pointer of the first problem; unknown fields are errors.
ScalingReference parse_scaling_reference(const std::string& text, const std::string& origin);
// DIR/reference/data-parallel-scaling.json, or nullopt where the folder has none.
std::optional<ScalingReference> load_scaling_reference(const std::filesystem::path& data_dir);

} // namespace layerbench::dataset
