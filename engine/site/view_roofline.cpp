// SPDX-License-Identifier: MIT
#include "site/view_roofline.hpp"

#include "dataset/physics.hpp"
#include "dataset/speed_class.hpp"
#include "site/memory_figure.hpp"
#include "site/roofline_chart.hpp"
#include "site/view_common.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <cmath>

namespace layerbench::site {

namespace {

using dataset::CellRoofline;
using dataset::Dataset;
using dataset::Resource;

// The precision every dataset of ours measures in; the roofs are held at the same precision.
const char* const k_precision = "fp32";

// The measured dataset whose layer of this name and configuration has a bytes formula, newest first.
const dataset::Layer* borrowed_layer(const SiteData& site, const dataset::Layer& layer)
{
  const dataset::Layer* found = nullptr;
  std::string created;
  for (const auto& entry : site.datasets) {
    const dataset::Layer* candidate = dataset::find_layer(entry.data, layer.name);
    if (entry.data.kind != dataset::Kind::measured || !candidate || candidate->config != layer.config
        || !dataset::cell_bytes(*candidate, 1)) {
      continue;
    }
    if (!found || entry.data.created > created) {
      found = candidate;
      created = entry.data.created;
    }
  }
  return found;
}

const dataset::DatasheetDevice* datasheet_of(const SiteData& site, const Dataset& data)
{
  return dataset::match_device(site.datasheet, dataset::device_name(data));
}

// The erratum that withdrew the run's fp32 peak, or null: that peak then bounds nothing on the site.
const dataset::Erratum* withdrawn_peak(const SiteDataset& entry) { return dataset::withdrawn_peak(entry.errata, k_precision); }

// The run's own roofs, its fp32 peak whether withdrawn or not: where its cells sit, not what bounds them.
std::optional<dataset::Roofs> own_roofs(const SiteDataset& entry) { return dataset::measured_roofs(entry.data, k_precision); }

// What bounds a cell, with the memory level its working set is served from: "compute", "memory (L2)",
// and for files whose cache levels were not measured, why the memory roof may not hold it.
std::string bound_text(const CellRoofline& roofline)
{
  if (roofline.bound_by == Resource::compute) {
    return "compute";
  }
  const auto& level = roofline.memory;
  switch (level.fit) {
  case dataset::Fit::measured:
    if (level.retained_bytes > 0) { // past the inner levels: the outer one's rate for what they cannot keep
      return "memory (" + level.roof.level + ", for what " + level.retained_by + " cannot keep)";
    }
    if (level.holding && level.roof.size_bytes && roofline.bytes > *level.roof.size_bytes) { // no byte faster
      return "memory (" + level.roof.level + "'s rate for every byte; the working set fits in "
             + (level.holding->size_bytes ? level.holding->level : std::string("no cache")) + ")";
    }
    return "memory (" + level.roof.level + ")";
  case dataset::Fit::unmeasured_cache: return "memory (" + level.roof.level + "; fits in a cache not measured)";
  case dataset::Fit::unknown: return "memory (" + level.roof.level + "; cache sizes not recorded)";
  }
  return "memory";
}

// A share of the bound above 100% is possible only where the cell did less arithmetic than the formula
// counts: "; nominal: its profile shows fft2d_c2r_32x32, a transform algorithm ...".
std::string nominal_text(const dataset::Cell& cell)
{
  const auto kernel = transform_kernel_name(cell);
  return kernel ? "; nominal rate: its profile shows " + *kernel + ", a transform algorithm (FFT or Winograd) that does "
                  "less arithmetic than the formula counts"
                : std::string();
}

// A cell's row; where the compute peak is withdrawn, without the bound and the share that it would set.
Data roofline_row(const dataset::Cell& cell, const CellRoofline& roofline, const dataset::Erratum* withdrawn = nullptr)
{
  Data row = object();
  row.set("layer", cell.layer);
  row.set("href", layer_path(cell.layer));
  row.set("batch", std::to_string(cell.batch_size));
  row.set("flop", util::format_si(roofline.flop));
  row.set("bytes", util::format_bytes(roofline.bytes));
  row.set("intensity", intensity_text(roofline.intensity));
  row.set("intensity_sort", util::format_significant(roofline.intensity, 6));
  row.set("bound", flop_rate_text(roofline.bound_flop_per_s));
  row.set("bound_by", bound_text(roofline) + nominal_text(cell));
  row.set("achieved", flop_rate_text(roofline.achieved_flop_per_s));
  row.set("fraction", fraction_text(roofline.fraction));
  row.set("fraction_sort", util::format_significant(roofline.fraction, 6));
  if (withdrawn) {
    for (const char* key : {"bound", "bound_by", "fraction", "fraction_sort"}) {
      row.set(key, std::string(k_missing));
    }
  }
  return row;
}

struct Placed
{
  const dataset::Cell* cell;
  CellRoofline roofline;
};

// The cells of a roofline page. Where the compute peak is withdrawn, each is placed against the run's own
// roofs all the same: its intensity and achieved FLOP/s do not depend on the peak; its bound is not shown.
std::vector<Placed> placed_cells(const SiteData& site, const SiteDataset& entry)
{
  std::vector<Placed> placed;
  const auto roofs = own_roofs(entry);
  for (const auto& cell : entry.data.results) {
    const dataset::Layer* layer = dataset::find_layer(entry.data, cell.layer);
    const auto roofline = withdrawn_peak(entry) && roofs && layer && cell.axes.is_reference()
                            ? dataset::cell_roofline(*layer, cell, *roofs)
                            : roofline_of(site, entry, cell);
    if (roofline) {
      placed.push_back({&cell, *roofline});
    }
  }
  return placed;
}

// "14.2%, missed its 5% target": a peak that did not meet its target says why where its noise is given.
std::string peak_noise_text(const dataset::PeakRate& peak, double target)
{
  if (!peak.noise) {
    return k_missing;
  }
  const auto shortfall = dataset::peak_shortfall(peak, target);
  if (!shortfall) {
    return fraction_text(*peak.noise);
  }
  return fraction_text(*peak.noise)
         + (*shortfall == dataset::PeakShortfall::too_few_samples
              ? ", within its " + fraction_text(target) + " target over only "
                  + std::to_string(peak.samples.value_or(0)) + " samples"
              : ", missed its " + fraction_text(target) + " target");
}

struct NamedPeak
{
  const dataset::PeakRate* peak;
  std::string what; // "fp32 FLOP/s", "L2 bandwidth (1.00 MiB)"
  std::string rate; // "1.23 TFLOP/s", "21.3 GB/s"
  const dataset::Erratum* withdrawn = nullptr; // the erratum that withdrew a compute peak
};

// Every peak of a run: compute per precision, the memory past every cache, then each cache level.
std::vector<NamedPeak> named_peaks(const dataset::Peaks& peaks, const std::vector<dataset::Erratum>& errata)
{
  std::vector<NamedPeak> named;
  for (const auto& peak : peaks.compute) {
    named.push_back({&peak, peak.name + " FLOP/s", flop_rate_text(peak.rate), dataset::withdrawn_peak(errata, peak.name)});
  }
  if (peaks.memory) {
    named.push_back({&*peaks.memory, std::string(dataset::k_memory_level) + " bandwidth", bandwidth_text(peaks.memory->rate)});
  }
  for (const auto& cache : peaks.caches) {
    named.push_back({&cache.triad, cache.level + " bandwidth (" + util::format_bytes(static_cast<double>(cache.size_bytes)) + ")",
                     bandwidth_text(cache.triad.rate)});
  }
  return named;
}

// A withdrawn peak's row shows none of its figures (its median time would give the rate back): the rate's
// cell links to the erratum.
Data measured_peak_rows(const SiteDataset& entry, const std::string& root, double target)
{
  Data rows = list();
  for (const auto& named : named_peaks(*entry.data.environment->peaks, entry.errata)) {
    Data view = object();
    view.set("what", named.what);
    view.set("operation", named.peak->operation);
    view.set("rate", named.withdrawn ? std::string(k_withdrawn_text) : named.rate);
    view.set("rate_erratum", named.withdrawn ? Data(erratum_href(entry, *named.withdrawn, root)) : Data(false));
    view.set("median", named.withdrawn ? std::string(k_missing) : ms_text(named.peak->median_ms) + " ms");
    view.set("noise", named.withdrawn ? std::string(k_missing) : peak_noise_text(*named.peak, target));
    view.set("samples", named.peak->samples ? std::to_string(*named.peak->samples) : std::string(k_missing));
    rows.push_back(view);
  }
  return rows;
}

// The peaks that did not meet their noise target (too noisy, or too few samples to tell), each with what it
// means for the cells held to it.
Data noisy_peak_lines(const dataset::Peaks& peaks, double target)
{
  Data lines = list();
  for (const auto& named : named_peaks(peaks, {})) {
    const auto& noise = named.peak->noise;
    const auto shortfall = dataset::peak_shortfall(*named.peak, target);
    if (!noise || !shortfall) {
      continue;
    }
    const auto samples = std::to_string(named.peak->samples.value_or(0));
    const auto verdict = *shortfall == dataset::PeakShortfall::too_few_samples
                           ? named.what + ": noise " + fraction_text(*noise) + ", within the " + fraction_text(target)
                               + " target, but over only " + samples + " samples, too few to confirm it"
                           : named.what + ": noise " + fraction_text(*noise) + " against the " + fraction_text(target)
                               + " target, so its roof is uncertain by about that much";
    lines.push_back(Data(verdict + "; validate holds cells to it with a " + fraction_text(dataset::roof_tolerance(noise))
                         + " tolerance"));
  }
  return lines;
}

// Datasheet figures as the table gives them (494.7, not a rounded 495): accelerators' figures, in T.
std::string datasheet_text(double value, const std::string& unit)
{
  return trimmed_significant(value / 1e12, 4) + " T" + unit;
}

Data datasheet_view(const dataset::DatasheetDevice& device)
{
  Data view = object();
  view.set("name", device.name);
  Data rates = list();
  for (const auto& rate : device.compute) {
    rates.push_back(labelled(rate.precision, datasheet_text(rate.flop_per_s, "FLOP/s") + (rate.note.empty() ? "" : " (" + rate.note + ")")));
  }
  rates.push_back(labelled("memory (" + device.memory_kind + ")", datasheet_text(device.memory_bytes_per_s, "B/s")));
  view.set("rates", rates);
  view.set("source_title", device.source_title);
  view.set("source_publisher", device.source_publisher);
  view.set("source_url", device.source_url);
  view.set("source_note", device.source_note.empty() ? Data(false) : Data(device.source_note));
  return view;
}

Data dataset_peaks_view(const SiteData& site, const SiteDataset& entry, const std::string& root)
{
  Data view = object();
  view.set("label", dataset_label(entry));
  view.set("device", device_text(entry.data));
  view.set("is_reference", Data(is_reference(entry)));
  const auto& environment = entry.data.environment;
  const bool has_peaks = environment && environment->peaks;
  view.set("has_measured", Data(has_peaks));
  const double target = entry.data.methodology ? entry.data.methodology->noise_target : 0;
  view.set("measured", has_peaks ? measured_peak_rows(entry, root, target) : list());
  const auto* withdrawn = has_peaks ? withdrawn_peak(entry) : nullptr;
  view.set("withdrawn_peak", withdrawn ? Data(labelled(withdrawn->precision, erratum_href(entry, *withdrawn, root))) : Data(false));
  const Data noisy = has_peaks ? noisy_peak_lines(*environment->peaks, target) : list();
  view.set("noisy_peaks", noisy.is_empty_list() ? Data(false) : noisy);
  view.set("caches_unmeasured", Data(has_peaks && environment->peaks->caches.empty()));
  view.set("method", has_peaks ? environment->peaks->method : std::string());
  view.set("no_peaks", Data(!has_peaks && !is_reference(entry)));
  const auto* device = datasheet_of(site, entry.data);
  view.set("datasheet", device ? datasheet_view(*device) : Data(false));
  view.set("chart_href", has_roofline_page(entry) ? Data(root + roofline_path(entry)) : Data(false));
  return view;
}

RooflineChart chart_of(const SiteData& site, const SiteDataset& entry, const std::vector<Placed>& placed)
{
  RooflineChart chart;
  chart.id = "roofline";
  chart.title = "Roofline of " + dataset_label(entry);
  chart.description = "Achieved FLOP/s of every timed cell against its arithmetic intensity (FLOP per byte of minimum "
                      "traffic), log-log, under the device's roofs: the memory bandwidth times the intensity, capped by "
                      "the fp32 compute peak; a cell whose working set fits in a cache level (a roof's \"≤\" size) is "
                      "bound by that level's roof. The table below gives every figure.";
  if (const auto roofs = own_roofs(entry)) {
    // A withdrawn peak is not drawn: the roofs are then the memory's slopes alone.
    const bool withdrawn = withdrawn_peak(entry) != nullptr;
    const std::optional<double> compute = withdrawn ? std::nullopt : std::optional<double>(roofs->compute_flop_per_s);
    const std::string name = withdrawn ? "measured" : "measured fp32";
    chart.roofs.push_back({name + ", DRAM", compute, roofs->memory_bytes_per_s, Stroke::solid});
    // A cache's roof holds only the cells whose working set fits in it; dotted, as it is not everyone's.
    for (const auto& cache : roofs->caches) {
      chart.roofs.push_back({name + ", " + cache.level + " (≤ " + util::format_bytes(*cache.size_bytes) + ")", compute,
                             cache.bytes_per_s, Stroke::dotted});
    }
  }
  if (const auto* device = datasheet_of(site, entry.data)) {
    if (const auto roofs = dataset::datasheet_roofs(*device, k_precision)) {
      chart.roofs.push_back({"datasheet fp32 (" + device->name + ")", roofs->compute_flop_per_s, roofs->memory_bytes_per_s, Stroke::dashed});
    }
  }
  const bool shares = withdrawn_peak(entry) == nullptr;
  for (const auto& item : placed) {
    const std::string share = shares ? ", " + fraction_text(item.roofline.fraction) + " of its "
                                         + dataset::to_string(item.roofline.bound_by) + " bound"
                                     : std::string();
    chart.points.push_back({item.cell->layer,
                            item.cell->layer + ", batch " + std::to_string(item.cell->batch_size) + ": "
                              + intensity_text(item.roofline.intensity) + ", " + flop_rate_text(item.roofline.achieved_flop_per_s)
                              + share + nominal_text(*item.cell),
                            item.roofline.intensity, item.roofline.achieved_flop_per_s});
  }
  return chart;
}

// The cells that reached the smallest share of their bound: {count, most, rows}, most being the largest
// share among them (what "at most" says), or false when no cell has a roofline.
Data furthest_below(const std::vector<Placed>& placed, size_t count)
{
  std::vector<Placed> sorted = placed;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Placed& a, const Placed& b) { return a.roofline.fraction < b.roofline.fraction; });
  sorted.resize(std::min(count, sorted.size()));
  if (sorted.empty()) {
    return Data(false);
  }
  Data rows = list();
  for (const auto& item : sorted) {
    rows.push_back(roofline_row(*item.cell, item.roofline));
  }
  Data view = object();
  view.set("count", std::to_string(sorted.size()));
  view.set("most", fraction_text(sorted.back().roofline.fraction));
  view.set("rows", rows);
  return view;
}

} // namespace

