// SPDX-License-Identifier: MIT
#include "site/view_finding.hpp"

#include "dataset/catalog.hpp"
#include "site/view_common.hpp"

#include <algorithm>
#include <set>

namespace layerbench::site {

namespace {

using dataset::Finding;
using dataset::FindingRelease;

// The batch size the FAQ and the issue compare at: the reference corner's.
constexpr int k_answer_batch = 32;

std::string and_joined(const std::vector<std::string>& items)
{
  std::string text;
  for (size_t i = 0; i < items.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  }
  return text;
}

// A text a template shows only where there is one: an empty string would still open its section.
Data optional_text(const std::string& text) { return text.empty() ? Data(false) : Data(text); }

std::string ratio_range_text(double low, double high)
{
  return trimmed_significant(low, 3) == trimmed_significant(high, 3) ? ratio_text(low)
                                                                     : trimmed_significant(low, 3) + "–" + ratio_text(high);
}

std::string ms_range_text(double low, double high)
{
  return ms_text(low) == ms_text(high) ? ms_text(low) : ms_text(low) + "–" + ms_text(high);
}

std::optional<double> release_ms(const SiteData& site, const Finding& finding, const FindingRelease& release, int batch)
{
  const auto* entry = finding_dataset(site, release.dataset);
  return entry ? median_ms(entry->data, finding.layer, batch) : std::nullopt;
}

// A link for every URL a change cites: the pull request, the issue behind it, earlier pull requests.
Data change_items(const Finding& finding)
{
  Data items = list();
  for (const auto& change : finding.changes) {
    Data item = object();
    item.set("from", change.from);
    item.set("to", change.to);
    item.set("change", change.change);
    item.set("reason_text", optional_text(change.reason_text));
    item.set("note", optional_text(change.note));
    Data links = list();
    for (const auto& url : {change.reference, change.reason}) {
      if (!url.empty()) {
        links.push_back(link(url, url.substr(url.find("pytorch/pytorch/") == std::string::npos ? 0 : url.find("pytorch/pytorch/") + 16)));
      }
    }
    for (const auto& url : change.history) {
      links.push_back(link(url, "earlier: " + url.substr(url.rfind('/') + 1)));
    }
    item.set("links", links);
    items.push_back(item);
  }
  return items;
}

// The operator timed alone: the median CPU ms of each pass on one thread, "0.281, 0.329".
std::string alone_text(const FindingRelease& release)
{
  if (!release.operator_alone) {
    return "not timed";
  }
  std::string text;
  for (const auto& pass : release.operator_alone->cpu_ms_1_thread) {
    text += (text.empty() ? "" : ", ") + trimmed_significant(pass.median, 3);
  }
  return text;
}

std::set<int> finding_batches(const Finding& finding)
{
  std::set<int> batches;
  for (const auto& release : finding.releases) {
    for (const auto& [batch, ms] : release.cell_median_ms) {
      batches.insert(batch);
    }
  }
  return batches;
}

// One row of the per-release table: the times from the release's dataset; the finding's copy only
// where the site does not have that dataset, marked so.
Data release_row(const SiteData& site, const Finding& finding, const FindingRelease& release, const std::set<int>& batches)
{
  const auto* entry = finding_dataset(site, release.dataset);
  Data times = list();
  for (int batch : batches) {
    Data time = object();
    const auto copied = release.cell_median_ms.find(batch);
    const bool from_dataset = entry != nullptr;
    time.set("text", from_dataset ? median_text(entry->data, finding.layer, batch)
                                   : copied == release.cell_median_ms.end() ? std::string(k_missing) : ms_text(copied->second));
    time.set("from_finding", Data(!from_dataset));
    times.push_back(time);
  }
  Data sources = list();
  for (const auto& [file, url] : release.sources) {
    sources.push_back(link(url, file));
  }
  Data row = object();
  row.set("torch", release.torch_version);
  row.set("path", release.path);
  row.set("why", release.why);
  row.set("dataset", release.dataset);
  row.set("href", entry ? Data("../" + dataset_path(*entry)) : Data(false));
  row.set("times", times);
  row.set("share", percent_text(release.operator_share));
  row.set("alone", alone_text(release));
  row.set("alone_note", release.operator_alone_note);
  row.set("sources", sources);
  return row;
}

Data finding_section(const SiteData& site, const Finding& finding)
{
  const auto batches = finding_batches(finding);
  Data headers = list();
  for (int batch : batches) {
    headers.push_back(Data(std::to_string(batch)));
  }
  Data rows = list();
  for (const auto& release : finding.releases) {
    rows.push_back(release_row(site, finding, release, batches));
  }
  Data paths = list();
  for (const auto& [name, text] : finding.paths) {
    paths.push_back(labelled(name, text));
  }
  const auto& first = finding.releases.front();
  Data section = object();
  section.set("anchor", finding_anchor(finding));
  section.set("title", finding.title);
  section.set("cause", finding.cause);
  section.set("layer", finding.layer);
  section.set("config", finding.config);
  section.set("operator", finding.op);
  section.set("note", optional_text(finding.versions_page));
  section.set("batches", headers);
  section.set("rows", rows);
  section.set("share_batch", std::to_string(first.share_batch_size));
  section.set("alone_batch", std::to_string(first.operator_alone ? first.operator_alone->batch_size : first.share_batch_size));
  section.set("paths", paths);
  section.set("changes", change_items(finding));
  section.set("alone_method", finding.measurement_operator_alone);
  section.set("conditions", finding.measurement_conditions);
  section.set("script", finding.measurement_script);
  const auto ratio = path_ratio(site, finding, k_answer_batch);
  section.set("ratio", ratio ? Data(ratio_range_text(ratio->low, ratio->high)) : Data(false));
  section.set("ratio_batch", std::to_string(k_answer_batch));
  return section;
}

} // namespace

const SiteDataset* finding_dataset(const SiteData& site, const std::string& reference)
{
  const auto named = dataset::parse_reference(reference, "dataset");
  for (const auto& entry : site.datasets) {
    if (entry.data.id == named.id && entry.data.version == named.version) {
      return &entry;
    }
  }
  return nullptr;
}

const Finding* finding_for(const SiteData& site, const VersionSeries& series, const std::string& layer)
{
  for (const auto& finding : site.findings) {
    if (finding.layer != layer) {
      continue;
    }
    for (const auto& release : finding.releases) {
      const auto* entry = finding_dataset(site, release.dataset);
      const bool in_series = std::any_of(series.releases.begin(), series.releases.end(),
                                         [&](const ReleaseDataset& r) { return r.entry->data.id == (entry ? entry->data.id : ""); });
      if (entry && in_series) {
        return &finding;
      }
    }
  }
  return nullptr;
}

const Finding* finding_between(const SiteData& site, const VersionSeries& series, const std::string& layer,
                               const std::string& from, const std::string& to)
{
  const auto* finding = finding_for(site, series, layer);
  if (!finding) {
    return nullptr;
  }
  const auto path_of = [&](const std::string& torch) {
    const auto found = std::find_if(finding->releases.begin(), finding->releases.end(),
                                    [&](const FindingRelease& release) { return release.torch_version == torch; });
    return found == finding->releases.end() ? std::string() : found->path;
  };
  const auto before = path_of(from), after = path_of(to);
  return !before.empty() && !after.empty() && before != after ? finding : nullptr;
}

std::string finding_anchor(const Finding& finding) { return "finding-" + finding.id; }

Data finding_sections(const SiteData& site, const VersionSeries& series)
{
  Data sections = list();
  std::set<std::string> shown;
  for (const auto& layer : layer_order(site)) {
    const auto* finding = finding_for(site, series, layer);
    if (finding && shown.insert(finding->id).second) {
      sections.push_back(finding_section(site, *finding));
    }
  }
  return sections;
}

std::optional<PathRatio> path_ratio(const SiteData& site, const Finding& finding, int batch)
{
  // Per kernel path, the fastest and slowest release's time from the datasets.
  struct Span
  {
    double low = 0, high = 0;
    std::vector<std::string> releases;
  };
  std::vector<std::pair<std::string, Span>> spans;
  for (const auto& release : finding.releases) {
    const auto ms = release_ms(site, finding, release, batch);
    if (!ms) {
      continue;
    }
    auto found = std::find_if(spans.begin(), spans.end(), [&](const auto& s) { return s.first == release.path; });
    if (found == spans.end()) {
      spans.push_back({release.path, {*ms, *ms, {}}});
      found = spans.end() - 1;
    }
    found->second.low = std::min(found->second.low, *ms);
    found->second.high = std::max(found->second.high, *ms);
    found->second.releases.push_back(release.torch_version);
  }
  if (spans.size() < 2) {
    return std::nullopt;
  }
  const auto fast = std::min_element(spans.begin(), spans.end(), [](const auto& a, const auto& b) { return a.second.low < b.second.low; });
  const auto slow = std::max_element(spans.begin(), spans.end(), [](const auto& a, const auto& b) { return a.second.high < b.second.high; });
  PathRatio ratio;
  ratio.fast_path = fast->first;
  ratio.slow_path = slow->first;
  ratio.fast_releases = fast->second.releases;
  ratio.slow_releases = slow->second.releases;
  ratio.fast_low_ms = fast->second.low;
  ratio.fast_high_ms = fast->second.high;
  ratio.slow_low_ms = slow->second.low;
  ratio.slow_high_ms = slow->second.high;
  ratio.low = slow->second.low / fast->second.high;
  ratio.high = slow->second.high / fast->second.low;
  return ratio;
}

Data finding_answer(const SiteData& site)
{
  for (const auto& series : version_series(site)) {
    for (const auto& finding : site.findings) {
      const auto ratio = path_ratio(site, finding, k_answer_batch);
      if (!ratio || !finding_for(site, series, finding.layer)) {
        continue;
      }
      const auto path_text = [&](const std::string& name) {
        const auto found = std::find_if(finding.paths.begin(), finding.paths.end(), [&](const auto& p) { return p.first == name; });
        return found->second;
      };
      Data answer = object();
      answer.set("layer", finding.layer);
      answer.set("operator", finding.op);
      answer.set("device", series.device);
      answer.set("threads", std::to_string(series.threads));
      answer.set("batch", std::to_string(k_answer_batch));
      answer.set("ratio", ratio_range_text(ratio->low, ratio->high));
      answer.set("fast_releases", and_joined(ratio->fast_releases));
      answer.set("slow_releases", and_joined(ratio->slow_releases));
      answer.set("fast_ms", ms_range_text(ratio->fast_low_ms, ratio->fast_high_ms));
      answer.set("slow_ms", ms_range_text(ratio->slow_low_ms, ratio->slow_high_ms));
      answer.set("fast_path", ratio->fast_path);
      answer.set("fast_path_text", path_text(ratio->fast_path));
      answer.set("slow_path", ratio->slow_path);
      answer.set("slow_path_text", path_text(ratio->slow_path));
      answer.set("cause", finding.cause);
      answer.set("href", versions_path(series) + "#" + finding_anchor(finding));
      return answer;
    }
  }
  return Data(false);
}

} // namespace layerbench::site
