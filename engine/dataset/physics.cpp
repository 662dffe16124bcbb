// SPDX-License-Identifier: MIT
#include "dataset/physics.hpp"

#include "dataset/axes.hpp"
#include "dataset/roofline.hpp"
#include "util/format.hpp"

namespace layerbench::dataset {

namespace {

void check_compute(const Cell& cell, const Layer& layer, double seconds, const std::string& pointer,
                   const Roofs& roofs, std::vector<Finding>& findings)
{
  const double flop = layer.flops_per_sample.value_or(0) * cell.batch_size;
  const double rate = flop / seconds;
  if (flop <= 0 || rate <= k_impossible_margin * roofs.compute_flop_per_s) {
    return;
  }
  findings.push_back({Severity::error, pointer,
                      describe_cell({cell.layer, cell.batch_size, cell.axes}) + ": " + util::format_rate(flop, "FLOP") + " in "
                          + util::format_significant(seconds * 1e3, 3) + " ms is " + util::format_rate(rate, "FLOP/s")
                          + ", more than " + util::format_fixed(k_impossible_margin, 0) + "x the device's measured "
                          + roofs.precision + " peak of " + util::format_rate(roofs.compute_flop_per_s, "FLOP/s")
                          + ": no device runs above its peak, so the time is wrong"});
}

void check_memory(const Dataset& dataset, const Cell& cell, const Layer& layer, double seconds,
                  const std::string& pointer, const Roofs& roofs, std::vector<Finding>& findings)
{
  const auto bytes = cell_bytes(layer, cell.batch_size);
  if (!bytes) {
    return;
  }
  const double rate = *bytes / seconds;
  if (rate <= roofs.memory_bytes_per_s) {
    return;
  }
  const auto cache = dataset.environment->last_level_cache_bytes;
  const std::string arithmetic = describe_cell({cell.layer, cell.batch_size, cell.axes}) + ": at least " + util::format_bytes(*bytes) + " moved in "
                                 + util::format_significant(seconds * 1e3, 3) + " ms is " + util::format_rate(rate, "B/s")
                                 + ", above the measured memory roof of " + util::format_rate(roofs.memory_bytes_per_s, "B/s");
  if (cache && *bytes > static_cast<double>(*cache) && rate > k_impossible_margin * roofs.memory_bytes_per_s) {
    findings.push_back({Severity::error, pointer,
                        arithmetic + " by more than " + util::format_fixed(k_impossible_margin, 0) + "x, with a working set "
                            "larger than the " + util::format_bytes(static_cast<double>(*cache)) + " last-level cache: the time is wrong"});
    return;
  }
  findings.push_back({Severity::warning, pointer,
                      arithmetic + (cache ? (*bytes <= static_cast<double>(*cache)
                                                 ? "; its working set fits in the " + util::format_bytes(static_cast<double>(*cache))
                                                       + " last-level cache, which is faster than memory"
                                                 : "; not by " + util::format_fixed(k_impossible_margin, 0) + "x")
                                          : "; the dataset does not record its last-level cache, which may hold it")});
}

} // namespace

std::vector<Finding> check_physics(const Dataset& dataset)
{
  std::vector<Finding> findings;
  if (dataset.kind != Kind::measured || !dataset.environment) {
    return findings;
  }
  for (size_t i = 0; i < dataset.results.size(); ++i) {
    const auto& cell = dataset.results[i];
    const Layer* layer = find_layer(dataset, cell.layer);
    if (cell.status != CellStatus::ok || !cell.stats || !layer || cell.stats->median_ms <= 0) {
      continue;
    }
    const auto roofs = measured_roofs(dataset, to_string(cell.axes[k_precision]));
    if (!roofs) {
      continue;
    }
    const double seconds = cell.stats->median_ms / 1e3;
    const auto pointer = "/results/" + std::to_string(i) + "/stats/median_ms";
    check_compute(cell, *layer, seconds, pointer, *roofs, findings);
    check_memory(dataset, cell, *layer, seconds, pointer, *roofs, findings);
  }
  return findings;
}

} // namespace layerbench::dataset