std::string roofline_path(const SiteDataset& entry) { return "roofline/" + entry.slug + ".html"; }

std::string flop_rate_text(double value) { return util::format_rate(value, "FLOP/s"); }
std::string bandwidth_text(double value) { return util::format_rate(value, "B/s"); }
std::string intensity_text(double value) { return trimmed_significant(value, 3) + " FLOP/byte"; }
std::string fraction_text(double value) { return trimmed_significant(value * 100.0, 3) + "%"; }

std::optional<dataset::Roofs> roofs_of(const SiteData& site, const SiteDataset& entry)
{
  if (!is_reference(entry)) {
    return withdrawn_peak(entry) ? std::nullopt : own_roofs(entry);
  }
  const auto* device = datasheet_of(site, entry.data);
  return device ? dataset::datasheet_roofs(*device, k_precision) : std::nullopt;
}

std::optional<CellRoofline> roofline_of(const SiteData& site, const SiteDataset& entry, const dataset::Cell& cell)
{
  const auto roofs = roofs_of(site, entry);
  const dataset::Layer* layer = dataset::find_layer(entry.data, cell.layer);
  // The roofs are fp32 and the FLOP formulas count one forward: the other corners of a cube (bf16,
  // a training step) would sit against the wrong roof. Their times are on the settings page.
  if (!roofs || !layer || !cell.axes.is_reference()) {
    return std::nullopt;
  }
  if (!is_reference(entry)) {
    return dataset::cell_roofline(*layer, cell, *roofs);
  }
  const dataset::Layer* ours = borrowed_layer(site, *layer);
  return ours ? dataset::cell_roofline(*ours, cell, *roofs) : std::nullopt;
}

