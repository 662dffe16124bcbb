// SPDX-License-Identifier: MIT
#include "dataset/physics.hpp"

#include "dataset/axes.hpp"
#include "dataset/data_folder.hpp"
#include "dataset/roofline.hpp"
#include "util/build_info.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <utility>

namespace layerbench::dataset {

namespace {

std::string percent(double fraction) { return util::format_fixed(fraction * 100, 1) + "%"; }
std::string ms(double value) { return util::format_significant(value, 3) + " ms"; }

// "tolerance 8.61% (3x the peak's 2.87% noise)": how far above the roof a cell may be, and why.
std::string tolerance_text(std::optional<double> noise, PeakOrigin origin)
{
  const double tolerance = roof_tolerance(noise);
  if (origin == PeakOrigin::datasheet) {
    return "tolerance " + percent(tolerance) + " for a datasheet figure";
  }
  if (!noise || k_noise_multiple * *noise < k_least_tolerance) {
    return "tolerance " + percent(tolerance) + ", the least allowed";
  }
  return "tolerance " + percent(tolerance) + ": " + util::format_fixed(k_noise_multiple, 0) + "x the peak's " + percent(*noise)
         + " noise";
}

std::string origin_text(const Roofs& roofs)
{
  return roofs.origin == PeakOrigin::measured ? "measured" : "datasheet";
}

// Why a cell above its compute floor is or is not an error: ": no device runs above its peak, ...".
std::pair<Severity, std::string> compute_verdict(const Cell& cell, const Erratum* withdrawn)
{
  if (const auto transform = transform_kernel(cell)) {
    return {Severity::warning, "): above the direct count's floor, which does not bound it: its kernels show a transform "
                               "algorithm that does less arithmetic (" + *transform + ")"};
  }
  if (withdrawn) {
    return {Severity::warning, "): above a peak withdrawn by " + erratum_text(*withdrawn) + ", which does not bound it"};
  }
  return {Severity::error, "): no device runs above its peak, so the time or the peak is wrong"};
}

// `withdrawn`: the erratum that withdrew this measured peak, or null.
void check_compute(const Cell& cell, const Layer& layer, const std::string& pointer, const Roofs& roofs,
                   const Erratum* withdrawn, std::vector<PhysicsFinding>& findings)
{
  const double flop = layer.flops_per_sample.value_or(0) * cell.batch_size;
  const double median = cell.stats->median_ms;
  const double floor = flop / roofs.compute_flop_per_s * 1e3;
  if (flop <= 0 || median * (1 + roof_tolerance(roofs.compute_noise)) >= floor) {
    return;
  }
  const auto [severity, verdict] = compute_verdict(cell, withdrawn);
  findings.push_back({severity, pointer,
                      describe_cell({cell.layer, cell.batch_size, cell.axes}) + ": " + ms(median) + " < " + ms(floor)
                        + ", the floor at the " + origin_text(roofs) + " " + roofs.precision + " peak of "
                        + util::format_rate(roofs.compute_flop_per_s, "FLOP/s") + " for " + util::format_rate(flop, "FLOP")
                        + " (" + util::format_rate(flop / (median / 1e3), "FLOP/s") + "; "
                        + tolerance_text(roofs.compute_noise, roofs.origin) + verdict});
}

// Where the working set sits, and why its roof is another level's when it is.
std::string fit_text(const LevelRoof& level)
{
  if (!level.holding) {
    return level_text(level.roof);
  }
  if (!level.holding->size_bytes) { // larger than every cache, held to a cache's rate: none moves faster
    return "no cache; " + level.roof.level + "'s triad, the fastest its share can come from, bounds it";
  }
  return level_text(*level.holding) + ", whose triad timed slower than " + level.roof.level
         + "'s, so the faster one bounds it";
}

void check_memory(const Cell& cell, const Layer& layer, const std::string& pointer, const Roofs& roofs,
                  std::vector<PhysicsFinding>& findings)
{
  const auto bytes = cell_bytes(layer, cell.batch_size);
  if (!bytes || *bytes <= 0) {
    return;
  }
  const auto level = memory_roof_for(roofs, *bytes);
  const double median = cell.stats->median_ms;
  const double floor = *bytes / level.bytes_per_s * 1e3;
  if (median * (1 + roof_tolerance(level.roof.noise)) >= floor) {
    return;
  }
  const std::string moved = level.retained_bytes > 0
                              ? "the " + util::format_bytes(*bytes - level.retained_bytes) + " of its "
                                  + util::format_bytes(*bytes) + " moved that " + level.retained_by + " cannot keep"
                              : util::format_bytes(*bytes) + " moved";
  const std::string arithmetic = describe_cell({cell.layer, cell.batch_size, cell.axes}) + ": " + ms(median) + " < "
                                 + ms(floor) + ", the floor at " + level.roof.level + " bandwidth "
                                 + util::format_rate(level.roof.bytes_per_s, "B/s") + " (" + origin_text(roofs) + ") for "
                                 + moved;
  switch (level.fit) {
  case Fit::measured:
    findings.push_back({Severity::error, pointer,
                        arithmetic + " (a working set that fits in " + fit_text(level) + "; "
                          + tolerance_text(level.roof.noise, roofs.origin)
                          + "): no memory moves more than its bandwidth, so the time or the peak is wrong"});
    return;
  case Fit::unmeasured_cache:
    findings.push_back({Severity::warning, pointer,
                        arithmetic + "; its working set fits in the " + util::format_bytes(*roofs.unmeasured_cache_bytes)
                          + " cache, whose bandwidth the peaks did not measure: not checked"});
    return;
  case Fit::unknown:
    findings.push_back({Severity::warning, pointer,
                        arithmetic + "; the dataset records no cache sizes, and a cache may hold its working set: not "
                                     "checked"});
    return;
  }
}

void flag_noisy(const PeakRate& peak, const std::string& what, const std::string& pointer, double target,
                std::vector<PhysicsFinding>& findings)
{
  const auto shortfall = peak_shortfall(peak, target);
  if (!shortfall) {
    return;
  }
  const auto samples = std::to_string(peak.samples.value_or(0));
  const auto verdict = *shortfall == PeakShortfall::too_few_samples
                         ? "the " + what + " peak did not confirm its noise target: " + percent(*peak.noise) + " (target "
                             + percent(target) + ") over only " + samples
                             + " samples, too few for its spread to be known; cells are held to it with "
                         : "the " + what + " peak missed its noise target: " + (peak.noise ? percent(*peak.noise) : "unknown")
                             + " against " + percent(target) + " over " + samples
                             + " samples; the roof it sets is uncertain by about that much, and cells are held to it with ";
  findings.push_back({Severity::warning, pointer, verdict + tolerance_text(peak.noise, PeakOrigin::measured)});
}

void flag_noisy_peaks(const Dataset& dataset, std::vector<PhysicsFinding>& findings)
{
  const auto& peaks = *dataset.environment->peaks;
  const double target = dataset.methodology ? dataset.methodology->noise_target : 0;
  for (size_t i = 0; i < peaks.compute.size(); ++i) {
    flag_noisy(peaks.compute[i], peaks.compute[i].name, "/environment/peaks/compute/" + std::to_string(i), target, findings);
  }
  if (peaks.memory) {
    flag_noisy(*peaks.memory, "memory (triad)", "/environment/peaks/memory", target, findings);
  }
  for (size_t i = 0; i < peaks.caches.size(); ++i) {
    flag_noisy(peaks.caches[i].triad, peaks.caches[i].level + " (triad)", "/environment/peaks/caches/" + std::to_string(i),
               target, findings);
  }
}

// The roofs at a precision: the run's own, else its device's datasheet.
std::optional<Roofs> roofs_at(const Dataset& dataset, const DatasheetDevice* device, const std::string& precision)
{
  if (dataset.environment->peaks) {
    return measured_roofs(dataset, precision);
  }
  auto roofs = device ? datasheet_roofs(*device, precision) : std::nullopt;
  // The run's own cache size, where it recorded one, is what may hold a working set on this machine.
  const auto& cache = dataset.environment->last_level_cache_bytes;
  if (roofs && cache) {
    roofs->unmeasured_cache_bytes = std::max(roofs->unmeasured_cache_bytes.value_or(0), static_cast<double>(*cache));
  }
  return roofs;
}

} // namespace

std::optional<std::string> transform_kernel(const Cell& cell)
{
  for (const auto& kernel : cell.kernels) {
    std::string lower = kernel.name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower.find("fft") != std::string::npos || lower.find("winograd") != std::string::npos) {
      return kernel.name.substr(0, std::min<size_t>(kernel.name.find('('), 60));
    }
  }
  return std::nullopt;
}

