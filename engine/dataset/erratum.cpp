// SPDX-License-Identifier: MIT
#include "dataset/erratum.hpp"

#include "dataset/catalog.hpp"
#include "dataset/data_folder.hpp"
#include "util/error.hpp"
#include "util/file.hpp"

#include <set>

namespace layerbench::dataset {

std::string field_name(const Erratum& erratum)
{
  switch (erratum.field) {
    case WithdrawnField::peak_memory_bytes: return "peak_memory_bytes";
    case WithdrawnField::compute_peak: return k_compute_peak_prefix + erratum.precision;
  }
  return "peak_memory_bytes";
}

void parse_field_name(const std::string& text, const std::string& what, Erratum& erratum)
{
  const std::string prefix = k_compute_peak_prefix;
  if (text == "peak_memory_bytes") {
    erratum.field = WithdrawnField::peak_memory_bytes;
    erratum.precision.clear();
    return;
  }
  // A precision is spelled as the peaks spell it: "fp32", "bf16".
  if (text.size() > prefix.size() && text.compare(0, prefix.size(), prefix) == 0
      && text.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789", prefix.size()) == std::string::npos) {
    erratum.field = WithdrawnField::compute_peak;
    erratum.precision = text.substr(prefix.size());
    return;
  }
  throw Error(what + ": \"" + text + "\" is not a field an erratum can withdraw (there is: peak_memory_bytes, " + prefix
              + "PRECISION)");
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

std::string erratum_problem(const Erratum& erratum, const Dataset& dataset)
{
  if (erratum.field != WithdrawnField::compute_peak) {
    return "";
  }
  const auto& environment = dataset.environment;
  if (environment && environment->peaks && find_compute_peak(*environment->peaks, erratum.precision)) {
    return "";
  }
  std::string measured;
  if (environment && environment->peaks) {
    for (const auto& peak : environment->peaks->compute) {
      measured += (measured.empty() ? "" : ", ") + peak.name;
    }
  }
  return "field: " + field_name(erratum) + " names a peak " + reference(dataset.id, dataset.version) + " did not measure ("
         + (measured.empty() ? std::string("it has no compute peaks") : "its compute peaks: " + measured) + ")";
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
  std::set<std::string> fields;
  for (size_t i = 0; i < items.size(); ++i) {
    const auto pointer = reader.at("errata") + "/" + std::to_string(i);
    Reader item(items[i], pointer, reader.origin());
    Erratum erratum;
    parse_field_name(item.text("field"), reader.origin() + ": " + item.at("field"), erratum);
    erratum.reason = item.text("reason");
    erratum.date = item.text("date");
    erratum.fixed_by = item.text("fixed_by");
    item.done();
    const auto problem = erratum_problem(erratum);
    if (!problem.empty()) {
      item.fail(pointer, problem);
    }
    if (!fields.insert(field_name(erratum)).second) {
      item.fail(pointer, field_name(erratum) + " is withdrawn twice");
    }
    errata.push_back(erratum);
  }
  return errata;
}

nlohmann::ordered_json errata_json(const std::vector<Erratum>& errata)
{
  auto json = nlohmann::ordered_json::array();
  for (const auto& erratum : errata) {
    json.push_back({{"field", field_name(erratum)},
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

const Erratum* withdrawn_peak(const std::vector<Erratum>& errata, const std::string& precision)
{
  for (const auto& erratum : errata) {
    if (erratum.field == WithdrawnField::compute_peak && erratum.precision == precision) {
      return &erratum;
    }
  }
  return nullptr;
}

std::string erratum_text(const Erratum& erratum)
{
  return "the erratum of " + erratum.date + " that withdraws " + field_name(erratum);
}

std::vector<Erratum> errata_of(const std::filesystem::path& file, const Dataset& dataset)
{
  const auto folder = DataFolder::folder_of(file);
  if (!folder || dataset.version < 1) {
    return {};
  }
  const auto catalog = load_catalog(DataFolder::catalog_file(*folder));
  const auto* entry = find_entry(catalog, dataset.id, dataset.version);
  return entry ? entry->errata : std::vector<Erratum>{};
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
  const auto folder = DataFolder::load(data_dir);
  Catalog catalog = folder.catalog();
  CatalogEntry* entry = nullptr;
  for (auto& candidate : catalog.datasets) {
    if (candidate.id == named.id && candidate.version == named.version) {
      entry = &candidate;
    }
  }
  if (!entry) {
    throw Error(reference_text + " is not in " + catalog_path.string());
  }
  for (const auto& standing : entry->errata) {
    if (field_name(standing) == field_name(erratum)) {
      throw Error(reference_text + ": its " + field_name(erratum) + " is already withdrawn by an erratum");
    }
  }
  const auto* published = folder.find(named.id, named.version);
  const auto against_file = published ? erratum_problem(erratum, published->data) : std::string();
  if (!against_file.empty()) {
    throw Error("erratum for " + reference_text + ": " + against_file);
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
