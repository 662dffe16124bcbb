// SPDX-License-Identifier: MIT
#pragma once

// The roofline chart: attainable FLOP/s against arithmetic intensity (FLOP/byte), log-log. Each roof
// is a slanted memory line (intensity x bandwidth) meeting a flat compute line (the peak) at the
// ridge; each cell is one point, coloured by its layer. Accessible as the other charts are (chart.hpp):
// a <title> and <desc>, labelled axes with units, a legend, and a <title> per point for its figures.

#include "site/chart.hpp"

#include <optional>
#include <string>
#include <vector>

namespace layerbench::site {

struct Roof
{
  std::string name; // "measured fp32"; the legend adds its figures on a line of their own
  // None where the compute peak is withdrawn (an erratum): the roof is then the memory's slope alone.
  std::optional<double> compute_flop_per_s;
  double memory_bytes_per_s = 0;
  Stroke stroke = Stroke::solid; // datasheet roofs are dashed: not what a run of ours reached; cache levels dotted
};

struct RooflinePoint
{
  std::string group; // the layer: one colour and one legend entry per group
  std::string text;  // what hovering the point says: "Linear, batch 32: ..."
  double intensity = 0;   // FLOP/byte, > 0
  double flop_per_s = 0;  // achieved, > 0
};

struct RooflineChart
{
  std::string id;
  std::string title;
  std::string description;
  std::vector<Roof> roofs;
  std::vector<RooflinePoint> points;
};

// "" when there is no roof or no point.
std::string render_svg(const RooflineChart& chart);

} // namespace layerbench::site
