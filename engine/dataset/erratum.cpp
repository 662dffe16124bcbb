// SPDX-License-Identifier: MIT
#include "dataset/erratum.hpp"

#include "dataset/catalog.hpp"
#include "dataset/data_folder.hpp"
#include "util/error.hpp"
#include "util/file.hpp"

#include <set>

namespace layerbench::dataset {

std::string to_string(WithdrawnField field)
{
  switch (field) {
    case WithdrawnField::peak_memory_bytes: return "peak_memory_bytes";
  }
  return "peak_memory_bytes";
}

WithdrawnField parse_withdrawn_field(const std::string& text, const std::string& what)
{
  if (text == "peak_memory_bytes") {
    return WithdrawnField::peak_memory_bytes;
  }
  throw Error(what + ": \"" + text + "\" is not a field an erratum can withdraw (there is: peak_memory_bytes)");
}

namespace {

bool all_of(const std::string& text, const char* characters)
{
  return text.find_first_not_of(characters) == std::string::npos;
}

bool is_date(const std::string& text) // YYYY-MM-DD
{
  return text.size() == 10 && text[4] == '-' && text[7] == '-' && all_of(text.substr(0, 4) + text.substr(5, 2) + text.substr(8, 2), "0123456789")
         && text.substr(5, 2) >= "01" && text.substr(5, 2) <= "12" && text.substr(8, 2) >= "01" && text.substr(8, 2) <= "31";
}

} // namespace

std::string erratum_problem(const Erratum& erratum)
{
  if (erratum.reason.empty()) {
    return "reason: an erratum says what is wrong with the figures it withdraws";
  }
  if (!is_date(erratum.date)) {
    return "date: \"" + erratum.date + "\" is not YYYY-MM-DD";
  }
  if (erratum.fixed_by.size() < 7 || erratum.fixed_by.size() > 40 || !all_of(erratum.fixed_by, "0123456789abcdef")) {
    return "fixed_by: \"" + erratum.fixed_by + "\" is not a commit (7 to 40 lowercase hex digits)";
  }
  return "";
}

namespace detail {

std::vector<Erratum> parse_errata(Reader& reader)
{
  std::vector<Erratum> errata;
  if (!reader.has("errata")) {
    reader.allow_null("errata");
    return errata;
  }
  const auto& items = reader.array("errata");
  std::set<WithdrawnField> fields;
  for (size_t i = 0; i < items.size(); ++i) {
    const auto pointer = reader.at("errata") + "/" + std::to_string(i);
    Reader item(items[i], pointer, reader.origin());
    Erratum erratum;
    erratum.field = parse_withdrawn_field(item.text("field"), reader.origin() + ": " + item.at("field"));
    erratum.reason = item.text("reason");
    erratum.date = item.text("date");
    erratum.fixed_by = item.text("fixed_by");
    item.done();
    const auto problem = erratum_problem(erratum);
    if (!problem.empty()) {
      item.fail(pointer, problem);
    }
    if (!fields.insert(erratum.field).second) {
      item.fail(pointer, to_string(erratum.field) + " is withdrawn twice");
    }
    errata.push_back(erratum);
  }
  return errata;
}

nlohmann::ordered_json errata_json(const std::vector<Erratum>& errata)
{
  auto json = nlohmann::ordered_json::array();
  for (const auto& erratum : errata) {
    json.push_back({{"field", to_string(erratum.field)},
                    {"reason", erratum.reason},
                    {"date", erratum.date},
                    {"fixed_by", erratum.fixed_by}});
  }
  return json;
}

} // namespace detail

bool withdraws(const std::vector<Erratum>& errata, WithdrawnField field)
{
  for (const auto& erratum : errata) {
    if (erratum.field == field) {
      return true;
    }
  }
  return false;
}

void record_erratum(const std::filesystem::path& data_dir, const std::string& reference_text, const Erratum& erratum)
{
  const auto problem = erratum_problem(erratum);
  if (!problem.empty()) {
    throw Error("erratum for " + reference_text + ": " + problem);
  }
  const auto named = parse_reference(reference_text, "erratum");
  const auto catalog_path = DataFolder::catalog_file(data_dir);
  const auto lock_path = DataFolder::catalog_lock_file(data_dir);
  const auto lock = util::FileLock::acquire(lock_path);
  if (!lock) {
    throw Error(lock_path.string() + ": " + lock.error());
  }
  // The folder as it stands is read, and its files verified, as publish does before it writes.
  Catalog catalog = DataFolder::load(data_dir).catalog();
  CatalogEntry* entry = nullptr;
  for (auto& candidate : catalog.datasets) {
    if (candidate.id == named.id && candidate.version == named.version) {
      entry = &candidate;
    }
  }
  if (!entry) {
    throw Error(reference_text + " is not in " + catalog_path.string());
  }
  if (withdraws(entry->errata, erratum.field)) {
    throw Error(reference_text + ": its " + to_string(erratum.field) + " is already withdrawn by an erratum");
  }
  entry->errata.push_back(erratum);
  const auto text = serialize(catalog);
  parse_catalog(text, catalog_path.string());
  const auto written = util::write_file_atomic(catalog_path, text, util::Overwrite::yes);
  if (!written) {
    throw Error(catalog_path.string() + ": " + written.error());
  }
}

} // namespace layerbench::dataset
