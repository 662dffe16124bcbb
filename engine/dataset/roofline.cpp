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
  Roofs roofs;
  roofs.compute_flop_per_s = compute->rate;
  roofs.memory_bytes_per_s = peaks.memory->rate;
  roofs.precision = precision;
  roofs.compute_noise = compute->noise;
  roofs.memory_noise = peaks.memory->noise;
  for (const auto& cache : peaks.caches) {
    roofs.caches.push_back({cache.level, static_cast<double>(cache.size_bytes), cache.triad.rate, cache.triad.noise,
                            cache.triad.noise_target_met});
  }
  std::sort(roofs.caches.begin(), roofs.caches.end(),
            [](const MemoryRoof& a, const MemoryRoof& b) { return *a.size_bytes < *b.size_bytes; });
  // A last-level cache larger than every measured level (all of them before 1.7.0) is a level unmeasured.
  const auto& last_level = dataset.environment->last_level_cache_bytes;
  if (last_level && (roofs.caches.empty() || static_cast<double>(*last_level) > *roofs.caches.back().size_bytes)) {
    roofs.unmeasured_cache_bytes = static_cast<double>(*last_level);
  }
  return roofs;
}

std::optional<Roofs> datasheet_roofs(const DatasheetDevice& device, const std::string& precision)
{
  const DatasheetRate* rate = find_rate(device, precision);
  if (!rate) {
    return std::nullopt;
  }
  Roofs roofs;
  roofs.compute_flop_per_s = rate->flop_per_s;
  roofs.memory_bytes_per_s = device.memory_bytes_per_s;
  roofs.precision = precision;
  roofs.origin = PeakOrigin::datasheet;
  if (device.last_level_cache_bytes) {
    roofs.unmeasured_cache_bytes = static_cast<double>(*device.last_level_cache_bytes);
  }
  return roofs;
}

MemoryRoof memory_roof(const Roofs& roofs)
{
  return {k_memory_level, std::nullopt, roofs.memory_bytes_per_s, roofs.memory_noise, std::nullopt};
}

LevelRoof memory_roof_for(const Roofs& roofs, double bytes)
{
  for (size_t i = 0; i < roofs.caches.size(); ++i) {
    if (bytes > *roofs.caches[i].size_bytes) {
      continue;
    }
    // A working set that fits in a level moves at least as fast as it would from any level outside it:
    // the fastest of them bounds it, so one triad timed low (descheduled on a busy machine) cannot
    // make a cell impossible that the outer levels allow.
    auto roof = roofs.caches[i];
    for (size_t outer = i + 1; outer < roofs.caches.size(); ++outer) {
      if (roofs.caches[outer].bytes_per_s > roof.bytes_per_s) {
        roof = roofs.caches[outer];
      }
    }
    const auto dram = memory_roof(roofs);
    if (dram.bytes_per_s > roof.bytes_per_s) {
      roof = dram;
    }
    const bool outer = roof.level != roofs.caches[i].level;
    return {roof, Fit::measured, outer ? std::optional<MemoryRoof>(roofs.caches[i]) : std::nullopt};
  }
  if (roofs.unmeasured_cache_bytes && bytes <= *roofs.unmeasured_cache_bytes) {
    return {memory_roof(roofs), Fit::unmeasured_cache};
  }
  const bool sizes_known = !roofs.caches.empty() || roofs.unmeasured_cache_bytes;
  return {memory_roof(roofs), sizes_known ? Fit::measured : Fit::unknown};
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
  result.memory = memory_roof_for(roofs, bytes);
  const double memory_bound = result.intensity * result.memory.roof.bytes_per_s;
  result.bound_by = memory_bound < roofs.compute_flop_per_s ? Resource::memory : Resource::compute;
  result.bound_flop_per_s = std::min(memory_bound, roofs.compute_flop_per_s);
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
