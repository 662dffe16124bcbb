// SPDX-License-Identifier: MIT
#include "dataset/speed_class.hpp"

#include "dataset/batch_sizes.hpp"

#include <algorithm>
#include <map>

namespace layerbench::dataset {

std::string speed_class_rule()
{
  const auto batch = std::to_string(k_reference_batch);
  return "At batch size " + batch + " (or the run's largest batch size without " + batch + "), the layer with the "
         "smallest median is Fastest; every other layer is classed by its median over that smallest one: under 10x "
         "Fast, under 100x Medium, under 1000x Slow, else Very Slow.";
}

std::string speed_class_for_ratio(double ratio)
{
  if (ratio <= 1.0) {
    return "Fastest";
  }
  if (ratio < 10.0) {
    return "Fast";
  }
  if (ratio < 100.0) {
    return "Medium";
  }
  if (ratio < 1000.0) {
    return "Slow";
  }
  return "Very Slow";
}

void assign_speed_classes(Dataset& dataset)
{
  const int batch = reference_batch(dataset);
  std::map<std::string, double> medians;
  for (const auto& cell : dataset.results) {
    // The reference corner only: the classes compare layers, not settings.
    if (cell.batch_size == batch && cell.axes.is_reference() && cell.status == CellStatus::ok && cell.stats) {
      medians[cell.layer] = cell.stats->median_ms;
    }
  }
  double fastest = 0;
  std::string fastest_layer;
  for (const auto& [layer, median] : medians) {
    if (fastest_layer.empty() || median < fastest) {
      fastest = median;
      fastest_layer = layer;
    }
  }
  for (auto& layer : dataset.layers) {
    const auto found = medians.find(layer.name);
    if (found == medians.end() || fastest <= 0) {
      layer.speed_class.clear();
      continue;
    }
    // Only the one fastest layer is "Fastest", even if another is within rounding of it.
    layer.speed_class = layer.name == fastest_layer ? "Fastest"
                                                    : speed_class_for_ratio(std::max(found->second / fastest, 1.0 + 1e-12));
  }
}

} // namespace layerbench::dataset