bool has_roofline_page(const SiteDataset& entry) { return entry.data.kind == dataset::Kind::measured && own_roofs(entry); }

PageSpec roofline_index_page(const SiteData& site, Data base)
{
  Data view = std::move(base);
  Data datasheet = list();
  for (const auto& device : site.datasheet.devices) {
    datasheet.push_back(datasheet_view(device));
  }
  view.set("datasheet_devices", datasheet);
  Data datasets = list();
  for (const auto& entry : site.datasets) {
    datasets.push_back(dataset_peaks_view(site, entry, ""));
  }
  view.set("datasets", datasets);
  return {"roofline_index", "roofline.html", std::move(view), ""};
}

PageSpec roofline_page(const SiteData& site, size_t index, Data base)
{
  const SiteDataset& entry = site.datasets[index];
  const auto placed = placed_cells(site, entry);
  Data view = std::move(base);
  view.set("dataset", dataset_peaks_view(site, entry, "../"));
  view.set("chart", render_svg(chart_of(site, entry, placed)));
  const auto* withdrawn = withdrawn_peak(entry);
  Data rows = list();
  size_t memory_bound = 0;
  for (const auto& item : placed) {
    rows.push_back(roofline_row(*item.cell, item.roofline, withdrawn));
    memory_bound += item.roofline.bound_by == Resource::memory ? 1 : 0;
  }
  view.set("rows", rows);
  view.set("cells", std::to_string(placed.size()));
  view.set("memory_bound", std::to_string(memory_bound));
  // Without the compute peak there is no ridge, and no share of a bound to rank cells by.
  const auto roofs = roofs_of(site, entry);
  view.set("ridge", roofs ? Data(intensity_text(dataset::ridge_intensity(*roofs))) : Data(false));
  view.set("furthest_below", withdrawn ? Data(false) : furthest_below(placed, 3));
  return {"roofline", roofline_path(entry), std::move(view), ""};
}

