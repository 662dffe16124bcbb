// SPDX-License-Identifier: MIT
// Compare pages: two datasets side by side, cell by cell, with the ratio of their medians.

#include "dataset/diff.hpp"
#include "site/figure_flag.hpp"
#include "site/view_common.hpp"
#include "site/view_pages.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

namespace layerbench::site {

namespace {

using dataset::Dataset;

struct RatioSummary
{
  int compared = 0;
  double log_sum = 0;
};

// diff's verdict for one cell: the page counts a change only where diff does, beyond both runs' noise.
std::string change_text(const dataset::DiffResult& result, const std::string& layer, int batch)
{
  const auto* cell = find_change(result, layer, batch);
  return !cell || cell->change == dataset::Change::missing ? std::string("") : dataset::to_string(cell->change);
}

Data compare_rows(const Dataset& a, const Dataset& b, const std::vector<std::string>& layers,
                  const std::vector<int>& batches, const dataset::DiffResult& changes, RatioSummary& summary)
{
  Data rows = list();
  for (const auto& layer : layers) {
    if (!dataset::find_layer(a, layer) && !dataset::find_layer(b, layer)) {
      continue;
    }
    Data cells = list();
    for (int batch : batches) {
      const auto x = median_ms(a, layer, batch);
      const auto y = median_ms(b, layer, batch);
      Data cell = object();
      cell.set("batch", std::to_string(batch));
      cell.set("base", time_cell(a, dataset::find_cell(a, layer, batch)));
      cell.set("other", time_cell(b, dataset::find_cell(b, layer, batch)));
      cell.set("change", change_text(changes, layer, batch));
      std::string ratio = k_missing;
      // The sorting script orders a column by its ratio; a missing one sorts last, as text.
      std::string ratio_sort = k_missing;
      const auto* change = find_change(changes, layer, batch);
      if (x && y && *x > 0 && *y > 0 && change && change->ratio) {
        ratio = change_ratio_text(*change);
        ratio_sort = util::format_significant(*y / *x, 6);
        summary.compared += 1;
        summary.log_sum += std::log(*y / *x);
      }
      cell.set("ratio", ratio);
      cell.set("ratio_sort", ratio_sort);
      cells.push_back(cell);
    }
    Data row = object();
    row.set("layer", layer);
    row.set("href", "../" + layer_path(layer));
    row.set("cells", cells);
    rows.push_back(row);
  }
  return rows;
}

Data totals_of(const dataset::DiffResult& changes, const RatioSummary& summary)
{
  Data totals = object();
  totals.set("compared", util::format_thousands(summary.compared));
  totals.set("other_faster", util::format_thousands(changes.summary.faster));
  totals.set("other_slower", util::format_thousands(changes.summary.slower));
  totals.set("unchanged", util::format_thousands(changes.summary.unchanged));
  totals.set("rule", "the ratio differs from one by at least " + util::format_significant(changes.threshold * 100, 2)
                       + "%, and the medians' intervals do not overlap: the bootstrap 95% intervals of datasets "
                         "measured in rounds, else the quartile ranges, with the ratio also beyond either run's spread");
  totals.set("geomean", summary.compared > 0 ? ratio_text(std::exp(summary.log_sum / summary.compared)) : std::string(k_missing));
  return totals;
}

// Lists under headings, kept in the order each heading first appears.
class Grouped
{
public:
  void add(const std::string& heading, Data item)
  {
    auto at = std::find(m_headings.begin(), m_headings.end(), heading);
    if (at == m_headings.end()) {
      m_headings.push_back(heading);
      m_items.push_back(list());
      at = m_headings.end() - 1;
    }
    m_items[static_cast<size_t>(at - m_headings.begin())].push_back(std::move(item));
  }
  // [{heading_key: heading, id: "<id_prefix>-1", items_key: [...]}, ...]
  Data to_data(const std::string& heading_key, const std::string& items_key, const std::string& id_prefix) const
  {
    Data groups = list();
    for (size_t i = 0; i < m_headings.size(); ++i) {
      Data group = object();
      group.set(heading_key, m_headings[i]);
      group.set("id", id_prefix + "-" + std::to_string(i + 1));
      group.set(items_key, m_items[i]);
      groups.push_back(group);
    }
    return groups;
  }

private:
  std::vector<std::string> m_headings;
  std::vector<Data> m_items;
};

// Where a device first appears among the site's datasets: the order of devices on the page.
size_t device_rank(const SiteData& site, const std::string& device)
{
  const auto& all = site.datasets;
  return static_cast<size_t>(std::find_if(all.begin(), all.end(), [&](const SiteDataset& entry) {
                               return device_text(entry.data) == device;
                             }) - all.begin());
}

// Both datasets' devices, in words: one device, or two in the site's order of devices, so that a pair
// lands in one group whichever of its datasets is the base.
std::string devices_of(const SiteData& site, size_t base, size_t other)
{
  std::string a = device_text(site.datasets[base].data);
  std::string b = device_text(site.datasets[other].data);
  if (a == b) {
    return "Both on " + a;
  }
  if (device_rank(site, b) < device_rank(site, a)) {
    std::swap(a, b);
  }
  return a + " and " + b;
}

// A group of more pairs than this is folded by dataset: a reader opens the one dataset and finds the other.
constexpr size_t k_flat_pairs = 12;

Data pair_link(const SiteData& site, size_t base, size_t other, const std::string& label)
{
  Data pair = link(compare_path(site, base, other), label);
  pair.set("base_slug", site.datasets[base].slug);
  pair.set("other_slug", site.datasets[other].slug);
  return pair;
}

// The order of a long group's folds: a device's datasets together, in the site's order of devices, and
// each device's as the datasets index orders them, by release as numbers (2.11.0 after 2.9.1), then by date.
std::vector<size_t> release_order(const SiteData& site)
{
  const auto key = [&](size_t i) {
    const auto& data = site.datasets[i].data;
    return std::make_tuple(device_rank(site, device_text(data)),
                           release_key(data.environment ? data.environment->torch_version : std::string()), data.created, i);
  };
  std::vector<size_t> order(site.datasets.size());
  for (size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
  return order;
}

// A long group's pairs under each of its datasets, in release order, each pair under both of its datasets
// and named by the other: [{label, count, pairs}].
Data pairs_by_dataset(const SiteData& site, const std::vector<std::pair<size_t, size_t>>& pairs)
{
  Data folds = list();
  for (const size_t i : release_order(site)) {
    Data links = list();
    for (const auto& [a, b] : pairs) {
      if (a == i || b == i) {
        links.push_back(pair_link(site, a, b, "against " + dataset_label(site.datasets[a == i ? b : a])));
      }
    }
    if (links.is_empty_list()) {
      continue;
    }
    Data fold = object();
    fold.set("label", dataset_label(site.datasets[i]));
    fold.set("count", util::format_count(static_cast<int64_t>(links.list_value().size()), "comparison"));
    fold.set("pairs", links);
    folds.push_back(fold);
  }
  return folds;
}

// The comparisons grouped by the devices of their two datasets, pairs on one device first (a release
// or a setting against another), so that a reader finds a pair without a script; a group of more than
// k_flat_pairs is folded by dataset. Each link carries its two slugs, which the picker looks up.
Data pair_groups(const SiteData& site, const std::vector<std::pair<size_t, size_t>>& pairs)
{
  std::vector<std::string> headings;
  std::vector<std::vector<std::pair<size_t, size_t>>> members;
  for (const bool same : {true, false}) {
    for (const auto& pair : pairs) {
      const auto& [a, b] = pair;
      if ((device_text(site.datasets[a].data) == device_text(site.datasets[b].data)) != same) {
        continue;
      }
      const auto heading = devices_of(site, a, b);
      auto at = std::find(headings.begin(), headings.end(), heading);
      if (at == headings.end()) {
        headings.push_back(heading);
        members.emplace_back();
        at = headings.end() - 1;
      }
      members[static_cast<size_t>(at - headings.begin())].push_back(pair);
    }
  }
  Data groups = list();
  for (size_t g = 0; g < headings.size(); ++g) {
    Data links = list();
    for (const auto& [a, b] : members[g]) {
      links.push_back(pair_link(site, a, b, compare_title(site, a, b)));
    }
    const bool folded = members[g].size() > k_flat_pairs;
    Data group = object();
    group.set("heading", headings[g]);
    group.set("id", "pairs-" + std::to_string(g + 1));
    group.set("count", util::format_count(static_cast<int64_t>(members[g].size()), "comparison"));
    group.set("pairs", folded ? list() : links);
    group.set("by_dataset", folded ? pairs_by_dataset(site, members[g]) : Data(false));
    groups.push_back(group);
  }
  return groups;
}

// The picker's options: every dataset, grouped by device in site order.
Data picker_devices(const SiteData& site)
{
  Grouped devices;
  for (const auto& entry : site.datasets) {
    Data option = object();
    option.set("slug", entry.slug);
    option.set("label", dataset_label(entry));
    devices.add(device_text(entry.data), option);
  }
  return devices.to_data("device", "datasets", "device");
}

} // namespace

Data compare_totals(const SiteData& site, size_t base, size_t other)
{
  const Dataset& a = site.datasets[base].data;
  const Dataset& b = site.datasets[other].data;
  RatioSummary summary;
  const dataset::DiffResult changes = dataset::diff(a, b);
  (void)compare_rows(a, b, layer_order(site), batch_sizes(a), changes, summary);
  return totals_of(changes, summary);
}

std::vector<std::pair<size_t, size_t>> compare_pairs(const SiteData& site)
{
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t i = 0; i < site.datasets.size(); ++i) {
    for (size_t j = i + 1; j < site.datasets.size(); ++j) {
      const bool swap = is_reference(site.datasets[j]) && !is_reference(site.datasets[i]);
      pairs.emplace_back(swap ? j : i, swap ? i : j);
    }
  }
  return pairs;
}

std::string compare_path(const SiteData& site, size_t base, size_t other)
{
  return "compare/" + site.datasets[base].slug + "--" + site.datasets[other].slug + ".html";
}

std::string compare_title(const SiteData& site, size_t base, size_t other)
{
  return dataset_label(site.datasets[other]) + " against " + dataset_label(site.datasets[base]);
}

PageSpec compare_index_page(const SiteData& site, Data base)
{
  const auto pairs = compare_pairs(site);
  base.set("groups", pair_groups(site, pairs));
  base.set("devices", picker_devices(site));
  base.set("has_pairs", Data(!pairs.empty()));
  base.set("references", reference_issue_blocks(site, ""));
  return {"compare_index", "compare.html", std::move(base), ""};
}

PageSpec compare_page(const SiteData& site, size_t base, size_t other, Data view, const std::string& path)
{
  const SiteDataset& a = site.datasets[base];
  const SiteDataset& b = site.datasets[other];
  const auto batches = batch_sizes(a.data);
  RatioSummary summary;
  view.set("base", dataset_summary(a, "../"));
  view.set("other", dataset_summary(b, "../"));
  Data headers = list();
  for (int batch : batches) {
    headers.push_back(Data(std::to_string(batch)));
  }
  view.set("batch_sizes", headers);
  const dataset::DiffResult changes = dataset::diff(a.data, b.data);
  view.set("rows", compare_rows(a.data, b.data, layer_order(site), batches, changes, summary));
  view.set("totals", totals_of(changes, summary));
  view.set("base_misses", noise_miss_note(a.data, ""));
  view.set("other_misses", noise_miss_note(b.data, ""));
  const bool has_reference = is_reference(a) || is_reference(b);
  // The findings are listed once, on their own page (issue 39): a compare page links there, by its anchor.
  const bool has_issues = has_reference && !known_issues(site, (is_reference(a) ? a : b).data.id, "").is_false();
  view.set("known_issues", has_issues ? link(std::string("../") + k_inconsistencies_page, "Known inconsistencies") : Data(false));
  return {"compare", path, std::move(view), ""};
}

} // namespace layerbench::site
