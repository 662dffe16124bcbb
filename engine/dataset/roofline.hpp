// SPDX-License-Identifier: MIT
#pragma once

// The roofline of a cell: how fast it could run at most on a device whose compute peak is P FLOP/s
// and whose memory moves W bytes/s, given the work (FLOP) and the minimum traffic (bytes) of one
// forward pass. bound = min(P, intensity * W), intensity = FLOP / bytes; the cell reaches
// achieved / bound of it. W is the bandwidth of the level the working set fits in (L2, L3, or the
// memory past them, schema 1.7.0): a working set in cache may legitimately pass the memory's roof.
// Computed from dataset fields only, so site, diff and scripts agree.

#include "dataset/datasheet.hpp"
#include "dataset/dataset.hpp"

#include <optional>
#include <string>
#include <vector>

namespace layerbench::dataset {

enum class PeakOrigin {
  measured, // environment.peaks of the dataset itself
  datasheet // data/peaks/datasheet.json: what the vendor states
};

// One level of the memory hierarchy and the bandwidth it was measured (or stated) to give.
struct MemoryRoof
{
  std::string level;                // "L2", "L3"; k_memory_level past every cache
  std::optional<double> size_bytes; // the largest working set it serves; none past every cache
  double bytes_per_s = 0;
  std::optional<double> noise;      // the measured peak's (p75 - p25) / median; none for a datasheet figure
  std::optional<bool> noise_target_met;
};

inline constexpr const char* k_memory_level = "DRAM"; // a GPU's HBM as well: the memory past every cache

struct Roofs
{
  double compute_flop_per_s = 0;
  double memory_bytes_per_s = 0; // past every cache
  std::string precision; // "fp32": the compute roof's precision
  PeakOrigin origin = PeakOrigin::measured;
  std::optional<double> compute_noise; // as MemoryRoof::noise
  std::optional<double> memory_noise;
  std::vector<MemoryRoof> caches; // measured cache levels (schema 1.7.0), smallest first
  // The largest cache's size where the levels were not measured (environment.last_level_cache_bytes,
  // a datasheet's L2): a working set within it has no measured roof.
  std::optional<double> unmeasured_cache_bytes;
};

// The dataset's own measured roofs at `precision` (its compute peak there, its memory peak and its
// cache levels); nullopt when the run measured no peaks, or not compute and memory both.
std::optional<Roofs> measured_roofs(const Dataset& dataset, const std::string& precision = "fp32");
// A datasheet's roofs at `precision`; nullopt when the datasheet has no figure at that precision.
std::optional<Roofs> datasheet_roofs(const DatasheetDevice& device, const std::string& precision = "fp32");

// Which level a working set of `bytes` is served from, as far as the roofs know it.
enum class Fit {
  measured,         // a measured cache level, or the memory past every measured cache
  unmeasured_cache, // within a cache whose bandwidth was not measured: the memory roof does not bind it
  unknown           // the device's cache sizes are unknown: it may sit in one
};

struct LevelRoof
{
  MemoryRoof roof; // the level whose bandwidth bounds the traffic; the memory roof where unmeasured or unknown
  Fit fit = Fit::measured;
  // Where the whole working set fits, where that is not `roof`'s level: the smallest measured cache that
  // holds it, else the memory past every cache. The roof is then an outer level (or the memory) whose
  // triad timed faster, or an inner one that no byte outruns.
  std::optional<MemoryRoof> holding;
  // What the levels inside `roof` may keep between passes, at most: the sum of their sizes (an exclusive
  // hierarchy's capacity; more than an inclusive one keeps). 0 where the whole working set is held to
  // `roof`. The cell moves at least bytes - retained_bytes at roof's bandwidth or less.
  double retained_bytes = 0;
  std::string retained_by; // "the 1.00 MiB L2", "L2 and L3 (34.0 MiB together)", "the 40.0 MiB cache"
  double bytes_per_s = 0;  // the working set's bytes over its floor time: roof's bandwidth where nothing is retained
};

// The floor on the time of `bytes` of traffic, whatever the caches' replacement policy: with the levels
// smallest first and R_i the capacity of the i innermost, at least bytes - R_i of it comes from beyond
// them, no faster than the fastest level there, so time >= max_i (bytes - R_i) / max_{j >= i} bandwidth_j.
// A level whose bandwidth was not measured lets its share through unbounded. i = 0 is the smallest
// level that holds the working set bounding it whole (or a faster outer one); a working set past every
// cache is held to the memory for what no cache can keep.
LevelRoof memory_roof_for(const Roofs& roofs, double bytes);
// "the 1.00 MiB L2"; "no cache" for the memory past every cache.
std::string level_text(const MemoryRoof& roof);
// The memory past every cache as a MemoryRoof.
MemoryRoof memory_roof(const Roofs& roofs);

// The intensity (FLOP/byte) where the two roofs meet: below it a cell is bound by memory.
double ridge_intensity(const Roofs& roofs);

enum class Resource { compute, memory };
std::string to_string(Resource resource);

// Minimum bytes one forward pass of `batch_size` samples moves: bytes_fixed + B * bytes_per_sample;
// nullopt when the layer has no bytes formula (datasets older than 1.3.0, transcribed references).
std::optional<double> cell_bytes(const Layer& layer, int batch_size);

struct CellRoofline
{
  double flop = 0;        // per forward pass of the batch
  double bytes = 0;       // likewise
  double intensity = 0;   // flop / bytes
  double bound_flop_per_s = 0;
  Resource bound_by = Resource::compute;
  LevelRoof memory; // the level the working set is served from, whose bandwidth the memory bound uses
  double achieved_flop_per_s = 0; // flop / median time
  double fraction = 0;            // achieved / bound
};

// Of an ok cell whose layer has FLOPs (> 0) and bytes; nullopt otherwise (Embedding's 0 FLOPs have no
// point on a FLOP/s roofline).
std::optional<CellRoofline> cell_roofline(const Layer& layer, const Cell& cell, const Roofs& roofs);
// With `bytes` given where the layer has none: a reference borrows a measured dataset's formula.
std::optional<CellRoofline> cell_roofline(const Layer& layer, const Cell& cell, const Roofs& roofs, double bytes);

} // namespace layerbench::dataset
