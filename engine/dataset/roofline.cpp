// SPDX-License-Identifier: MIT
#include "dataset/roofline.hpp"

#include "util/format.hpp"

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

std::string level_text(const MemoryRoof& roof)
{
  return roof.size_bytes ? "the " + util::format_bytes(*roof.size_bytes) + " " + roof.level : std::string("no cache");
}

MemoryRoof memory_roof(const Roofs& roofs)
{
  return {k_memory_level, std::nullopt, roofs.memory_bytes_per_s, roofs.memory_noise, std::nullopt};
}

namespace {

// The levels the traffic may come from, smallest first, the memory last; an unmeasured level's bandwidth
// is none.
struct Level
{
  MemoryRoof roof;
  bool measured = true;
};

std::vector<Level> levels_of(const Roofs& roofs)
{
  std::vector<Level> levels;
  for (const auto& cache : roofs.caches) {
    levels.push_back({cache, true});
  }
  if (roofs.unmeasured_cache_bytes) {
    levels.push_back({{"cache", roofs.unmeasured_cache_bytes, 0, std::nullopt, std::nullopt}, false});
  }
  levels.push_back({memory_roof(roofs), true});
  return levels;
}

std::string retained_text(const std::vector<Level>& levels, size_t count, double bytes)
{
  if (count == 1) {
    return level_text(levels[0].roof);
  }
  std::string names;
  for (size_t i = 0; i < count; ++i) {
    names += (i == 0 ? "" : i + 1 == count ? " and " : ", ") + levels[i].roof.level;
  }
  return names + " (" + util::format_bytes(bytes) + " together)";
}

} // namespace

LevelRoof memory_roof_for(const Roofs& roofs, double bytes)
{
  if (roofs.caches.empty() && !roofs.unmeasured_cache_bytes) {
    return {memory_roof(roofs), Fit::unknown, std::nullopt, 0, "", roofs.memory_bytes_per_s};
  }
  const auto levels = levels_of(roofs);
  // Term i: the bytes the i innermost levels cannot keep, at the fastest bandwidth beyond them. It bounds
  // nothing where a level beyond them is unmeasured (its share may move at any rate).
  double retained = 0;
  double floor = 0;
  std::optional<size_t> best_level;
  size_t best_count = 0;
  double best_retained = 0;
  for (size_t i = 0; i < levels.size() && retained < bytes; ++i) {
    std::optional<size_t> fastest;
    bool bounded = true;
    for (size_t j = i; j < levels.size(); ++j) {
      bounded = bounded && levels[j].measured;
      if (!fastest || levels[j].roof.bytes_per_s > levels[*fastest].roof.bytes_per_s) {
        fastest = j;
      }
    }
    const double term = (bytes - retained) / levels[*fastest].roof.bytes_per_s;
    if (bounded && term > floor) {
      floor = term;
      best_level = fastest;
      best_count = i;
      best_retained = retained;
    }
    if (levels[i].roof.size_bytes) {
      retained += *levels[i].roof.size_bytes;
    }
  }
  if (!best_level) {
    return {memory_roof(roofs), Fit::unmeasured_cache, std::nullopt, 0, "", roofs.memory_bytes_per_s};
  }
  LevelRoof result{levels[*best_level].roof, Fit::measured, std::nullopt, best_retained, "", bytes / floor};
  if (best_count > 0) {
    result.retained_by = retained_text(levels, best_count, best_retained);
  }
  const auto holds = std::find_if(roofs.caches.begin(), roofs.caches.end(),
                                  [&](const MemoryRoof& cache) { return bytes <= *cache.size_bytes; });
  const auto holding = holds != roofs.caches.end() ? *holds : memory_roof(roofs);
  if (holding.level != result.roof.level) {
    result.holding = holding;
  }
  return result;
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
  const double memory_bound = result.intensity * result.memory.bytes_per_s;
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
