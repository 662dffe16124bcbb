// SPDX-License-Identifier: MIT
// Shared by the dataset tests: small hand-made datasets whose answers are known, and a temporary
// folder. The numbers are test inputs, not measurements.
#pragma once

#include "dataset/dataset.hpp"
#include "util/error.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace layerbench::test {

inline dataset::Stats quartiles(double median, double p25, double p75)
{
  dataset::Stats stats;
  stats.median_ms = median;
  stats.p25_ms = p25;
  stats.p75_ms = p75;
  stats.samples = 10;
  stats.noise = (p75 - p25) / median;
  return stats;
}

inline dataset::Cell timed_cell(const std::string& layer, int batch_size, dataset::Stats stats)
{
  dataset::Cell cell;
  cell.layer = layer;
  cell.batch_size = batch_size;
  cell.stats = stats;
  cell.peak_memory_bytes = 1024;
  return cell;
}

inline dataset::Cell skipped_cell(const std::string& layer, int batch_size, const std::string& reason)
{
  dataset::Cell cell;
  cell.layer = layer;
  cell.batch_size = batch_size;
  cell.status = dataset::CellStatus::skipped;
  cell.skip_reason = reason;
  return cell;
}

// A complete, valid measured dataset: every (layer, batch size) cell timed, median 1 ms with the
// interquartile range [0.95, 1.05] (noise 0.1).
inline dataset::Dataset measured(std::vector<std::string> layers = {"Linear", "Dropout"},
                                 std::vector<int> batch_sizes = {1, 8})
{
  dataset::Dataset d;
  d.id = "test-cpu";
  d.title = "Hand-made test dataset";
  d.created = "2026-11-22T04:05:07Z";
  d.license.attribution = "LayerBench test fixture";
  d.creators = {{"LayerBench tests", ""}};
  d.provenance.tool_version = "0.1.0";
  d.provenance.git_commit = "unknown";
  d.provenance.command_line = "layerbench run";
  dataset::Environment environment;
  environment.device.type = "cpu";
  environment.device.name = "Test CPU";
  environment.torch_version = "2.11.0";
  environment.logical_cores = 2;
  environment.threads = 2;
  d.environment = environment;
  dataset::Methodology methodology;
  methodology.timer = "steady-clock";
  methodology.layers = layers;
  methodology.batch_sizes = batch_sizes;
  methodology.noise_metric = "iqr_over_median";
  d.methodology = methodology;
  for (const auto& name : layers) {
    dataset::Layer layer;
    layer.name = name;
    layer.module = "nn." + name;
    layer.config = name + "()";
    layer.params = 10;
    layer.flops_per_sample = 20;
    d.layers.push_back(layer);
    for (int batch_size : batch_sizes) {
      d.results.push_back(timed_cell(name, batch_size, quartiles(1.0, 0.95, 1.05)));
    }
  }
  return d;
}

inline dataset::Cell& cell_of(dataset::Dataset& d, const std::string& layer, int batch_size)
{
  for (auto& cell : d.results) {
    if (cell.layer == layer && cell.batch_size == batch_size) {
      return cell;
    }
  }
  throw std::runtime_error("no cell " + layer);
}

// The message of the Error that `action` throws; fails the test when nothing is thrown.
inline std::string error_of(const std::function<void()>& action)
{
  try {
    action();
  } catch (const Error& error) {
    return error.what();
  }
  FAIL("no error");
  return {};
}

inline void write_text(const std::filesystem::path& path, const std::string& content)
{
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

// A fresh folder under the system's temporary folder, removed at the end of the test.
class TempFolder
{
public:
  TempFolder()
  {
    std::random_device device;
    m_path = std::filesystem::temp_directory_path() / ("layerbench-dataset-test-" + std::to_string(device()));
    std::filesystem::create_directories(m_path);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  ~TempFolder()
  {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  const std::filesystem::path& path() const { return m_path; }

private:
  std::filesystem::path m_path;
};

} // namespace layerbench::test
