// SPDX-License-Identifier: MIT
#include "site/memory_figure.hpp"

#include "site/view_common.hpp"
#include "site/view_model.hpp"
#include "util/format.hpp"

#include <algorithm>

namespace layerbench::site {

namespace {

std::string field_words(const dataset::Erratum& erratum)
{
  switch (erratum.field) {
    case dataset::WithdrawnField::peak_memory_bytes: return "peak memory";
    case dataset::WithdrawnField::compute_peak: return erratum.precision + " compute peak";
  }
  return "peak memory";
}

// What no page does with the withdrawn figures, for the erratum's own paragraph.
std::string consequence(const dataset::Erratum& erratum)
{
  switch (erratum.field) {
    case dataset::WithdrawnField::peak_memory_bytes: return "no page of this site shows its peak memory figures";
    case dataset::WithdrawnField::compute_peak:
      return "no page of this site shows its " + erratum.precision + " compute peak, draws that roof, or gives a cell's "
             "share of it; its cells' times stand";
  }
  return "";
}

} // namespace

std::string erratum_anchor(const SiteDataset& entry, const dataset::Erratum& erratum)
{
  std::string field = dataset::field_name(erratum);
  std::replace(field.begin(), field.end(), '.', '-');
  return "erratum-" + entry.slug + "-" + field;
}

std::string erratum_href(const SiteDataset& entry, const dataset::Erratum& erratum, const std::string& root)
{
  return root + dataset_path(entry) + "#" + erratum_anchor(entry, erratum);
}

void set_memory(Data& row, const SiteDataset& entry, const dataset::Cell* cell, const std::string& root, const std::string& suffix)
{
  for (const auto& erratum : entry.errata) {
    if (erratum.field == dataset::WithdrawnField::peak_memory_bytes) {
      row.set("memory", std::string(k_withdrawn_text));
      row.set("memory_erratum", erratum_href(entry, erratum, root));
      return;
    }
  }
  row.set("memory", cell && cell->peak_memory_bytes ? util::format_bytes(static_cast<double>(*cell->peak_memory_bytes)) + suffix
                                                    : std::string(k_missing));
  row.set("memory_erratum", Data(false));
}

Data errata_view(const SiteDataset& entry)
{
  Data items = list();
  for (const auto& erratum : entry.errata) {
    Data item = object();
    item.set("anchor", erratum_anchor(entry, erratum));
    item.set("field", field_words(erratum));
    item.set("consequence", consequence(erratum));
    item.set("date", erratum.date);
    item.set("reason", erratum.reason);
    item.set("fixed_by", erratum.fixed_by);
    items.push_back(item);
  }
  return items;
}

} // namespace layerbench::site
