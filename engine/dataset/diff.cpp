// SPDX-License-Identifier: MIT
#include "dataset/diff.hpp"

#include "util/error.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

namespace layerbench::dataset {

std::string to_string(Change change)
{
  switch (change) {
  case Change::faster:
    return "faster";
  case Change::slower:
    return "slower";
  case Change::unchanged:
    return "unchanged";
  case Change::missing:
    break;
  }
  return "missing";
}

namespace {

struct Spread
{
  double low = 0;
  double high = 0;
  double noise = 0;
};

Spread spread(const Stats& stats)
{
  if (!stats.p25_ms || !stats.p75_ms || stats.median_ms <= 0) {
    return {stats.median_ms, stats.median_ms, 0};
  }
  return {*stats.p25_ms, *stats.p75_ms, (*stats.p75_ms - *stats.p25_ms) / stats.median_ms};
}

const Stats* timed(const Cell* cell)
{
  if (!cell || cell->status != CellStatus::ok || !cell->stats || cell->stats->median_ms <= 0) {
    return nullptr;
  }
  return &*cell->stats;
}

CellChange compare(const std::string& layer, int batch_size, const Cell* a, const Cell* b)
{
  CellChange change{layer, batch_size, std::nullopt, std::nullopt, std::nullopt, Change::missing};
  const Stats* sa = timed(a);
  const Stats* sb = timed(b);
  if (sa) {
    change.a_ms = sa->median_ms;
  }
  if (sb) {
    change.b_ms = sb->median_ms;
  }
  if (!sa || !sb) {
    return change;
  }
  const double ratio = sb->median_ms / sa->median_ms;
  change.ratio = ratio;
  const auto x = spread(*sa);
  const auto y = spread(*sb);
  const bool overlap = x.low <= y.high && y.low <= x.high;
  const bool beyond = !overlap && std::abs(ratio - 1) > std::max(x.noise, y.noise);
  change.change = !beyond ? Change::unchanged : ratio < 1 ? Change::faster : Change::slower;
  return change;
}

void count(DiffSummary& summary, Change change)
{
  switch (change) {
  case Change::faster:
    ++summary.faster;
    return;
  case Change::slower:
    ++summary.slower;
    return;
  case Change::unchanged:
    ++summary.unchanged;
    return;
  case Change::missing:
    ++summary.missing;
    return;
  }
}

} // namespace

DiffResult diff(const Dataset& a, const Dataset& b)
{
  DiffResult result;
  for (const auto& cell : a.results) {
    result.cells.push_back(compare(cell.layer, cell.batch_size, &cell, find_cell(b, cell.layer, cell.batch_size)));
  }
  for (const auto& cell : b.results) {
    if (!find_cell(a, cell.layer, cell.batch_size)) {
      result.cells.push_back(compare(cell.layer, cell.batch_size, nullptr, &cell));
    }
  }
  for (const auto& cell : result.cells) {
    count(result.summary, cell.change);
  }
  return result;
}

DiffFormat parse_diff_format(const std::string& text)
{
  if (text == "text") {
    return DiffFormat::text;
  }
  if (text == "markdown") {
    return DiffFormat::markdown;
  }
  if (text == "json") {
    return DiffFormat::json;
  }
  throw UsageError("--format: \"" + text + "\" is not one of text, markdown, json");
}

// ---------------------------------------------------------------------------------------------------
// Output

namespace {

std::string milliseconds(const std::optional<double>& value)
{
  return value ? util::format_significant(*value, 3) : std::string("-");
}

std::string ratio_text(const std::optional<double>& ratio)
{
  return ratio ? util::format_fixed(*ratio, 3) : std::string("-");
}

std::string summary_line(const DiffSummary& s)
{
  return "faster: " + std::to_string(s.faster) + ", slower: " + std::to_string(s.slower)
         + ", unchanged: " + std::to_string(s.unchanged) + ", missing: " + std::to_string(s.missing);
}

const char* k_rule = "beyond noise: the [p25, p75] intervals do not overlap and |B/A - 1| exceeds both runs' "
                     "(p75 - p25) / median; a run without quartiles counts as the point [median, median]";

std::string as_text(const DiffResult& result, const std::string& a_name, const std::string& b_name)
{
  std::ostringstream out;
  out << "A: " << a_name << "\nB: " << b_name << "\n\n";
  char row[160];
  std::snprintf(row, sizeof row, "%-20s %6s %10s %10s %8s  %s\n", "layer", "batch", "A ms", "B ms", "B/A", "change");
  out << row;
  for (const auto& cell : result.cells) {
    std::snprintf(row, sizeof row, "%-20s %6d %10s %10s %8s  %s\n", cell.layer.c_str(), cell.batch_size,
                  milliseconds(cell.a_ms).c_str(), milliseconds(cell.b_ms).c_str(), ratio_text(cell.ratio).c_str(),
                  to_string(cell.change).c_str());
    out << row;
  }
  out << "\n" << summary_line(result.summary) << "\n(" << k_rule << ")\n";
  return out.str();
}

std::string as_markdown(const DiffResult& result, const std::string& a_name, const std::string& b_name)
{
  std::ostringstream out;
  out << "A: `" << a_name << "`, B: `" << b_name << "`\n\n";
  out << "| Layer | Batch | A (ms) | B (ms) | B/A | Change |\n|---|---:|---:|---:|---:|---|\n";
  for (const auto& cell : result.cells) {
    out << "| " << cell.layer << " | " << cell.batch_size << " | " << milliseconds(cell.a_ms) << " | "
        << milliseconds(cell.b_ms) << " | " << ratio_text(cell.ratio) << " | " << to_string(cell.change) << " |\n";
  }
  out << "\n" << summary_line(result.summary) << "\n\n_" << k_rule << "._\n";
  return out.str();
}

std::string as_json(const DiffResult& result, const std::string& a_name, const std::string& b_name)
{
  using OrderedJson = nlohmann::ordered_json;
  auto optional = [](const std::optional<double>& value) { return value ? OrderedJson(*value) : OrderedJson(nullptr); };
  OrderedJson json{{"a", a_name}, {"b", b_name}, {"rule", k_rule}, {"cells", OrderedJson::array()}};
  for (const auto& cell : result.cells) {
    json["cells"].push_back({{"layer", cell.layer},
                             {"batch_size", cell.batch_size},
                             {"a_median_ms", optional(cell.a_ms)},
                             {"b_median_ms", optional(cell.b_ms)},
                             {"ratio", optional(cell.ratio)},
                             {"change", to_string(cell.change)}});
  }
  const auto& s = result.summary;
  json["summary"] = {{"faster", s.faster}, {"slower", s.slower}, {"unchanged", s.unchanged}, {"missing", s.missing}};
  return json.dump(2) + "\n";
}

} // namespace

std::string format_diff(const DiffResult& result, const std::string& a_name, const std::string& b_name, DiffFormat format)
{
  switch (format) {
  case DiffFormat::markdown:
    return as_markdown(result, a_name, b_name);
  case DiffFormat::json:
    return as_json(result, a_name, b_name);
  case DiffFormat::text:
    break;
  }
  return as_text(result, a_name, b_name);
}

} // namespace layerbench::dataset
