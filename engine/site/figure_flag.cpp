// SPDX-License-Identifier: MIT
#include "site/figure_flag.hpp"

#include "site/view_common.hpp"
#include "util/format.hpp"

#include <cmath>

namespace layerbench::site {

namespace {

using dataset::InconsistencyKind;

std::string count_text(double value) { return util::format_thousands(static_cast<int64_t>(value)); }

// "2, 2 against 1": the pairs of a flops_per_mac_differs item as one list of values.
std::string values_text(const std::vector<std::pair<std::string, double>>& values)
{
  std::string text;
  for (const auto& [name, value] : values) {
    text += (text.empty() ? "" : ", ") + trimmed_significant(value, 3) + " (" + name + ")";
  }
  return text;
}

// A figure of a claim or a table: its number, else its text.
std::string figure_words(const dataset::Figure& figure)
{
  if (figure.number) {
    return *figure.number == std::floor(*figure.number) ? count_text(*figure.number) : trimmed_significant(*figure.number, 3);
  }
  if (!figure.text.empty()) {
    return figure.text;
  }
  std::string text;
  for (const auto& [key, value] : figure.by_key) {
    text += (text.empty() ? "" : ", ") + value + " (" + key + ")";
  }
  return text;
}

bool is_about(const dataset::Inconsistency& item, FlaggedFigure figure, int batch)
{
  switch (item.kind) {
  case InconsistencyKind::params_differ_from_pytorch:
  case InconsistencyKind::params_differ_from_page_formula:
    return figure == FlaggedFigure::params;
  case InconsistencyKind::flops_differ_from_page_formula:
  case InconsistencyKind::flops_per_mac_differs:
    return figure == FlaggedFigure::flops;
  case InconsistencyKind::implied_rate_above_peak:
  case InconsistencyKind::implied_bandwidth_above_peak:
    return figure == FlaggedFigure::time && item.batch_size == batch;
  case InconsistencyKind::memory_below_input:
    return figure == FlaggedFigure::memory && item.batch_size == batch;
  case InconsistencyKind::claim_differs_from_table:
    return false;
  }
  return false;
}

// Two reasons about one figure start alike ("The page gives 2,365,440 parameters; ..."): the second
// adds only what differs, so that the mark keeps one line.
std::string joined_reason(const std::string& first, const std::string& second)
{
  if (first.empty()) {
    return second;
  }
  const size_t head = second.find("; ");
  const bool same_head = head != std::string::npos && first.compare(0, head + 2, second, 0, head + 2) == 0 && first.back() == '.';
  return same_head ? first.substr(0, first.size() - 1) + ", and " + second.substr(head + 2) : first + " " + second;
}

} // namespace

std::string issue_reason(const dataset::Inconsistency& item)
{
  const std::string at_batch = " at batch size " + std::to_string(item.batch_size);
  switch (item.kind) {
  case InconsistencyKind::params_differ_from_pytorch:
    return "The page gives " + count_text(item.page) + " parameters; the module PyTorch builds has " + count_text(static_cast<double>(item.pytorch)) + ".";
  case InconsistencyKind::params_differ_from_page_formula:
    return "The page gives " + count_text(item.page) + " parameters; its own formula gives " + count_text(item.formula_value) + ".";
  case InconsistencyKind::flops_differ_from_page_formula:
    return "The page gives " + util::format_si(item.page) + " FLOPs per sample; its own formula gives " + util::format_si(item.formula_value) + ".";
  case InconsistencyKind::flops_per_mac_differs:
    return "This FLOP formula counts a multiply-accumulate as " + values_text(item.flops_per_mac) + " FLOPs; the page's other formulas count "
           + values_text(item.elsewhere) + ".";
  case InconsistencyKind::implied_rate_above_peak:
    return ms_text(item.page_ms) + " ms" + at_batch + " implies " + util::format_rate(item.implied_flop_per_s, "FLOP/s")
           + ", above the device's peak of " + util::format_rate(item.peak_flop_per_s, "FLOP/s") + ".";
  case InconsistencyKind::implied_bandwidth_above_peak:
    return ms_text(item.page_ms) + " ms" + at_batch + " implies " + util::format_rate(item.implied_bytes_per_s, "B/s")
           + " from memory for the share of its working set that the cache cannot keep, above the device's "
           + util::format_rate(item.peak_bytes_per_s, "B/s") + ".";
  case InconsistencyKind::memory_below_input:
    return "The page's memory" + at_batch + ", " + util::format_bytes(static_cast<double>(item.page_memory_bytes))
           + ", is below the size of the layer's own input, " + util::format_bytes(static_cast<double>(item.input_bytes)) + ".";
  case InconsistencyKind::claim_differs_from_table:
    return "The page says \u201c" + item.claim + "\u201d; its own table gives " + figure_words(item.table) + ".";
  }
  return "";
}

Data figure_flag(const SiteData& site, const dataset::Dataset& data, const std::string& layer, FlaggedFigure figure, int batch,
                 const std::string& root)
{
  if (data.kind != dataset::Kind::published_reference) {
    return Data(false);
  }
  std::string reason;
  std::string anchor;
  for (const auto& file : site.inconsistencies) {
    for (const auto& issue : file.items) {
      if (issue.dataset_id != data.id || issue.layer != layer || !is_about(issue.source, figure, batch)) {
        continue;
      }
      reason = joined_reason(reason, issue_reason(issue.source));
      anchor = anchor.empty() ? issue.anchor : anchor;
    }
  }
  if (reason.empty()) {
    return Data(false);
  }
  Data flag = object();
  flag.set("reason", reason);
  flag.set("href", root + k_inconsistencies_page + "#" + anchor);
  return flag;
}

Data flagged_time_cell(const SiteData& site, const dataset::Dataset& data, const std::string& layer, int batch, const std::string& root)
{
  Data cell = time_cell(data, dataset::find_cell(data, layer, batch));
  cell.set("flag", figure_flag(site, data, layer, FlaggedFigure::time, batch, root));
  return cell;
}

PageSpec inconsistencies_page(const SiteData& site, Data base)
{
  Data blocks = reference_issue_blocks(site, "");
  base.set("has_blocks", Data(!blocks.is_empty_list()));
  base.set("blocks", blocks);
  return {"inconsistencies", k_inconsistencies_page, std::move(base), ""};
}

} // namespace layerbench::site
