// SPDX-License-Identifier: MIT
#include "site/view_model.hpp"

#include "dataset/speed_class.hpp"
#include "site/chart.hpp"
#include "site/view_common.hpp"
#include "site/view_pages.hpp"
#include "site/view_roofline.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace layerbench::site {

const char* const k_missing = "—";

namespace {

using dataset::Dataset;

struct NavItem
{
  const char* path;
  const char* label;
};
constexpr NavItem k_nav[] = {{"index.html", "Benchmark"}, {"formulas.html", "Formulas"}, {"faq.html", "FAQ"},
                             {"methodology.html", "Methodology"}, {"datasets.html", "Datasets"},
                             {"compare.html", "Compare"}, {"roofline.html", "Roofline"}};

Data page_base(const SiteData& site, const std::string& path, const std::string& title)
{
  // The 404 page is served for any missing path, so it links from the site root.
  const bool nested = path.find('/') != std::string::npos;
  const std::string root = path == "404.html" ? "/" : nested ? "../" : "";
  Data view = object();
  view.set("root", root);
  view.set("page_title", title);
  view.set("focus_batch", std::to_string(dataset::reference_batch(site.datasets[site.featured].data)));
  Data nav = list();
  for (const auto& item : k_nav) {
    Data entry = object();
    entry.set("href", root + item.path);
    entry.set("label", std::string(item.label));
    entry.set("current", Data(path == item.path));
    nav.push_back(entry);
  }
  view.set("nav", nav);
  Data layers = list();
  for (const auto& name : layer_order(site)) {
    layers.push_back(link(root + layer_path(name), name));
  }
  view.set("layer_links", layers);
  view.set("featured", dataset_summary(site.datasets[site.featured], root));
  return view;
}

bool replaced_on_site(const SiteData& site, const SiteDataset& entry)
{
  const std::string key = entry.data.id + "@" + std::to_string(entry.data.version);
  return std::any_of(site.datasets.begin(), site.datasets.end(), [&](const SiteDataset& other) {
    return other.origin == DatasetOrigin::published && other.data.replaces == key;
  });
}

// The datasets shown beside the featured one on the home table: local runs first ("your run"), then
// every published dataset that no other dataset on the site replaces.
std::vector<size_t> side_datasets(const SiteData& site)
{
  std::vector<size_t> shown;
  for (const DatasetOrigin origin : {DatasetOrigin::local, DatasetOrigin::published}) {
    for (size_t i = 0; i < site.datasets.size(); ++i) {
      const SiteDataset& entry = site.datasets[i];
      if (i == site.featured || entry.origin != origin) {
        continue;
      }
      if (origin == DatasetOrigin::published && replaced_on_site(site, entry)) {
        continue;
      }
      shown.push_back(i);
    }
  }
  return shown;
}

// What a column group of the home table is called: a local run is the reader's own.
std::string column_label(const SiteDataset& entry)
{
  return entry.origin == DatasetOrigin::local ? "your run" : dataset_label(entry);
}

// One column group per side dataset, each at its own reference batch.
Data home_groups(const SiteData& site, const std::vector<size_t>& shown)
{
  Data groups = list();
  for (size_t index : shown) {
    const SiteDataset& entry = site.datasets[index];
    Data group = object();
    const std::string label = column_label(entry);
    const bool reference = entry.data.kind == dataset::Kind::published_reference;
    group.set("label", reference && label.find("reference") == std::string::npos ? label + " (reference)" : label);
    group.set("full_label", dataset_label(entry));
    group.set("href", "datasets.html#" + entry.slug);
    group.set("slug", entry.slug);
    group.set("batch", std::to_string(dataset::reference_batch(entry.data)));
    groups.push_back(group);
  }
  return groups;
}

Data home_rows(const SiteData& site, const std::vector<int>& batches, const std::vector<size_t>& shown)
{
  const Dataset& data = site.datasets[site.featured].data;
  Data rows = list();
  for (const auto& layer : data.layers) {
    Data row = object();
    row.set("name", layer.name);
    row.set("module", layer.module);
    row.set("href", layer_path(layer.name));
    row.set("config", layer.config);
    row.set("params", layer.params ? util::format_thousands(*layer.params) : k_missing);
    row.set("params_sort", layer.params ? std::to_string(*layer.params) : std::string(""));
    row.set("flops", layer.flops_per_sample ? util::format_si(*layer.flops_per_sample) : k_missing);
    row.set("flops_sort", layer.flops_per_sample ? util::format_significant(*layer.flops_per_sample, 6) : std::string(""));
    Data times = list();
    for (int batch : batches) {
      times.push_back(time_cell(data, dataset::find_cell(data, layer.name, batch)));
    }
    row.set("times", times);
    const dataset::Cell* focus = dataset::find_cell(data, layer.name, dataset::reference_batch(data));
    row.set("memory", focus && focus->peak_memory_bytes ? util::format_bytes(static_cast<double>(*focus->peak_memory_bytes)) : k_missing);
    row.set("speed", speed_class_text(data, layer));
    Data side = list();
    for (size_t index : shown) {
      const SiteDataset& entry = site.datasets[index];
      Data cell = time_cell(entry.data, dataset::find_cell(entry.data, layer.name, dataset::reference_batch(entry.data)));
      cell.set("slug", entry.slug);
      side.push_back(cell);
    }
    row.set("side", side);
    rows.push_back(row);
  }
  return rows;
}

Data batch_headers(const std::vector<int>& batches)
{
  Data headers = list();
  for (int batch : batches) {
    headers.push_back(Data(std::to_string(batch)));
  }
  return headers;
}

std::string focus_bar_chart(const Dataset& data, const std::string& id)
{
  const int focus = dataset::reference_batch(data);
  BarChart chart;
  chart.id = id;
  chart.title = "Forward time of every layer at batch size " + std::to_string(focus);
  chart.description = "Median milliseconds per forward pass of one batch of " + std::to_string(focus)
                      + " in " + data.title + ", on a logarithmic scale; the table gives the same figures.";
  chart.value_label = "milliseconds per batch (log scale)";
  for (const auto& layer : data.layers) {
    const auto ms = median_ms(data, layer.name, focus);
    if (ms && *ms > 0) {
      chart.bars.push_back({layer.name, *ms, ms_text(*ms) + " ms"});
    }
  }
  return render_svg(chart);
}

PageSpec home_page(const SiteData& site)
{
  const SiteDataset& featured = site.datasets[site.featured];
  const auto batches = batch_sizes(featured.data);
  PageSpec page{"home", "index.html", page_base(site, "index.html", "PyTorch layer forward-pass benchmark"), "home"};
  const auto shown = side_datasets(site);
  page.view.set("batch_sizes", batch_headers(batches));
  page.view.set("featured_columns", std::to_string(batches.size() + 2));
  page.view.set("groups", home_groups(site, shown));
  page.view.set("rows", home_rows(site, batches, shown));
  page.view.set("noise_misses", noise_miss_note(featured.data, ""));
  page.view.set("bar_chart", focus_bar_chart(featured.data, "bars-focus"));
  page.view.set("summary", featured_facts(featured.data));
  Data others = list();
  for (const auto& entry : site.datasets) {
    others.push_back(dataset_summary(entry, ""));
  }
  page.view.set("datasets", others);
  page.view.set("reproduce", reproduce_steps(featured));
  return page;
}

PageSpec not_found_page(const SiteData& site)
{
  PageSpec page{"not_found", "404.html", page_base(site, "404.html", "Page not found"), ""};
  return page;
}

} // namespace

