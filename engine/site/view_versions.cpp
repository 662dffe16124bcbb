// SPDX-License-Identifier: MIT
// The version history (issue 26): the same cells measured on one device with several torch releases, each
// step between releases called by diff's noise-aware rule, and the operators that changed where the time
// did. A page exists per device only where two releases or more were measured there.

#include "dataset/diff.hpp"
#include "site/cell_whisker.hpp"
#include "site/chart.hpp"
#include "site/setting_words.hpp"
#include "site/view_common.hpp"
#include "site/view_finding.hpp"
#include "site/view_pages.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace layerbench::site {

namespace {

using dataset::Dataset;

std::string plain_release(const Dataset& data) { return data.environment ? data.environment->torch_version.substr(0, data.environment->torch_version.find('+')) : ""; }

// What makes two datasets the same machine for a version history: the device and the threads torch ran.
std::string machine_key(const Dataset& data)
{
  return device_text(data) + " | " + std::to_string(data.environment ? data.environment->threads : 0) + " threads";
}

// A series is one machine, so its oldest dataset says which settings its kernels read.
DeviceKind device_kind(const Dataset& data)
{
  return on_cuda(data) ? DeviceKind::cuda : DeviceKind::cpu;
}

bool has_reference_cells(const Dataset& data)
{
  return std::any_of(data.results.begin(), data.results.end(), [](const dataset::Cell& cell) {
    return cell.status == dataset::CellStatus::ok && cell.axes.is_reference();
  });
}

std::string slug_of(const std::string& text)
{
  std::string slug;
  for (const char c : text) {
    const bool word = std::isalnum(static_cast<unsigned char>(c));
    if (word) {
      slug += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';
    }
  }
  while (!slug.empty() && slug.back() == '-') {
    slug.pop_back();
  }
  return slug;
}

// A step's verdict: diff's faster or slower; "same" where the ratio's whole range lies within the
// threshold (both sides measured in rounds); "unclear" where diff calls no change but the range reaches
// past the threshold, or a side has no interval to tell.
std::string step_verdict(const dataset::CellChange& change, double threshold)
{
  if (change.change == dataset::Change::faster || change.change == dataset::Change::slower) {
    return dataset::to_string(change.change);
  }
  if (change.change == dataset::Change::missing) {
    return "";
  }
  const bool within = change.rounds && change.ratio_low && change.ratio_high && *change.ratio_low >= 1 - threshold
                      && *change.ratio_high <= 1 + threshold;
  return within ? "same" : "unclear";
}

constexpr const char* k_same_operators = "the same operators";

// The operators one cell ran and the other did not ("+aten::_scaled_dot_product_flash_attention_for_cpu,
// −aten::bmm"), or that both ran the same ones; empty where either cell has no profile.
std::string operators_changed(const dataset::Cell* a, const dataset::Cell* b)
{
  if (!a || !b || a->operators.empty() || b->operators.empty()) {
    return "";
  }
  std::set<std::string> before, after;
  for (const auto& op : a->operators) {
    before.insert(op.name);
  }
  for (const auto& op : b->operators) {
    after.insert(op.name);
  }
  std::string text;
  for (const auto& name : after) {
    text += before.count(name) ? "" : (text.empty() ? "+" : ", +") + name;
  }
  for (const auto& name : before) {
    text += after.count(name) ? "" : (text.empty() ? "−" : ", −") + name;
  }
  return text.empty() ? k_same_operators : text;
}

// Where the time moved and the operators did not, the one whose share of the forward's self-CPU time
// moved most: "aten::bernoulli_ (42% to 89% of self-CPU time)". A profile names ATen operators, not the
// kernel chosen inside one, so the list alone would read as no change.
std::string most_moved_operator(const dataset::Cell& a, const dataset::Cell& b)
{
  const dataset::Operator* moved = nullptr;
  double before = 0, largest = -1;
  for (const auto& op : b.operators) {
    const auto old = std::find_if(a.operators.begin(), a.operators.end(), [&](const dataset::Operator& o) { return o.name == op.name; });
    const double was = old == a.operators.end() ? 0 : old->self_cpu_fraction;
    if (std::abs(op.self_cpu_fraction - was) > largest) {
      largest = std::abs(op.self_cpu_fraction - was);
      moved = &op;
      before = was;
    }
  }
  return moved ? moved->name + " (" + percent_text(before) + " to " + percent_text(moved->self_cpu_fraction) + " of self-CPU time)" : "";
}

// {operator} for a step whose time moved inside the same operators; false otherwise.
Data same_operators_change(const dataset::Cell* before, const dataset::Cell* after, const std::string& operators)
{
  if (operators != k_same_operators) {
    return Data(false);
  }
  Data inside = object();
  inside.set("operator", most_moved_operator(*before, *after));
  return inside;
}

// {href, cause} of the finding that explains a step (view_finding.hpp); false where none does.
Data step_finding(const SiteData& site, const VersionSeries& series, const std::string& layer, size_t step)
{
  const auto* finding =
      finding_between(site, series, layer, series.releases[step - 1].torch_version, series.releases[step].torch_version);
  if (!finding) {
    return Data(false);
  }
  Data why = object();
  why.set("href", "#" + finding_anchor(*finding));
  why.set("cause", finding->cause);
  return why;
}

struct StepCounts
{
  int faster = 0, slower = 0, same = 0, unclear = 0;
};

void count(StepCounts& counts, const std::string& verdict)
{
  counts.faster += verdict == "faster";
  counts.slower += verdict == "slower";
  counts.same += verdict == "same";
  counts.unclear += verdict == "unclear";
}

// The mark a release's time carries for the step from the release before: ▼ faster, ▲ slower, = the
// same, ? unclear, nothing where either side was not measured.
std::string step_mark(const std::string& verdict)
{
  if (verdict == "faster") {
    return "▼";
  }
  if (verdict == "slower") {
    return "▲";
  }
  if (verdict == "same") {
    return "=";
  }
  return verdict == "unclear" ? "?" : "";
}

std::string counts_text(const StepCounts& c)
{
  return std::to_string(c.faster) + " faster, " + std::to_string(c.slower) + " slower, " + std::to_string(c.same)
         + " the same, " + std::to_string(c.unclear) + " unclear";
}

struct Row
{
  std::string layer;
  int batch = 0;
};

// The reference cells any release measured, in the site's layer order, then by batch size.
std::vector<Row> rows_of(const SiteData& site, const VersionSeries& series)
{
  std::vector<Row> rows;
  for (const auto& layer : layer_order(site)) {
    std::set<int> batches;
    for (const auto& release : series.releases) {
      for (const auto& cell : release.entry->data.results) {
        if (cell.layer == layer && cell.axes.is_reference()) {
          batches.insert(cell.batch_size);
        }
      }
    }
    for (int batch : batches) {
      rows.push_back({layer, batch});
    }
  }
  return rows;
}

// A row's medians across the releases as a small bar chart; its description names every figure, so a
// screen reader hears what the bars show.
std::string release_chart(const VersionSeries& series, const Row& row, size_t index)
{
  SmallBarChart chart;
  chart.id = "releases-" + std::to_string(index + 1);
  chart.title = row.layer + " at batch size " + std::to_string(row.batch) + " on each release";
  std::string figures;
  for (const auto& release : series.releases) {
    const Dataset& data = release.entry->data;
    const auto* cell = dataset::find_cell(data, row.layer, row.batch);
    const auto ms = median_ms(data, row.layer, row.batch);
    const std::string text = ms ? cell_median_text(data, cell) + " ms" : std::string("not measured");
    chart.bars.push_back({"torch " + release.torch_version, ms.value_or(0), text, time_whisker(cell)});
    figures += (figures.empty() ? "torch " : ", torch ") + release.torch_version + ": " + text;
  }
  chart.description = "Median milliseconds per batch on each release, oldest first, as bars from zero, with whiskers "
                      "from the 25th to the 75th percentile where the dataset has them. "
                      + figures + ".";
  return render_svg(chart);
}

Data release_items(const VersionSeries& series, const std::string& root)
{
  Data items = list();
  for (const auto& release : series.releases) {
    Data item = object();
    item.set("last", Data(&release == &series.releases.back()));
    item.set("torch", release.torch_version);
    item.set("dataset", dataset_label(*release.entry));
    item.set("href", root + dataset_path(*release.entry));
    items.push_back(item);
  }
  return items;
}

} // namespace

