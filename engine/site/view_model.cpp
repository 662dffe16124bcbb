// SPDX-License-Identifier: MIT
#include "site/view_model.hpp"
#include "site/memory_figure.hpp"

#include "dataset/batch_sizes.hpp"
#include "site/cell_whisker.hpp"
#include "site/chart.hpp"
#include "site/device_datasets.hpp"
#include "site/figure_flag.hpp"
#include "site/view_common.hpp"
#include "site/view_pages.hpp"
#include "site/view_roofline.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

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

// Links climb to the site's root relatively, so the site works from file:// and under any subpath.
std::string relative_root(const std::string& path)
{
  return path.find('/') != std::string::npos ? "../" : "";
}

// The 404 page is served for a missing address at any depth, which no relative link can climb out of.
// Without a served path or --base-url its links are those of the home page, relative to the site's root
// folder: they work from file://, at its own address and for a missing page in the root folder, under any
// subpath. Otherwise they start at that path, so they work at every depth on that host.
std::string not_found_root(const std::string& base_url, const std::string& served_path)
{
  if (!served_path.empty()) {
    return served_path.back() == '/' ? served_path : served_path + "/";
  }
  if (base_url.empty()) {
    return "";
  }
  const size_t host = base_url.find("://") + 3;
  const size_t path = base_url.find('/', host);
  const std::string root = path == std::string::npos ? "/" : base_url.substr(path);
  return root.back() == '/' ? root : root + "/";
}

