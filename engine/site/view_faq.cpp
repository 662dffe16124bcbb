// SPDX-License-Identifier: MIT
// The FAQ: the seed page's questions, every figure in the answers computed from the featured dataset.
// An answer whose figures the dataset cannot give is left out rather than filled in.

#include "dataset/batch_sizes.hpp"
#include "site/chart.hpp"
#include "site/device_datasets.hpp"
#include "site/model_answers.hpp"
#include "site/view_common.hpp"
#include "site/view_finding.hpp"
#include "site/view_pages.hpp"
#include "site/view_roofline.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <cmath>

namespace layerbench::site {

namespace {

using dataset::Dataset;

struct Timed
{
  std::string layer;
  double ms = 0;
};

std::vector<Timed> by_time(const Dataset& data, int batch)
{
  std::vector<Timed> timed;
  for (const auto& layer : data.layers) {
    if (const auto ms = median_ms(data, layer.name, batch)) {
      timed.push_back({layer.name, *ms});
    }
  }
  std::stable_sort(timed.begin(), timed.end(), [](const Timed& a, const Timed& b) { return a.ms < b.ms; });
  return timed;
}

Data fastest_answer(const Dataset& data, int batch)
{
  const auto timed = by_time(data, batch);
  if (timed.size() < 2) {
    return Data(false);
  }
  Data answer = object();
  answer.set("batch", std::to_string(batch));
  answer.set("first", timed[0].layer);
  answer.set("first_ms", median_text(data, timed[0].layer, batch));
  answer.set("second", timed[1].layer);
  answer.set("second_ms", median_text(data, timed[1].layer, batch));
  const auto parameterised = std::find_if(timed.begin(), timed.end(), [&data](const Timed& entry) {
    const dataset::Layer* layer = dataset::find_layer(data, entry.layer);
    return layer->params && *layer->params > 0;
  });
  Data with_params = Data(false);
  if (parameterised != timed.end()) {
    with_params = object();
    with_params.set("layer", parameterised->layer);
    with_params.set("ms", median_text(data, parameterised->layer, batch));
  }
  answer.set("parameterised", with_params);
  answer.set("slowest", timed.back().layer);
  answer.set("slowest_ms", median_text(data, timed.back().layer, batch));
  return answer;
}

std::optional<double> pair_ratio(const Dataset& data, const std::string& slow, const std::string& fast, int batch)
{
  const auto a = median_ms(data, slow, batch);
  const auto b = median_ms(data, fast, batch);
  if (!a || !b || *b <= 0) {
    return std::nullopt;
  }
  return *a / *b;
}

Data transformer_answer(const SiteData& site, int batch)
{
  const Dataset& data = site.datasets[site.featured].data;
  const auto ratio = pair_ratio(data, "TransformerEncoder", "Dropout", batch);
  if (!ratio) {
    return Data(false);
  }
  Data answer = object();
  answer.set("batch", std::to_string(batch));
  answer.set("transformer_ms", median_text(data, "TransformerEncoder", batch));
  answer.set("dropout_ms", median_text(data, "Dropout", batch));
  answer.set("ratio", ratio_text(data, "TransformerEncoder", batch, "Dropout", batch));
  // "slower" holds only where its median is the larger one.
  answer.set("slower", Data(*ratio > 1));
  // The other devices, each by the dataset that stands for it: a device reads the same on every page.
  Data others = list();
  for (size_t i : featured_per_device(site)) {
    const auto other = pair_ratio(site.datasets[i].data, "TransformerEncoder", "Dropout", batch);
    if (i != site.featured && device_text(site.datasets[i].data) != device_text(data) && other) {
      others.push_back(labelled(dataset_label(site.datasets[i]), ratio_text(site.datasets[i].data, "TransformerEncoder", batch, "Dropout", batch)));
    }
  }
  answer.set("others", others);
  // Why attention is slow explains the slowest layer only when TransformerEncoder is that layer.
  const auto timed = by_time(data, batch);
  answer.set("is_slowest", Data(!timed.empty() && timed.back().layer == "TransformerEncoder"));
  return answer;
}

struct Scaling
{
  std::string layer;
  double time_factor = 0;
  double throughput_factor = 0;
};

std::vector<Scaling> scalings(const Dataset& data, int small, int large)
{
  std::vector<Scaling> result;
  for (const auto& layer : data.layers) {
    const auto a = median_ms(data, layer.name, small);
    const auto b = median_ms(data, layer.name, large);
    if (a && b && *a > 0 && *b > 0) {
      result.push_back({layer.name, *b / *a, (*a / small) / (*b / large)});
    }
  }
  return result;
}

// Time per sample may differ by this factor and still count as "in proportion to the batch".
constexpr double k_proportional = 1.2;

// How one layer's time grows with batch size: its median at every batch size, and from which batch
// size on its time per sample stays within k_proportional (the time then grows in proportion to the
// batch); "proportional_from" is false when it never settles.
Data growth_of(const Dataset& data, const std::string& layer, const std::vector<int>& batches)
{
  Data times = list();
  std::vector<std::pair<int, double>> per_sample;
  for (int batch : batches) {
    if (const auto ms = median_ms(data, layer, batch)) {
      times.push_back(labelled(std::to_string(batch), median_text(data, layer, batch)));
      per_sample.emplace_back(batch, *ms / batch);
    }
  }
  Data view = object();
  view.set("times", times);
  view.set("proportional_from", Data(false));
  // The smallest start whose tail (at least two batch sizes) keeps time per sample within the factor.
  for (size_t start = 0; start + 1 < per_sample.size(); ++start) {
    double low = HUGE_VAL;
    double high = 0;
    for (size_t i = start; i < per_sample.size(); ++i) {
      low = std::min(low, per_sample[i].second);
      high = std::max(high, per_sample[i].second);
    }
    if (high / low <= k_proportional) {
      view.set("proportional_from", std::to_string(per_sample[start].first));
      break;
    }
  }
  return view;
}

Data scaling_answer(const Dataset& data)
{
  const auto batches = batch_sizes(data);
  if (batches.size() < 2) {
    return Data(false);
  }
  const int small = batches.front();
  const int large = batches.back();
  const auto all = scalings(data, small, large);
  if (all.empty()) {
    return Data(false);
  }
  Data answer = object();
  answer.set("small", std::to_string(small));
  answer.set("large", std::to_string(large));
  const auto conv = std::find_if(all.begin(), all.end(), [](const Scaling& s) { return s.layer == "Conv2d"; });
  const Scaling& example = conv == all.end() ? all.front() : *conv;
  answer.set("example", example.layer);
  answer.set("example_time", ratio_text(example.time_factor));
  answer.set("example_throughput", (example.throughput_factor >= 1 ? "grows " : "falls to ") + ratio_text(example.throughput_factor));
  // "A larger batch takes longer but processes more samples per second" is said of every layer only
  // when every layer does both; otherwise the answer counts the layers that do.
  const auto gains = static_cast<size_t>(std::count_if(all.begin(), all.end(), [](const Scaling& s) {
    return s.time_factor > 1 && s.throughput_factor > 1;
  }));
  answer.set("example_growth", growth_of(data, example.layer, batches));
  answer.set("every_layer_gains", Data(gains == all.size()));
  answer.set("gaining", util::format_thousands(static_cast<int64_t>(gains)));
  answer.set("layers", util::format_thousands(static_cast<int64_t>(all.size())));
  Data rows = list();
  BarChart chart{"bars-scaling", "Throughput gain from batch " + std::to_string(small) + " to batch " + std::to_string(large),
                 "For each layer, samples per second at batch " + std::to_string(large) + " divided by samples per second at batch "
                   + std::to_string(small) + ", on a logarithmic scale; the table beside it gives the same figures.",
                 "throughput gain, times (log scale)", {}, {}};
  for (const auto& scaling : all) {
    Data row = object();
    row.set("layer", scaling.layer);
    row.set("time_factor", ratio_text(scaling.time_factor));
    row.set("throughput_factor", ratio_text(scaling.throughput_factor));
    rows.push_back(row);
    chart.bars.push_back({scaling.layer, scaling.throughput_factor, ratio_text(scaling.throughput_factor), std::nullopt});
  }
  answer.set("rows", rows);
  answer.set("chart", render_svg(chart));
  return answer;
}

// The highest achieved rate over every cell, not one batch size: small layers peak at a small batch.
Data flops_answer(const Dataset& data)
{
  struct Best
  {
    std::string layer;
    int batch = 0;
    double rate = 0;
  };
  std::optional<Best> best;
  for (const auto& layer : data.layers) {
    for (int batch : batch_sizes(data)) {
      const auto ms = median_ms(data, layer.name, batch);
      if (!ms || !layer.flops_per_sample || *layer.flops_per_sample <= 0) {
        continue;
      }
      const double rate = *layer.flops_per_sample * batch / (*ms / 1000.0);
      if (!best || rate > best->rate) {
        best = Best{layer.name, batch, rate};
      }
    }
  }
  if (!best) {
    return Data(false);
  }
  Data answer = object();
  answer.set("batch", std::to_string(best->batch));
  answer.set("layer", best->layer);
  answer.set("rate", util::format_rate(best->rate, "FLOP/s"));
  // A rate from the direct count is nominal where the cell's kernels show a transform algorithm (FFT,
  // Winograd), which does less arithmetic: the sentence says so, naming the kernel.
  const auto* cell = dataset::find_cell(data, best->layer, best->batch);
  const auto transform = cell ? transform_kernel_name(*cell) : std::nullopt;
  answer.set("transform", transform ? Data(*transform) : Data(false));
  return answer;
}

// The samples the cells actually took (the configured range says little when the budget cut cells short).
Data sample_counts(const Dataset& data)
{
  std::vector<int> counts;
  for (const auto& cell : data.results) {
    if (cell.status == dataset::CellStatus::ok && cell.stats && cell.stats->samples) {
      counts.push_back(*cell.stats->samples);
    }
  }
  if (counts.empty()) {
    return Data(false);
  }
  std::sort(counts.begin(), counts.end());
  const size_t n = counts.size();
  const double median = n % 2 == 1 ? counts[n / 2] : (counts[n / 2 - 1] + counts[n / 2]) / 2.0;
  Data view = object();
  view.set("min", util::format_thousands(counts.front()));
  view.set("median", trimmed_significant(median, 6));
  view.set("max", util::format_thousands(counts.back()));
  view.set("cells", util::format_thousands(static_cast<int64_t>(n)));
  return view;
}

Data methodology_answer(const Dataset& data)
{
  if (!data.methodology) {
    return Data(false);
  }
  const auto& m = *data.methodology;
  Data answer = object();
  answer.set("timer", m.timer.empty() ? k_missing : m.timer);
  answer.set("warmup_seconds", trimmed_significant(m.warmup_seconds, 3));
  answer.set("warmup_iterations", util::format_count(m.warmup_min_iterations, "iteration"));
  answer.set("noise_target", trimmed_significant(m.noise_target * 100.0, 3) + "%");
  answer.set("samples", sample_counts(data));
  return answer;
}

} // namespace

PageSpec faq_page(const SiteData& site, Data base)
{
  const Dataset& data = site.datasets[site.featured].data;
  const auto batches = batch_sizes(data);
  const int largest = batches.empty() ? 0 : batches.back();
  Data view = std::move(base);
  view.set("fastest", fastest_answer(data, dataset::reference_batch(data)));
  view.set("transformer", transformer_answer(site, largest));
  view.set("scaling", scaling_answer(data));
  view.set("flops", flops_answer(data));
  view.set("method", methodology_answer(data));
  view.set("roofline", roofline_faq(site));
  view.set("settings", settings_answer(site));
  view.set("versions", versions_answer(site));
  view.set("finding", finding_answer(site));
  // Seed 001's questions of whole models, where the site has any.
  view.set("models", site.models.empty() ? Data(false) : model_answers(site, ""));
  return {"faq", "faq.html", std::move(view), "faq"};
}

} // namespace layerbench::site