Data layer_roofline_blocks(const SiteData& site, const std::string& layer)
{
  Data blocks = list();
  for (const auto& entry : site.datasets) {
    const auto roofs = roofs_of(site, entry);
    if (!roofs || !dataset::find_layer(entry.data, layer)) {
      continue;
    }
    Data rows = list();
    for (const auto& cell : entry.data.results) {
      if (cell.layer != layer) {
        continue;
      }
      if (const auto roofline = roofline_of(site, entry, cell)) {
        rows.push_back(roofline_row(cell, *roofline));
      }
    }
    if (rows.is_empty_list()) {
      continue;
    }
    Data block = object();
    block.set("dataset", dataset_label(entry));
    block.set("href", (is_reference(entry) ? "../roofline.html" : "../" + roofline_path(entry)));
    std::string text = flop_rate_text(roofs->compute_flop_per_s) + " fp32 and " + bandwidth_text(roofs->memory_bytes_per_s) + " " + dataset::k_memory_level;
    for (const auto& cache : roofs->caches) {
      text += ", " + bandwidth_text(cache.bytes_per_s) + " " + cache.level;
    }
    block.set("roofs", text);
    block.set("is_reference", Data(is_reference(entry)));
    block.set("rows", rows);
    blocks.push_back(block);
  }
  return blocks;
}

} // namespace layerbench::site
