// SPDX-License-Identifier: MIT
#pragma once

// data/peaks/datasheet.json: what vendors state their devices can do, each figure with its source.
// Shown beside the peaks a run measures (environment.peaks), and the only peaks a transcribed
// reference has: we did not run it.

#include "dataset/dataset.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace layerbench::dataset {

// Same meaning of major/minor/patch as the dataset's SchemaVersion.
inline constexpr SchemaVersion k_datasheet_schema_version{1, 0, 0};

struct DatasheetRate
{
  std::string precision; // "fp32", "tf32", "bf16", "fp16"
  double flop_per_s = 0; // dense
  std::string note;
};

struct DatasheetDevice
{
  std::string id;
  std::string name;
  std::vector<std::string> matches; // a device name containing one of these is this device
  std::vector<DatasheetRate> compute;
  std::string memory_kind; // "HBM3"
  double memory_bytes_per_s = 0;
  std::optional<int64_t> last_level_cache_bytes; // the L2 of a GPU: a working set that fits may beat the memory
  std::string source_title;
  std::string source_publisher;
  std::string source_url;
  std::string source_note;
};

struct DatasheetPeaks
{
  SchemaVersion schema_version = k_datasheet_schema_version;
  std::string about;
  std::vector<DatasheetDevice> devices;
};

// Throws Error naming `origin` and the JSON pointer of the first problem; unknown fields are errors.
DatasheetPeaks parse_datasheet_peaks(const std::string& text, const std::string& origin);
DatasheetPeaks load_datasheet_peaks(const std::filesystem::path& path);

// The device whose `matches` names part of `device_name`; nullptr when none does.
const DatasheetDevice* match_device(const DatasheetPeaks& peaks, const std::string& device_name);
const DatasheetRate* find_rate(const DatasheetDevice& device, const std::string& precision);

// The device a dataset ran on, as its own words give it: the environment's device, or what a
// reference page names.
std::string device_name(const Dataset& dataset);

} // namespace layerbench::dataset
