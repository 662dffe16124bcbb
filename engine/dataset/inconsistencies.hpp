// SPDX-License-Identifier: MIT
#pragma once

// data/reference/<id>-inconsistencies.json (format "layerbench-inconsistencies"): the problems of a
// published reference that LayerBench's own computations expose, each with both numbers. Written by
// data/reference/find_inconsistencies.py, described by data/schema/inconsistencies.schema.json and
// read strictly here.
//
// format_version: a major change breaks readers, a minor one adds optional fields, a patch fixes text.

#include "dataset/dataset.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace layerbench::dataset {

inline constexpr SchemaVersion k_inconsistencies_version{1, 1, 0}; // 1.1.0: implied_bandwidth_above_peak
inline constexpr SchemaVersion k_oldest_inconsistencies_version{1, 0, 0};

enum class InconsistencyKind {
  params_differ_from_pytorch,     // the page's parameter count against the module LibTorch builds
  params_differ_from_page_formula, // the page's count against the page's own formula
  flops_differ_from_page_formula,  // the page's FLOPs against the page's own formula
  claim_differs_from_table,       // the page's text against the page's own table
  flops_per_mac_differs,          // a FLOP formula counting multiply-adds otherwise than the page's others
  implied_rate_above_peak,        // the page's time implies more FLOP/s than the device's datasheet peak
  memory_below_input,             // the page's memory figure is below the size of the layer's own input
  implied_bandwidth_above_peak,   // the page's time implies more bytes/s than the datasheet's memory, out of cache (1.1.0)
};

std::string to_string(InconsistencyKind kind);

// A figure the page claims (a number or a text) or its table gives (a number or a text per key,
// "32": "Embedding").
struct Figure
{
  std::optional<double> number;
  std::string text;
  std::vector<std::pair<std::string, std::string>> by_key; // a list of texts per key is joined with ", "
};

struct Inconsistency
{
  InconsistencyKind kind = InconsistencyKind::params_differ_from_pytorch;
  std::string layer;  // empty for a claim about the whole page
  std::string config; // the page's configuration text; may be empty for a claim
  std::string note;   // may be empty

  // params_differ_from_pytorch and the *_from_page_formula kinds
  double page = 0; // the page's figure
  // params_differ_from_pytorch
  int64_t pytorch = 0;
  std::string pytorch_source;
  // *_from_page_formula
  std::string formula;
  std::vector<std::pair<std::string, double>> bindings; // in the file's order
  double formula_value = 0;
  std::optional<double> page_over_formula;
  // claim_differs_from_table
  std::string claim;
  std::string where;
  Figure claimed;
  Figure table;
  std::string computation; // also of the three kinds below
  // flops_per_mac_differs (with formula and bindings)
  std::vector<std::pair<std::string, double>> flops_per_mac; // per term of the formula
  std::vector<std::pair<std::string, double>> elsewhere;     // per other layer of the page
  // implied_rate_above_peak and memory_below_input
  int batch_size = 0;
  // implied_rate_above_peak
  double page_ms = 0;
  double flops_per_sample = 0;
  double implied_flop_per_s = 0;
  double peak_flop_per_s = 0;
  std::string peak_source;
  // memory_below_input
  int64_t page_memory_bytes = 0;
  int64_t input_bytes = 0;
  // implied_bandwidth_above_peak (with batch_size, page_ms, peak_source and computation)
  double bytes = 0; // the least the forward moves, from our bytes formula
  double implied_bytes_per_s = 0;
  double peak_bytes_per_s = 0;
  int64_t last_level_cache_bytes = 0;
};

struct InconsistencyFile
{
  std::string origin;            // the file, as errors name it
  std::string reference;         // "id@N" of the reference dataset it is about
  std::string reference_path;    // relative to the data folder
  std::string reference_sha256;  // of that file when the inconsistencies were found
  std::string ours_source;
  std::string ours_tool_version;
  std::string about;
  std::string generated_by;
  std::vector<std::string> conventions;
  std::vector<Inconsistency> items;
};

// Throws Error naming `origin` and the JSON pointer of the first problem: an unknown or missing field,
// a field another kind has, "too old"/"too new" for a format version this build does not read.
InconsistencyFile parse_inconsistencies(const std::string& text, const std::string& origin);

// How DATA/reference/ names these files, so that other JSON there (none today) is not taken for one.
inline constexpr const char* k_inconsistencies_suffix = "-inconsistencies.json";

} // namespace layerbench::dataset