std::vector<PageSpec> build_pages(const SiteData& site, const std::string& base_url)
{
  std::vector<PageSpec> pages;
  pages.push_back(home_page(site));
  for (const auto& name : layer_order(site)) {
    pages.push_back(layer_page(site, name, page_base(site, layer_path(name), name)));
  }
  pages.push_back(formulas_page(site, page_base(site, "formulas.html", "Parameter and FLOP formulas")));
  pages.push_back(faq_page(site, page_base(site, "faq.html", "Frequently asked questions")));
  pages.push_back(methodology_page(site, page_base(site, "methodology.html", "Methodology"), base_url));
  pages.push_back(datasets_page(site, page_base(site, "datasets.html", "Datasets"), base_url));
  for (const auto& entry : site.datasets) {
    if (has_settings_page(entry)) {
      pages.push_back(settings_page(entry, page_base(site, settings_path(entry), "Settings: " + dataset_label(entry))));
    }
  }
  pages.push_back(compare_index_page(site, page_base(site, "compare.html", "Compare datasets")));
  for (const auto& pair : compare_pairs(site)) {
    const std::string path = compare_path(site, pair.first, pair.second);
    pages.push_back(compare_page(site, pair.first, pair.second, page_base(site, path, compare_title(site, pair.first, pair.second)), path));
  }
  pages.push_back(roofline_index_page(site, page_base(site, "roofline.html", "Peaks and rooflines")));
  for (size_t i = 0; i < site.datasets.size(); ++i) {
    const auto& entry = site.datasets[i];
    if (entry.data.kind == dataset::Kind::measured && roofs_of(site, entry)) {
      pages.push_back(roofline_page(site, i, page_base(site, roofline_path(entry), "Roofline: " + dataset_label(entry))));
    }
  }
  pages.push_back(not_found_page(site));
  return pages;
}

} // namespace layerbench::site
