// SPDX-License-Identifier: MIT
#pragma once

// The roofline of a cell: how fast it could run at most on a device whose compute peak is P FLOP/s
// and whose memory moves W bytes/s, given the work (FLOP) and the minimum traffic (bytes) of one
// forward pass. bound = min(P, intensity * W), intensity = FLOP / bytes; the cell reaches
// achieved / bound of it. Computed from dataset fields only, so site, diff and scripts agree.

#include "dataset/datasheet.hpp"
#include "dataset/dataset.hpp"

#include <optional>
#include <string>

namespace layerbench::dataset {

enum class PeakOrigin {
  measured, // environment.peaks of the dataset itself
  datasheet // data/peaks/datasheet.json: what the vendor states
};

struct Roofs
{
  double compute_flop_per_s = 0;
  double memory_bytes_per_s = 0;
  std::string precision; // "fp32": the compute roof's precision
  PeakOrigin origin = PeakOrigin::measured;
};

// The dataset's own measured roofs at `precision` (its compute peak there and its memory peak);
// nullopt when the run measured no peaks, or not both.
std::optional<Roofs> measured_roofs(const Dataset& dataset, const std::string& precision = "fp32");
// A datasheet's roofs at `precision`; nullopt when the datasheet has no figure at that precision.
std::optional<Roofs> datasheet_roofs(const DatasheetDevice& device, const std::string& precision = "fp32");

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
  double achieved_flop_per_s = 0; // flop / median time
  double fraction = 0;            // achieved / bound
};

// Of an ok cell whose layer has FLOPs (> 0) and bytes; nullopt otherwise (Embedding's 0 FLOPs have no
// point on a FLOP/s roofline).
std::optional<CellRoofline> cell_roofline(const Layer& layer, const Cell& cell, const Roofs& roofs);
// With `bytes` given where the layer has none: a reference borrows a measured dataset's formula.
std::optional<CellRoofline> cell_roofline(const Layer& layer, const Cell& cell, const Roofs& roofs, double bytes);

} // namespace layerbench::dataset