std::vector<VersionSeries> version_series(const SiteData& site)
{
  // Per machine and release, the newest dataset of layers that timed the reference corner.
  std::map<std::string, std::map<std::vector<int>, const SiteDataset*>> found;
  std::map<std::string, std::string> device_of;
  for (const auto& entry : site.datasets) {
    const auto& data = entry.data;
    if (data.kind != dataset::Kind::measured || !data.environment || entry.origin != DatasetOrigin::published
        || !has_reference_cells(data)) {
      continue;
    }
    const auto key = machine_key(data);
    device_of[key] = device_text(data);
    auto& chosen = found[key][release_key(plain_release(data))];
    if (!chosen || data.created > chosen->data.created) {
      chosen = &entry;
    }
  }
  std::vector<VersionSeries> series;
  for (const auto& [key, releases] : found) {
    if (releases.size() < 2) {
      continue;
    }
    VersionSeries one;
    one.device = device_of[key];
    one.threads = releases.begin()->second->data.environment->threads;
    one.slug = slug_of(key);
    for (const auto& [version, entry] : releases) {
      one.releases.push_back({plain_release(entry->data), entry});
    }
    series.push_back(std::move(one));
  }
  return series;
}

std::string versions_path(const VersionSeries& series) { return "versions/" + series.slug + ".html"; }

