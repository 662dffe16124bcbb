// SPDX-License-Identifier: MIT
#include "site/memory_figure.hpp"

#include "site/view_common.hpp"
#include "site/view_model.hpp"
#include "util/format.hpp"

namespace layerbench::site {

namespace {

std::string field_words(dataset::WithdrawnField field)
{
  switch (field) {
    case dataset::WithdrawnField::peak_memory_bytes: return "peak memory";
  }
  return "peak memory";
}

} // namespace

std::string erratum_anchor(const SiteDataset& entry, dataset::WithdrawnField field)
{
  return "erratum-" + entry.slug + "-" + dataset::to_string(field);
}

void set_memory(Data& row, const SiteDataset& entry, const dataset::Cell* cell, const std::string& root, const std::string& suffix)
{
  constexpr auto field = dataset::WithdrawnField::peak_memory_bytes;
  if (dataset::withdraws(entry.errata, field)) {
    row.set("memory", std::string(k_withdrawn_text));
    row.set("memory_erratum", root + dataset_path(entry) + "#" + erratum_anchor(entry, field));
    return;
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
    item.set("anchor", erratum_anchor(entry, erratum.field));
    item.set("field", field_words(erratum.field));
    item.set("date", erratum.date);
    item.set("reason", erratum.reason);
    item.set("fixed_by", erratum.fixed_by);
    items.push_back(item);
  }
  return items;
}

} // namespace layerbench::site