Data page_base_at(const SiteData& site, const std::string& path, const std::string& title, const std::string& root)
{
  Data view = object();
  view.set("root", root);
  view.set("page_title", title);
  view.set("reference_batch", std::to_string(dataset::reference_batch(site.datasets[site.featured].data)));
  Data nav = list();
  for (const auto& item : k_nav) {
    Data entry = object();
    entry.set("href", root + item.path);
    entry.set("label", std::string(item.label));
    // A dataset's own page sits under the datasets index, as a model's under the models page.
    const bool below = std::string(item.path) == "datasets.html" && path.rfind("datasets/", 0) == 0;
    entry.set("current", Data(path == item.path || below));
    nav.push_back(entry);
  }
  // The models pages exist only where a dataset holds a whole model, so a site of layers is unchanged.
  if (!site.models.empty()) {
    Data entry = object();
    entry.set("href", root + "models.html");
    entry.set("label", std::string("Models"));
    entry.set("current", Data(path == "models.html" || path.rfind("models/", 0) == 0));
    nav.push_back(entry);
  }
  // The version history exists only where one machine measured two torch releases or more.
  const auto series = version_series(site);
  if (!series.empty()) {
    Data entry = object();
    entry.set("href", root + versions_path(series.front()));
    entry.set("label", std::string("Versions"));
    entry.set("current", Data(path.rfind("versions/", 0) == 0));
    nav.push_back(entry);
  }
  // The settings pages hang off no page of their own: the menu reaches the featured dataset's, else the first.
  const auto with_settings = std::find_if(site.datasets.begin(), site.datasets.end(), has_settings_page);
  if (with_settings != site.datasets.end()) {
    const SiteDataset& shown = has_settings_page(site.datasets[site.featured]) ? site.datasets[site.featured] : *with_settings;
    Data entry = object();
    entry.set("href", root + settings_path(shown));
    entry.set("label", std::string("Settings"));
    entry.set("current", Data(path.rfind("settings/", 0) == 0));
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

Data page_base(const SiteData& site, const std::string& path, const std::string& title)
{
  return page_base_at(site, path, title, relative_root(path));
}

// The datasets of the home page's results, one table each: the featured dataset first, then local
// runs ("your run"), then the dataset that stands for each other device (featured_per_device).
std::vector<size_t> home_datasets(const SiteData& site)
{
  std::vector<size_t> shown{site.featured};
  const auto others = featured_per_device(site);
  for (const DatasetOrigin origin : {DatasetOrigin::local, DatasetOrigin::published}) {
    for (size_t index : others) {
      if (index != site.featured && site.datasets[index].origin == origin) {
        shown.push_back(index);
      }
    }
  }
  return shown;
}

// What a results table is called: a local run is the reader's own; a reference says it was transcribed.
std::string results_label(const SiteDataset& entry)
{
  if (entry.origin == DatasetOrigin::local) {
    return "your run";
  }
  const std::string label = dataset_label(entry);
  return entry.data.kind == dataset::Kind::published_reference ? label + " (transcribed, not measured by LayerBench)" : label;
}

Data home_rows(const SiteData& site, const SiteDataset& entry, const std::vector<int>& batches)
{
  const Dataset& data = entry.data;
  const int reference = dataset::reference_batch(data);
  Data rows = list();
  for (const auto& layer : data.layers) {
    Data row = object();
    row.set("name", layer.name);
    row.set("heading", layer.name);
    row.set("module", layer.module);
    row.set("href", layer_path(layer.name));
    row.set("config", layer.config);
    row.set("params", layer.params ? util::format_thousands(*layer.params) : k_missing);
    row.set("params_sort", layer.params ? std::to_string(*layer.params) : std::string(""));
    row.set("flops", layer.flops_per_sample ? util::format_si(*layer.flops_per_sample) : k_missing);
    row.set("flops_sort", layer.flops_per_sample ? util::format_significant(*layer.flops_per_sample, 6) : std::string(""));
    row.set("params_flag", figure_flag(site, data, layer.name, FlaggedFigure::params, 0, ""));
    row.set("flops_flag", figure_flag(site, data, layer.name, FlaggedFigure::flops, 0, ""));
    Data times = list();
    for (int batch : batches) {
      Data time = flagged_time_cell(site, data, layer.name, batch, "");
      time.set("at_reference", Data(batch == reference));
      times.push_back(time);
    }
    row.set("times", times);
    // A phone shows the reference batch's time first, beside the layer, and hides its own column.
    row.set("first_time", flagged_time_cell(site, data, layer.name, reference, ""));
    const dataset::Cell* at_batch = dataset::find_cell(data, layer.name, reference);
    set_memory(row, entry, at_batch, "");
    row.set("memory_flag", figure_flag(site, data, layer.name, FlaggedFigure::memory, reference, ""));
    row.set("speed", speed_class_of(data, layer));
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

std::string reference_batch_bar_chart(const SiteDataset& entry, const std::string& id)
{
  const Dataset& data = entry.data;
  const int batch = dataset::reference_batch(data);
  BarChart chart;
  chart.id = id;
  chart.title = "Forward time of every layer at batch size " + std::to_string(batch);
  chart.description = "Median milliseconds per forward pass of one batch of " + std::to_string(batch)
                      + " in " + dataset_title(entry) + ", on a logarithmic scale; the table gives the same figures.";
  chart.value_label = "milliseconds per batch (log scale)";
  chart.whisker_label = k_quartile_whisker_label;
  for (const auto& layer : data.layers) {
    const auto ms = median_ms(data, layer.name, batch);
    if (ms && *ms > 0) {
      chart.bars.push_back({layer.name, *ms, median_text(data, layer.name, batch) + " ms",
                            time_whisker(dataset::find_cell(data, layer.name, batch))});
    }
  }
  return render_svg(chart);
}

Data home_results(const SiteData& site)
{
  Data sections = list();
  for (size_t index : home_datasets(site)) {
    const SiteDataset& entry = site.datasets[index];
    const auto batches = batch_sizes(entry.data);
    const bool featured = index == site.featured;
    Data section = object();
    section.set("featured", Data(featured));
    section.set("anchor", featured ? std::string("results") : "results-" + entry.slug);
    section.set("table_id", featured ? std::string("benchmark") : "benchmark-" + entry.slug);
    section.set("label", results_label(entry));
    section.set("href", dataset_path(entry));
    section.set("device", device_text(entry.data));
    section.set("batch_sizes", batch_headers(batches));
    section.set("memory_batch", std::to_string(dataset::reference_batch(entry.data)));
    section.set("rows", home_rows(site, entry, batches));
    // Where the table carries marks, the line under it says what they mean and where all of them are.
    const bool has_issues = entry.data.kind == dataset::Kind::published_reference && !known_issues(site, entry.data.id, "").is_false();
    section.set("flags_href", has_issues ? Data(std::string(k_inconsistencies_page)) : Data(false));
    section.set("row_heading", std::string("Layer type"));
    section.set("noise_misses", noise_miss_note(entry.data, ""));
    section.set("speed_rule", entry.data.kind == dataset::Kind::published_reference
                                ? std::string("Speed: the source page's own labels, not LayerBench's rule.")
                                : speed_rule_text(dataset::reference_batch(entry.data)));
    sections.push_back(section);
  }
  return sections;
}

namespace {

// The references first; then by device, each device's releases in release order and, within one
// release, oldest first: the catalog's order is the order of publication, which says nothing to a reader.
std::vector<const SiteDataset*> home_dataset_order(const SiteData& site)
{
  std::vector<const SiteDataset*> order;
  for (const auto& entry : site.datasets) {
    order.push_back(&entry);
  }
  const auto key = [](const SiteDataset* entry) {
    const Dataset& data = entry->data;
    return std::make_tuple(data.kind != dataset::Kind::published_reference, device_text(data),
                           release_key(data.environment ? data.environment->torch_version : ""), data.created);
  };
  std::stable_sort(order.begin(), order.end(), [&](const SiteDataset* a, const SiteDataset* b) { return key(a) < key(b); });
  return order;
}

// {has_reference} while no dataset LayerBench measured ran on a GPU, so that the home page says the GPU
// figures are a reference's; false once one did, or when a measured dataset ran on neither a CPU nor CUDA.
Data gpu_note(const SiteData& site)
{
  bool measured = false;
  bool has_reference = false;
  for (const auto* group : {&site.datasets, &site.models, &site.layer_sums}) {
    for (const auto& entry : *group) {
      const Dataset& data = entry.data;
      if (data.kind == dataset::Kind::published_reference) {
        has_reference = true;
        continue;
      }
      if (data.kind != dataset::Kind::measured) {
        continue;
      }
      if (!data.environment || data.environment->device.type != "cpu") {
        return Data(false);
      }
      measured = true;
    }
  }
  if (!measured) {
    return Data(false);
  }
  Data note = object();
  note.set("has_reference", Data(has_reference));
  return note;
}

// The featured dataset against the reference, when it is a measured one and a reference is on the site:
// the comparison page's link and totals (its per-cell ratios are on that page); false otherwise.
Data against_reference(const SiteData& site)
{
  if (site.datasets[site.featured].data.kind == dataset::Kind::published_reference) {
    return Data(false);
  }
  for (const auto& [base, other] : compare_pairs(site)) {
    const bool pair_of_featured = base == site.featured || other == site.featured;
    const size_t partner = base == site.featured ? other : base;
    if (!pair_of_featured || site.datasets[partner].data.kind != dataset::Kind::published_reference) {
      continue;
    }
    Data view = compare_totals(site, base, other);
    view.set("href", compare_path(site, base, other));
    view.set("reference", dataset_label(site.datasets[base]));
    view.set("measured", dataset_label(site.datasets[other]));
    // On a GPU, whether TF32 was off, as the measured dataset records it: the reference does not say.
    const auto& measured = site.datasets[other].data;
    view.set("tf32_off", Data(on_cuda(measured) && !measured.environment->matmul_allow_tf32
                              && !measured.environment->cudnn_allow_tf32));
    return view;
  }
  return Data(false);
}

} // namespace

PageSpec home_page(const SiteData& site)
{
  const SiteDataset& featured = site.datasets[site.featured];
  PageSpec page{"home", "index.html", page_base(site, "index.html", "PyTorch layer forward-pass benchmark"), "home"};
  Data results = home_results(site);
  // The featured table is written last, so that a targeted other table can hide it with CSS alone.
  Data ordered = list();
  const auto& all = results.list_value();
  for (size_t i = 1; i < all.size(); ++i) {
    ordered.push_back(all[i]);
  }
  ordered.push_back(all.front());
  page.view.set("results", ordered);
  page.view.set("switch", results);
  page.view.set("has_others", Data(all.size() > 1));
  page.view.set("bar_chart", reference_batch_bar_chart(featured, "bars-focus"));
  Data summary = featured_facts(featured.data);
  summary.set("title", dataset_title(featured));
  page.view.set("summary", summary);
  page.view.set("layer_sum", layer_sum_extremes(site));
  Data others = list();
  for (const SiteDataset* entry : home_dataset_order(site)) {
    others.push_back(dataset_summary(*entry, ""));
  }
  page.view.set("datasets", others);
  page.view.set("gpu_note", gpu_note(site));
  page.view.set("against_reference", against_reference(site));
  page.view.set("reproduce", reproduce_steps(featured));
  return page;
}

PageSpec not_found_page(const SiteData& site, const std::string& root)
{
  PageSpec page{"not_found", "404.html", page_base_at(site, "404.html", "Page not found", root), ""};
  return page;
}

std::string batch_range_text(const dataset::Dataset& data)
{
  const auto batches = batch_sizes(data);
  if (batches.size() == 1) {
    return "batch size " + std::to_string(batches.front());
  }
  return "batch sizes " + std::to_string(batches.front()) + " to " + std::to_string(batches.back());
}

// What a search result says of a page: its subject and what it answers, in one sentence.
std::string page_description(const SiteData& site, const PageSpec& page)
{
  const SiteDataset& featured = site.datasets[site.featured];
  const std::string label = dataset_label(featured);
  const std::string title = page.view.get("page_title")->string_value();
  const std::string layers = util::format_count(static_cast<int64_t>(layer_order(site).size()), "PyTorch layer");
  const std::string devices = util::format_count(static_cast<int64_t>(featured_per_device(site).size()), "device");
  const std::string& kind = page.template_name;
  if (kind == "home") {
    return "Forward-pass time of " + layers + " at " + batch_range_text(featured.data) + " on " + label
           + ", one table per device (" + devices + "), every figure from a published dataset.";
  }
  if (kind == "layer") {
    return "nn." + title + ": forward-pass time against batch size on " + devices
           + ", its parameter and FLOP formulas, and its figures in every dataset.";
  }
  if (kind == "formulas") {
    return "The parameter and FLOP formulas of " + layers + ", with the counts for each configuration benchmarked.";
  }
  if (kind == "inconsistencies") {
    return "Every figure of a transcribed reference that LayerBench's own computations find inconsistent, with both numbers.";
  }
  if (kind == "faq") {
    return "Which PyTorch layer is fastest, how its time grows with the batch and why it need not follow TFLOP/s, answered from "
           + label + ".";
  }
  if (kind == "methodology") {
    return "How LayerBench times a forward pass (warm-up, samples, noise target), with the settings of " + label + ".";
  }
  if (kind == "datasets") {
    return "Every published LayerBench dataset and version, by device and torch release, each with its own page of downloads "
           "and citation.";
  }
  if (kind == "dataset") {
    return title + ": its downloads, SHA-256, licence, how it was measured, how to reproduce it and how to cite it.";
  }
  if (kind == "settings") {
    return title + ": the speedup of each performance setting over the baseline, layer by layer.";
  }
  if (kind == "compare_index") {
    return "Every pair of LayerBench datasets compared cell by cell, and the reference's known inconsistencies.";
  }
  if (kind == "compare") {
    return title + ": each cell's median in both datasets and their ratio.";
  }
  if (kind == "roofline_index") {
    return "Measured and datasheet compute and memory peaks of each device, and a roofline chart per measured dataset.";
  }
  if (kind == "models") {
    return "Whole models measured beside the layers: throughput by setting and batch size, and published figures as references.";
  }
  if (kind == "model") {
    return title + ": throughput by setting and batch size, the operators that dominate it and the layers it is made of.";
  }
  if (kind == "versions") {
    return title + ": each layer's median on every torch release measured there, and each step between releases called "
                   "faster, slower, the same or unclear.";
  }
  if (kind == "roofline") {
    return title + ": every cell's achieved FLOP/s against its arithmetic intensity, under the run's measured roofs.";
  }
  return "There is no page at this address; the benchmark and every layer's page are a link away.";
}

} // namespace

std::vector<PageSpec> build_pages(const SiteData& site, const std::string& base_url, const std::string& served_path)
{
  std::vector<PageSpec> pages;
  pages.push_back(home_page(site));
  for (const auto& name : layer_order(site)) {
    pages.push_back(layer_page(site, name, page_base(site, layer_path(name), name)));
  }
  pages.push_back(formulas_page(site, page_base(site, "formulas.html", "Parameter and FLOP formulas")));
  pages.push_back(inconsistencies_page(site, page_base(site, k_inconsistencies_page, "What the references get wrong")));
  pages.push_back(faq_page(site, page_base(site, "faq.html", "Frequently asked questions")));
  pages.push_back(methodology_page(site, page_base(site, "methodology.html", "Methodology"), base_url));
  pages.push_back(datasets_page(site, page_base(site, "datasets.html", "Datasets")));
  for (const SiteDataset* entry : dataset_files(site)) {
    const std::string title = "Dataset " + dataset_label(*entry) + " · v" + std::to_string(entry->data.version);
    pages.push_back(dataset_page(site, *entry, page_base(site, dataset_path(*entry), title), base_url));
  }
  // The menu reaches one settings page; each lists them all, so every one is two taps from anywhere.
  std::vector<const SiteDataset*> with_settings;
  for (const auto& entry : site.datasets) {
    if (has_settings_page(entry)) {
      with_settings.push_back(&entry);
    }
  }
  for (const SiteDataset* entry : with_settings) {
    Data others = list();
    for (const SiteDataset* other : with_settings) {
      Data item = link("../" + settings_path(*other), dataset_label(*other));
      item.set("current", Data(other == entry));
      others.push_back(item);
    }
    Data base = page_base(site, settings_path(*entry), "Settings: " + dataset_label(*entry));
    base.set("has_other_settings", Data(with_settings.size() > 1));
    base.set("settings_pages", others);
    pages.push_back(settings_page(*entry, std::move(base)));
  }
  pages.push_back(compare_index_page(site, page_base(site, "compare.html", "Compare datasets")));
  for (const auto& pair : compare_pairs(site)) {
    const std::string path = compare_path(site, pair.first, pair.second);
    pages.push_back(compare_page(site, pair.first, pair.second, page_base(site, path, compare_title(site, pair.first, pair.second)), path));
  }
  pages.push_back(roofline_index_page(site, page_base(site, "roofline.html", "Peaks and rooflines")));
  for (size_t i = 0; i < site.datasets.size(); ++i) {
    const auto& entry = site.datasets[i];
    if (has_roofline_page(entry)) {
      pages.push_back(roofline_page(site, i, page_base(site, roofline_path(entry), "Roofline: " + dataset_label(entry))));
    }
  }
  const auto series = version_series(site);
  for (const auto& one : series) {
    Data base = page_base(site, versions_path(one), "Across torch releases: " + one.device);
    Data others = list();
    for (const auto& other : series) {
      Data item = link("../" + versions_path(other), other.device + ", " + std::to_string(other.threads) + " threads");
      item.set("current", Data(&other == &one));
      others.push_back(item);
    }
    base.set("has_other_series", Data(series.size() > 1));
    base.set("other_series", others);
    pages.push_back(versions_page(site, one, std::move(base)));
  }
  if (!site.models.empty()) {
    pages.push_back(models_page(site, page_base(site, "models.html", "Whole models")));
    for (const auto& name : model_names(site)) {
      pages.push_back(model_page(site, name, page_base(site, model_path(name), name)));
    }
  }
  pages.push_back(not_found_page(site, not_found_root(base_url, served_path)));
  for (auto& page : pages) {
    page.view.set("description", page_description(site, page));
  }
  return pages;
}

} // namespace layerbench::site
