// SPDX-License-Identifier: MIT
#include "dataset/diff.hpp"

#include "dataset/precision.hpp"
#include "util/error.hpp"
#include "util/format.hpp"
#include "util/text.hpp"

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

MedianInterval median_interval(const Cell& cell, const Stats& stats)
{
  if (cell.round_spread) {
    return {cell.round_spread->ci95_low_ms, cell.round_spread->ci95_high_ms, 0};
  }
  if (!stats.p25_ms || !stats.p75_ms || stats.median_ms <= 0) {
    return {stats.median_ms, stats.median_ms, 0};
  }
  return {*stats.p25_ms, *stats.p75_ms, (*stats.p75_ms - *stats.p25_ms) / stats.median_ms};
}

namespace {

const Stats* timed(const Cell* cell)
{
  if (!cell || cell->status != CellStatus::ok || !cell->stats || cell->stats->median_ms <= 0) {
    return nullptr;
  }
  return &*cell->stats;
}

CellChange compare(const Cell& key, const Cell* a, const Cell* b, double threshold, const Dataset& da, const Dataset& db)
{
  CellChange change;
  change.layer = key.layer;
  change.batch_size = key.batch_size;
  change.axes = key.axes;
  const Stats* sa = timed(a);
  const Stats* sb = timed(b);
  change.a_page_faults = a ? a->page_faults_per_iteration : std::nullopt;
  change.b_page_faults = b ? b->page_faults_per_iteration : std::nullopt;
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
  change.figures = std::min(supported_figures(da, *a), supported_figures(db, *b));
  const auto x = median_interval(*a, *sa);
  const auto y = median_interval(*b, *sb);
  change.ratio_low = y.low / x.high;
  change.ratio_high = y.high / x.low;
  change.rounds = a->round_spread && b->round_spread;
  const bool overlap = x.low <= y.high && y.low <= x.high;
  const bool beyond = !overlap && std::abs(ratio - 1) >= threshold && std::abs(ratio - 1) > std::max(x.noise, y.noise);
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

const char* k_not_recorded = "not recorded";

std::string or_not_recorded(const std::string& text) { return text.empty() ? k_not_recorded : text; }

// The settings compared, each as text; a file that predates a field reads "not recorded".
std::vector<std::pair<std::string, std::string>> settings_of(const Dataset& d)
{
  std::vector<std::pair<std::string, std::string>> settings;
  if (d.methodology) {
    const auto& m = *d.methodology;
    settings.emplace_back("CPU memory policy", or_not_recorded(m.cpu_memory_policy));
    settings.emplace_back("precision", or_not_recorded(m.precision));
    settings.emplace_back("timer", or_not_recorded(m.timer));
    settings.emplace_back("noise target", util::format_significant(m.noise_target, 3));
    settings.emplace_back("inference mode", m.inference_mode ? "on" : "off");
  }
  if (d.environment) {
    const auto& e = *d.environment;
    settings.emplace_back("device", e.device.type + " " + e.device.name);
    settings.emplace_back("CPU type", e.cpu ? to_string(*e.cpu) : k_not_recorded);
    if (e.device.type == "cuda") {
      settings.emplace_back("NVIDIA driver", e.device.kernel_driver.value_or(k_not_recorded));
    }
    settings.emplace_back("threads", std::to_string(e.threads));
    settings.emplace_back("torch", or_not_recorded(e.torch_version));
    settings.emplace_back("GLIBC_TUNABLES", e.glibc_tunables ? (e.glibc_tunables->empty() ? "unset" : *e.glibc_tunables)
                                                               : k_not_recorded);
  }
  return settings;
}

std::vector<SettingChange> compare_settings(const Dataset& a, const Dataset& b)
{
  std::vector<SettingChange> changes;
  const auto in_b = settings_of(b);
  // Not a structured binding: C++17 lets no lambda capture one (GCC allows it, clang refuses).
  for (const auto& setting : settings_of(a)) {
    const auto other =
      std::find_if(in_b.begin(), in_b.end(), [&](const auto& s) { return s.first == setting.first; });
    if (other != in_b.end() && other->second != setting.second) {
      changes.push_back({setting.first, setting.second, other->second});
    }
  }
  return changes;
}

} // namespace

DiffResult diff(const Dataset& a, const Dataset& b, double threshold)
{
  DiffResult result;
  result.threshold = threshold;
  result.settings = compare_settings(a, b);
  for (const auto& cell : a.results) {
    result.cells.push_back(compare(cell, &cell, find_cell(b, cell.layer, cell.batch_size, cell.axes), threshold, a, b));
  }
  for (const auto& cell : b.results) {
    if (!find_cell(a, cell.layer, cell.batch_size, cell.axes)) {
      result.cells.push_back(compare(cell, nullptr, &cell, threshold, a, b));
    }
  }
  for (const auto& cell : result.cells) {
    count(result.summary, cell.change);
  }
  return result;
}

std::optional<DiffFormat> parse_diff_format(const std::string& text)
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
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------------
// Output

namespace {

// A median at the figures the two cells support together.
std::string milliseconds(const std::optional<double>& value, int figures)
{
  return value ? util::format_significant(*value, figures) : std::string("-");
}

// B/A at the medians' figures, and the range its intervals allow: "1.3 (1.2-1.4)".
std::string ratio_text(const CellChange& cell)
{
  if (!cell.ratio) {
    return "-";
  }
  const auto text = util::format_significant(*cell.ratio, cell.figures);
  if (!cell.ratio_low || !cell.ratio_high || *cell.ratio_low == *cell.ratio_high) {
    return text;
  }
  return text + " (" + util::format_significant(*cell.ratio_low, cell.figures) + "-"
         + util::format_significant(*cell.ratio_high, cell.figures) + ")";
}

std::string summary_line(const DiffSummary& s)
{
  return "faster: " + std::to_string(s.faster) + ", slower: " + std::to_string(s.slower)
         + ", unchanged: " + std::to_string(s.unchanged) + ", missing: " + std::to_string(s.missing);
}

std::string rule_text(const DiffResult& result)
{
  return "called only when |B/A - 1| is at least " + util::format_significant(result.threshold * 100, 3)
         + "% and the medians' intervals do not overlap: bootstrap 95% intervals where both runs measured rounds, "
           "else [p25, p75] with |B/A - 1| also above both runs' (p75 - p25) / median (a run without quartiles "
           "counts as the point [median, median]); B/A's range in brackets is what the intervals allow; medians "
           "carry the significant figures their spread supports (2 for one round)";
}

// The layer, and the corner where it is not the reference: "Conv2d (bf16 channels_last)".
std::string cell_name(const CellChange& cell)
{
  const auto layer = util::printable(cell.layer);
  return cell.axes.is_reference() ? layer : layer + " (" + label(cell.axes) + ")";
}

bool has_page_faults(const DiffResult& result)
{
  return std::any_of(result.cells.begin(), result.cells.end(),
                     [](const CellChange& c) { return c.a_page_faults || c.b_page_faults; });
}

std::string faults(const std::optional<double>& value)
{
  return value ? util::format_significant(*value, 3) : std::string("-");
}

std::string as_text(const DiffResult& result, const std::string& a_name, const std::string& b_name)
{
  std::ostringstream out;
  // The files' names and settings are data: escaped, so that they cannot drive the terminal.
  out << "A: " << util::printable(a_name) << "\nB: " << util::printable(b_name) << "\n\n";
  if (!result.settings.empty()) {
    out << "settings that differ:\n";
    for (const auto& setting : result.settings) {
      out << "  " << setting.name << "\n    A: " << util::printable(setting.a) << "\n    B: " << util::printable(setting.b)
          << "\n";
    }
    out << "\n";
  }
  const bool with_faults = has_page_faults(result);
  char row[200];
  int width = 20;
  for (const auto& cell : result.cells) {
    width = std::max(width, static_cast<int>(cell_name(cell).size()));
  }
  std::snprintf(row, sizeof row, "%-*s %6s %10s %10s %18s  %-10s%s\n", width, "layer", "batch", "A ms", "B ms", "B/A",
                "change", with_faults ? " page faults/iteration A -> B" : "");
  out << row;
  for (const auto& cell : result.cells) {
    const std::string fault_text
        = with_faults ? " " + faults(cell.a_page_faults) + " -> " + faults(cell.b_page_faults) : "";
    std::snprintf(row, sizeof row, "%-*s %6d %10s %10s %18s  %-10s%s\n", width, cell_name(cell).c_str(), cell.batch_size,
                  milliseconds(cell.a_ms, cell.figures).c_str(), milliseconds(cell.b_ms, cell.figures).c_str(),
                  ratio_text(cell).c_str(),
                  to_string(cell.change).c_str(), fault_text.c_str());
    out << row;
  }
  out << "\n" << summary_line(result.summary) << "\n(" << rule_text(result) << ")\n";
  return out.str();
}

std::string as_markdown(const DiffResult& result, const std::string& a_name, const std::string& b_name)
{
  std::ostringstream out;
  out << "A: `" << util::printable(a_name) << "`, B: `" << util::printable(b_name) << "`\n\n";
  if (!result.settings.empty()) {
    out << "| Setting that differs | A | B |\n|---|---|---|\n";
    for (const auto& setting : result.settings) {
      out << "| " << setting.name << " | " << util::printable(setting.a) << " | " << util::printable(setting.b) << " |\n";
    }
    out << "\n";
  }
  const bool with_faults = has_page_faults(result);
  out << "| Layer | Batch | A (ms) | B (ms) | B/A | Change |" << (with_faults ? " Page faults/iteration A | B |" : "")
      << "\n|---|---:|---:|---:|---:|---|" << (with_faults ? "---:|---:|" : "") << "\n";
  for (const auto& cell : result.cells) {
    out << "| " << cell_name(cell) << " | " << cell.batch_size << " | " << milliseconds(cell.a_ms, cell.figures) << " | "
        << milliseconds(cell.b_ms, cell.figures) << " | " << ratio_text(cell) << " | " << to_string(cell.change) << " |";
    if (with_faults) {
      out << " " << faults(cell.a_page_faults) << " | " << faults(cell.b_page_faults) << " |";
    }
    out << "\n";
  }
  out << "\n" << summary_line(result.summary) << "\n\n_" << rule_text(result) << "._\n";
  return out.str();
}

std::string as_json(const DiffResult& result, const std::string& a_name, const std::string& b_name)
{
  using OrderedJson = nlohmann::ordered_json;
  auto optional = [](const std::optional<double>& value) { return value ? OrderedJson(*value) : OrderedJson(nullptr); };
  OrderedJson json{{"a", a_name}, {"b", b_name}, {"rule", rule_text(result)}, {"threshold", result.threshold},
                   {"settings", OrderedJson::array()},
                   {"cells", OrderedJson::array()}};
  for (const auto& setting : result.settings) {
    json["settings"].push_back({{"name", setting.name}, {"a", setting.a}, {"b", setting.b}});
  }
  for (const auto& cell : result.cells) {
    OrderedJson axes = OrderedJson::object();
    for (const auto& info : axis_table()) {
      axes[info.name] = axis_value(cell.axes, info.name);
    }
    json["cells"].push_back({{"layer", cell.layer},
                             {"batch_size", cell.batch_size},
                             {"axes", axes},
                             {"a_median_ms", optional(cell.a_ms)},
                             {"b_median_ms", optional(cell.b_ms)},
                             {"ratio", optional(cell.ratio)},
                             {"ratio_low", optional(cell.ratio_low)},
                             {"ratio_high", optional(cell.ratio_high)},
                             {"significant_figures", cell.figures},
                             {"change", to_string(cell.change)},
                             {"a_page_faults_per_iteration", optional(cell.a_page_faults)},
                             {"b_page_faults_per_iteration", optional(cell.b_page_faults)}});
  }
  const auto& s = result.summary;
  json["summary"] = {{"faster", s.faster}, {"slower", s.slower}, {"unchanged", s.unchanged}, {"missing", s.missing}};
  // ASCII only: DEL and the C1 controls, which JSON allows raw, are written as \u escapes too.
  return json.dump(2, ' ', true) + "\n";
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
