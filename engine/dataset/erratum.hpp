// SPDX-License-Identifier: MIT
#pragma once

// An erratum: a published figure found wrong after publication. A published file is never edited and
// a figure is never corrected by arithmetic on it, so an erratum withdraws the figure (every cell's
// value of one field) of one dataset version; the catalog records it beside the version's entry
// (catalog.json 1.2.0, datasets[].errata), the file stays downloadable, and the site shows the erratum
// where the figure would be. A correction is a new version measured again: it carries no erratum.

#include "dataset/json_reader.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace layerbench::dataset {

// The fields an erratum can withdraw; one value per field of every cell.
enum class WithdrawnField {
  peak_memory_bytes // results[].peak_memory_bytes
};

std::string to_string(WithdrawnField field);
// Throws Error naming `what` and the fields there are.
WithdrawnField parse_withdrawn_field(const std::string& text, const std::string& what);

struct Erratum
{
  WithdrawnField field = WithdrawnField::peak_memory_bytes;
  std::string reason;   // what is wrong with the figures, in one or two sentences
  std::string date;     // YYYY-MM-DD, when it was withdrawn
  std::string fixed_by; // the commit whose measurement no longer has the fault (7 to 40 hex digits)
};

// An erratum's problem (a date that is not YYYY-MM-DD, a commit that is not hex, an empty reason),
// naming the field; empty when it has none.
std::string erratum_problem(const Erratum& erratum);

namespace detail {
// datasets[i].errata of the catalog: parsed, checked (erratum_problem, one erratum per field).
std::vector<Erratum> parse_errata(Reader& reader);
nlohmann::ordered_json errata_json(const std::vector<Erratum>& errata);
} // namespace detail

// Whether `errata` withdraw `field`.
bool withdraws(const std::vector<Erratum>& errata, WithdrawnField field);

// Adds `erratum` to the catalog entry of `reference` ("id@N") in DATA/catalog.json, under the lock
// publish takes; the dataset file is not touched. Throws Error naming the reference when the catalog
// does not list it, or already withdraws that field of it.
void record_erratum(const std::filesystem::path& data_dir, const std::string& reference, const Erratum& erratum);

} // namespace layerbench::dataset