std::optional<PeakShortfall> peak_shortfall(const PeakRate& peak, double target)
{
  if (peak.noise_target_met.value_or(true)) {
    return std::nullopt;
  }
  return peak.noise && *peak.noise <= target ? PeakShortfall::too_few_samples : PeakShortfall::noisy;
}

double roof_tolerance(std::optional<double> noise)
{
  return std::max(k_least_tolerance, k_noise_multiple * noise.value_or(0));
}

std::vector<PhysicsFinding> check_physics(const Dataset& dataset, const DatasheetPeaks& datasheet, const std::vector<Erratum>& errata)
{
  std::vector<PhysicsFinding> findings;
  if (dataset.kind != Kind::measured || !dataset.environment) {
    return findings;
  }
  const DatasheetDevice* device = match_device(datasheet, device_name(dataset));
  if (dataset.environment->peaks) {
    flag_noisy_peaks(dataset, findings);
  } else if (!device) {
    findings.push_back({Severity::warning, "/environment/peaks",
                        "no measured peaks (a run with --no-peaks) and no datasheet entry for the device \""
                          + device_name(dataset) + "\" in data/peaks/datasheet.json: no floor bounds the times; only "
                                                   "their agreement with their samples is checked"});
  }
  std::map<std::string, std::optional<Roofs>> by_precision;
  for (size_t i = 0; i < dataset.results.size(); ++i) {
    const auto& cell = dataset.results[i];
    const Layer* layer = find_layer(dataset, cell.layer);
    if (cell.status != CellStatus::ok || !cell.stats || !layer || !(cell.stats->median_ms > 0)) {
      continue;
    }
    const auto precision = to_string(cell.axes[k_precision]);
    if (!by_precision.count(precision)) {
      by_precision[precision] = roofs_at(dataset, device, precision);
    }
    const auto& roofs = by_precision[precision];
    if (!roofs) {
      continue;
    }
    const auto pointer = "/results/" + std::to_string(i) + "/stats/median_ms";
    const Erratum* withdrawn = roofs->origin == PeakOrigin::measured ? withdrawn_peak(errata, precision) : nullptr;
    check_compute(cell, *layer, pointer, *roofs, withdrawn, findings);
    check_memory(cell, *layer, pointer, *roofs, findings);
  }
  return findings;
}

DatasheetPeaks datasheet_for(const std::filesystem::path& file)
{
  const auto folder = DataFolder::folder_of(file);
  const auto in_folder = folder ? *folder / "peaks" / "datasheet.json" : std::filesystem::path();
  if (folder && std::filesystem::exists(in_folder)) {
    return load_datasheet_peaks(in_folder);
  }
  const auto ours = std::filesystem::path(build_info::k_source_dir) / "data" / "peaks" / "datasheet.json";
  return std::filesystem::exists(ours) ? load_datasheet_peaks(ours) : DatasheetPeaks{};
}

} // namespace layerbench::dataset
