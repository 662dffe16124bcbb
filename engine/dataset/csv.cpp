// SPDX-License-Identifier: MIT
#include "dataset/csv.hpp"

#include "dataset/precision.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>

namespace layerbench::dataset {

namespace {

struct Row
{
  const Dataset& dataset;
  const Cell& cell;
  const Layer* layer; // null when the cell names an undescribed layer
};

// Shortest text that reads back as the same double (what the JSON files hold).
template<typename T>
std::string number(const std::optional<T>& value)
{
  return value ? nlohmann::json(*value).dump() : std::string();
}

template<typename T>
std::string stat(const Row& row, std::optional<T> Stats::*member)
{
  return row.cell.stats ? number((*row.cell.stats).*member) : std::string();
}

std::string train_part(const Row& row, std::optional<Stats> TrainTimes::*member)
{
  if (!row.cell.train || !((*row.cell.train).*member)) {
    return std::string();
  }
  return number(std::optional(((*row.cell.train).*member)->median_ms));
}

std::string device(const Dataset& dataset)
{
  if (dataset.environment) {
    return dataset.environment->device.name;
  }
  return dataset.provenance.source ? dataset.provenance.source->device : std::string();
}

// A field of the cell's spread between rounds; empty for a cell of one round.
std::string spread_field(const Row& row, const std::function<std::string(const RoundSpread&)>& field)
{
  return row.cell.round_spread ? field(*row.cell.round_spread) : std::string();
}

using Column = std::pair<std::string, std::function<std::string(const Row&)>>;

// The columns before the axes', as 1.2 wrote them.
const std::vector<Column>& columns_before_axes()
{
  static const std::vector<Column> table = {
    {"dataset_id", [](const Row& r) { return r.dataset.id; }},
    {"dataset_version", [](const Row& r) { return std::to_string(r.dataset.version); }},
    {"kind", [](const Row& r) { return to_string(r.dataset.kind); }},
    {"device", [](const Row& r) { return device(r.dataset); }},
    {"layer", [](const Row& r) { return r.cell.layer; }},
    {"module", [](const Row& r) { return r.layer ? r.layer->module : std::string(); }},
    {"config", [](const Row& r) { return r.layer ? r.layer->config : std::string(); }},
    {"batch_size", [](const Row& r) { return std::to_string(r.cell.batch_size); }},
    {"status", [](const Row& r) { return to_string(r.cell.status); }},
    {"skip_reason", [](const Row& r) { return r.cell.skip_reason; }},
    {"median_ms", [](const Row& r) { return r.cell.stats ? number(std::optional(r.cell.stats->median_ms)) : std::string(); }},
    {"p25_ms", [](const Row& r) { return stat(r, &Stats::p25_ms); }},
    {"p75_ms", [](const Row& r) { return stat(r, &Stats::p75_ms); }},
    {"min_ms", [](const Row& r) { return stat(r, &Stats::min_ms); }},
    {"mean_ms", [](const Row& r) { return stat(r, &Stats::mean_ms); }},
    {"stddev_ms", [](const Row& r) { return stat(r, &Stats::stddev_ms); }},
    {"samples", [](const Row& r) { return stat(r, &Stats::samples); }},
    {"iterations_per_sample", [](const Row& r) { return stat(r, &Stats::iterations_per_sample); }},
    {"noise", [](const Row& r) { return stat(r, &Stats::noise); }},
    {"first_call_ms", [](const Row& r) { return number(r.cell.first_call_ms); }},
    {"peak_memory_bytes", [](const Row& r) { return number(r.cell.peak_memory_bytes); }},
    {"throughput_samples_per_s", [](const Row& r) { return number(r.cell.throughput_samples_per_s); }},
    {"achieved_flop_per_s", [](const Row& r) { return number(r.cell.achieved_flop_per_s); }},
    {"params", [](const Row& r) { return r.layer ? number(r.layer->params) : std::string(); }},
    {"flops_per_sample", [](const Row& r) { return r.layer ? number(r.layer->flops_per_sample) : std::string(); }},
    {"speed_class", [](const Row& r) { return r.layer ? r.layer->speed_class : std::string(); }},
  };
  return table;
}

// The columns after the 1.3.0 axes'.
const std::vector<Column>& columns_after_axes()
{
  static const std::vector<Column> table = {
    // 1.3.0: a train cell's parts.
    {"train_forward_ms", [](const Row& r) { return r.cell.train ? number(std::optional(r.cell.train->forward.median_ms)) : std::string(); }},
    {"train_backward_input_ms", [](const Row& r) { return train_part(r, &TrainTimes::backward_input); }},
    {"train_backward_weight_ms", [](const Row& r) { return train_part(r, &TrainTimes::backward_weight); }},
    {"train_sum_ms", [](const Row& r) { return r.cell.train ? number(std::optional(r.cell.train->sum_ms)) : std::string(); }},
    // 1.4.0: the median as the site shows it, at the figures its spread supports (dataset/precision.hpp),
    // and the spread between rounds; median_ms above stays the exact value.
    {"median_ms_shown", [](const Row& r) { return format_median(r.dataset, r.cell); }},
    {"significant_figures", [](const Row& r) { return r.cell.stats ? std::to_string(supported_figures(r.dataset, r.cell)) : std::string(); }},
    {"rounds", [](const Row& r) { return spread_field(r, [](const RoundSpread& s) { return number(std::optional(s.rounds)); }); }},
    {"round_min_median_ms", [](const Row& r) { return spread_field(r, [](const RoundSpread& s) { return number(std::optional(s.min_median_ms)); }); }},
    {"round_max_median_ms", [](const Row& r) { return spread_field(r, [](const RoundSpread& s) { return number(std::optional(s.max_median_ms)); }); }},
    {"ci95_low_ms", [](const Row& r) { return spread_field(r, [](const RoundSpread& s) { return number(std::optional(s.ci95_low_ms)); }); }},
    {"ci95_high_ms", [](const Row& r) { return spread_field(r, [](const RoundSpread& s) { return number(std::optional(s.ci95_high_ms)); }); }},
    // 1.6.0: a data-parallel training step; batch_size is then per rank.
    {"world_size", [](const Row& r) { return r.cell.data_parallel ? std::to_string(r.cell.data_parallel->world_size) : std::string(); }},
    {"all_reduce_median_ms", [](const Row& r) { return r.cell.data_parallel ? number(std::optional(r.cell.data_parallel->all_reduce_median_ms)) : std::string(); }},
  };
  return table;
}

// The axes of 1.3.0 have their columns after speed_class; an axis declared since is appended after
// every other column, as a new column must be.
constexpr size_t k_axes_of_1_3 = 5;

void add_axis_columns(std::vector<Column>& columns, size_t first, size_t end)
{
  for (size_t axis = first; axis < end; ++axis) {
    columns.push_back({axis_table()[axis].name, [axis](const Row& r) {
                         return axis_table()[axis].values.at(r.cell.axes.value_index(axis));
                       }});
  }
}

std::vector<Column> columns()
{
  const size_t axes = axis_table().size();
  auto result = columns_before_axes();
  add_axis_columns(result, 0, std::min(axes, k_axes_of_1_3));
  result.insert(result.end(), columns_after_axes().begin(), columns_after_axes().end());
  add_axis_columns(result, k_axes_of_1_3, axes);
  return result;
}

bool is_number(const std::string& field)
{
  char* end = nullptr;
  std::strtod(field.c_str(), &end);
  return !field.empty() && end == field.c_str() + field.size();
}

// A spreadsheet runs a cell that starts with = + - @ (or a tab or CR before one) as a formula: text
// such as a device name or a skip reason gets a leading apostrophe (OWASP's advice), numbers stay.
std::string inert(const std::string& field)
{
  if (field.empty() || std::string("=+-@\t\r").find(field.front()) == std::string::npos || is_number(field)) {
    return field;
  }
  return "'" + field;
}

std::string quoted(const std::string& text)
{
  const std::string field = inert(text);
  if (field.find_first_of(",\"\r\n'") == std::string::npos) {
    return field;
  }
  std::string out = "\"";
  for (char c : field) {
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  }
  return out + "\"";
}

} // namespace

std::vector<std::string> csv_columns()
{
  std::vector<std::string> names;
  for (const auto& column : columns()) {
    names.push_back(column.first);
  }
  return names;
}

std::string to_csv(const Dataset& dataset)
{
  const auto table = columns();
  std::string out;
  for (const auto& name : csv_columns()) {
    out += (out.empty() ? "" : ",") + name;
  }
  out += "\r\n";
  for (const auto& cell : dataset.results) {
    const Row row{dataset, cell, find_layer(dataset, cell.layer)};
    std::string line;
    for (size_t i = 0; i < table.size(); ++i) {
      line += (i == 0 ? "" : ",") + quoted(table[i].second(row));
    }
    out += line + "\r\n";
  }
  return out;
}

} // namespace layerbench::dataset
