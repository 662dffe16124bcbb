// SPDX-License-Identifier: MIT
#include "dataset/roofline.hpp"

#include <algorithm>

namespace layerbench::dataset {

std::optional<Roofs> measured_roofs(const Dataset& dataset, const std::string& precision)
{
  if (!dataset.environment || !dataset.environment->peaks || !dataset.environment->peaks->memory) {
    return std::nullopt;
  }
  const auto& peaks = *dataset.environment->peaks;
  const PeakRate* compute = find_compute_peak(peaks, precision);
  if (!compute) {
    return std::nullopt;
  }
  return Roofs{compute->rate, peaks.memory->rate, precision, PeakOrigin::measured};
}

std::optional<Roofs> datasheet_roofs(const DatasheetDevice& device, const std::string& precision)
{
  const DatasheetRate* rate = find_rate(device, precision);
  if (!rate) {
    return std::nullopt;
  }
  return Roofs{rate->flop_per_s, device.memory_bytes_per_s, precision, PeakOrigin::datasheet};
}

double ridge_intensity(const Roofs& roofs) { return roofs.compute_flop_per_s / roofs.memory_bytes_per_s; }

std::string to_string(Resource resource) { return resource == Resource::compute ? "compute" : "memory"; }

std::optional<double> cell_bytes(const Layer& layer, int batch_size)
{
  if (!layer.bytes_fixed || !layer.bytes_per_sample) {
    return std::nullopt;
  }
  return *layer.bytes_fixed + batch_size * *layer.bytes_per_sample;
}

std::optional<CellRoofline> cell_roofline(const Layer& layer, const Cell& cell, const Roofs& roofs, double bytes)
{
  if (cell.status != CellStatus::ok || !cell.stats || !(cell.stats->median_ms > 0) || !layer.flops_per_sample
      || !(*layer.flops_per_sample > 0) || !(bytes > 0)) {
    return std::nullopt;
  }
  CellRoofline result;
  result.flop = *layer.flops_per_sample * cell.batch_size;
  result.bytes = bytes;
  result.intensity = result.flop / result.bytes;
  const double memory_roof = result.intensity * roofs.memory_bytes_per_s;
  result.bound_by = memory_roof < roofs.compute_flop_per_s ? Resource::memory : Resource::compute;
  result.bound_flop_per_s = std::min(memory_roof, roofs.compute_flop_per_s);
  result.achieved_flop_per_s = result.flop / (cell.stats->median_ms / 1000.0);
  result.fraction = result.achieved_flop_per_s / result.bound_flop_per_s;
  return result;
}

std::optional<CellRoofline> cell_roofline(const Layer& layer, const Cell& cell, const Roofs& roofs)
{
  const auto bytes = cell_bytes(layer, cell.batch_size);
  if (!bytes) {
    return std::nullopt;
  }
  return cell_roofline(layer, cell, roofs, *bytes);
}

} // namespace layerbench::dataset