PageSpec versions_page(const SiteData& site, const VersionSeries& series, Data base)
{
  const double threshold = dataset::k_diff_threshold;
  const auto& releases = series.releases;
  std::vector<dataset::DiffResult> steps;
  for (size_t i = 1; i < releases.size(); ++i) {
    steps.push_back(dataset::diff(releases[i - 1].entry->data, releases[i].entry->data, threshold));
  }
  const auto whole = dataset::diff(releases.front().entry->data, releases.back().entry->data, threshold);
  std::vector<StepCounts> counts(steps.size());
  std::vector<Data> moved(steps.size(), list());
  Data rows = list();
  size_t row_index = 0;
  for (const auto& row : rows_of(site, series)) {
    Data cells = list();
    for (size_t i = 0; i < releases.size(); ++i) {
      const auto& data = releases[i].entry->data;
      const auto* cell = dataset::find_cell(data, row.layer, row.batch);
      Data item = object();
      item.set("torch", releases[i].torch_version); // the cell's name where a phone shows it under its figure
      item.set("time", time_cell(data, cell));
      item.set("has_step", Data(i > 0));
      if (i > 0) {
        const auto* change = find_change(steps[i - 1], row.layer, row.batch);
        const auto verdict = change ? step_verdict(*change, threshold) : std::string("");
        count(counts[i - 1], verdict);
        const auto ratio = change && change->ratio ? change_ratio_text(*change) : std::string(k_missing);
        item.set("verdict", verdict);
        item.set("mark", step_mark(verdict));
        item.set("previous", releases[i - 1].torch_version);
        item.set("ratio", ratio);
        const bool changed = verdict == "faster" || verdict == "slower";
        const auto* before = dataset::find_cell(releases[i - 1].entry->data, row.layer, row.batch);
        const auto operators = changed ? operators_changed(before, cell) : std::string("");
        item.set("operators", operators);
        if (changed) {
          const auto inside = same_operators_change(before, cell, operators);
          Data entry = object();
          entry.set("layer", row.layer);
          entry.set("href", "../" + layer_path(row.layer));
          entry.set("batch", std::to_string(row.batch));
          entry.set("verdict", verdict);
          entry.set("ratio", ratio);
          entry.set("operators", operators);
          entry.set("inside", inside);
          entry.set("finding", step_finding(site, series, row.layer, i));
          moved[i - 1].push_back(entry);
        }
      }
      cells.push_back(item);
    }
    const auto* overall = find_change(whole, row.layer, row.batch);
    Data line = object();
    line.set("layer", row.layer);
    line.set("href", "../" + layer_path(row.layer));
    line.set("batch", std::to_string(row.batch));
    line.set("cells", cells);
    line.set("releases_chart", release_chart(series, row, row_index++));
    const auto* finding = finding_for(site, series, row.layer);
    // false, not "": the template opens its section for any string, an empty one too.
    line.set("finding_href", finding ? Data("#" + finding_anchor(*finding)) : Data(false));
    line.set("overall_verdict", overall ? step_verdict(*overall, threshold) : std::string(""));
    line.set("overall_ratio", overall && overall->ratio ? change_ratio_text(*overall) : std::string(k_missing));
    rows.push_back(line);
  }
  Data summaries = list();
  for (size_t i = 0; i < steps.size(); ++i) {
    Data step = labelled("torch " + releases[i].torch_version + " to " + releases[i + 1].torch_version, counts_text(counts[i]));
    step.set("has_moved", Data(!moved[i].is_empty_list()));
    step.set("moved", moved[i]);
    summaries.push_back(step);
  }
  Data headers = list();
  for (size_t i = 0; i < releases.size(); ++i) {
    Data header = object();
    header.set("torch", releases[i].torch_version);
    header.set("has_step", Data(i > 0));
    headers.push_back(header);
  }
  base.set("device", series.device);
  base.set("threads", std::to_string(series.threads));
  base.set("releases", release_items(series, "../"));
  base.set("oldest", releases.front().torch_version);
  base.set("newest", releases.back().torch_version);
  base.set("headers", headers);
  base.set("rows", rows);
  base.set("steps", summaries);
  base.set("threshold", percent_text(threshold));
  base.set("corner", corner_words(dataset::Axes{}, device_kind(releases.front().entry->data)));
  base.set("findings", finding_sections(site, series));
  return {"versions", versions_path(series), std::move(base), ""};
}

