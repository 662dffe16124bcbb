// SPDX-License-Identifier: MIT
#pragma once

// data/validation/<id>.json: LayerBench's times set against another timer's (format
// "layerbench-parity"), written by bench/parity/parity.py and read strictly here.
//
// format_version: a major change breaks readers, a minor one adds optional fields, a patch fixes text.

#include "dataset/dataset.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::dataset {

inline constexpr SchemaVersion k_parity_version{1, 0, 0};
inline constexpr SchemaVersion k_oldest_parity_version{1, 0, 0};

struct ParityTargets
{
  double median_ratio_low = 0;
  double median_ratio_high = 0;
  double cell_ratio_low = 0;
  double cell_ratio_high = 0;
  double cell_min_ms = 0; // cells faster than this are not held to the cell band
};

struct ParitySummary
{
  int cells = 0;
  double median_ratio = 0;
  int cells_at_least_min_ms = 0;
  int cells_within = 0;
};

struct ParityCell
{
  std::string layer;
  int batch_size = 0;
  double layerbench_median_ms = 0;
  double python_median_ms = 0;
  double ratio = 0; // layerbench / python: below 1, LayerBench measured less time
  std::vector<double> round_ratios;
  bool within_target = true;
  std::string note; // why a cell is outside the band; empty otherwise
};

struct Parity
{
  std::string id;
  std::string title;
  std::string created;
  std::string device_type;
  std::string device_name;
  int threads = 0;
  std::string torch_version;
  std::string cpu_memory_policy;
  int rounds = 0;
  std::string method;
  std::string command;
  ParityTargets targets;
  ParitySummary summary;
  std::vector<ParityCell> cells;
};

// Throws Error naming `origin` and the JSON pointer of the first problem, "too old"/"too new" for a
// format version this build does not read, and any field the format does not define.
Parity parse_parity(const std::string& text, const std::string& origin);

// Every <data_dir>/validation/*.json in file-name order; none when the folder is absent. A file whose id
// is not its name is an error.
std::vector<Parity> load_parity_folder(const std::filesystem::path& data_dir);

} // namespace layerbench::dataset