Data versions_answer(const SiteData& site)
{
  const auto series = version_series(site);
  if (series.empty()) {
    return Data(false);
  }
  // The featured dataset's machine where it has a history, else the first.
  const auto featured_key = machine_key(site.datasets[site.featured].data);
  const auto shown = std::find_if(series.begin(), series.end(), [&](const VersionSeries& s) {
    return machine_key(s.releases.front().entry->data) == featured_key;
  });
  const VersionSeries& one = shown == series.end() ? series.front() : *shown;
  const auto& oldest = one.releases.front();
  const auto& newest = one.releases.back();
  const auto result = dataset::diff(oldest.entry->data, newest.entry->data);
  StepCounts counts;
  const dataset::CellChange* fastest = nullptr;
  for (const auto& change : result.cells) {
    if (!change.axes.is_reference()) {
      continue;
    }
    const auto verdict = step_verdict(change, result.threshold);
    count(counts, verdict);
    if (verdict == "faster" && (!fastest || *change.ratio < *fastest->ratio)) {
      fastest = &change;
    }
  }
  Data answer = object();
  answer.set("device", one.device);
  answer.set("threads", std::to_string(one.threads));
  answer.set("oldest", oldest.torch_version);
  answer.set("newest", newest.torch_version);
  answer.set("releases", std::to_string(one.releases.size()));
  answer.set("counts", counts_text(counts));
  answer.set("cells", std::to_string(counts.faster + counts.slower + counts.same + counts.unclear));
  answer.set("threshold", percent_text(result.threshold));
  answer.set("corner", corner_words(dataset::Axes{}, device_kind(oldest.entry->data)));
  answer.set("href", versions_path(one));
  Data best = Data(false);
  if (fastest) {
    best = object();
    best.set("layer", fastest->layer);
    best.set("batch", std::to_string(fastest->batch_size));
    best.set("ratio", change_ratio_text(*fastest));
  }
  answer.set("fastest", best);
  return answer;
}

} // namespace layerbench::site
