// SPDX-License-Identifier: MIT
#pragma once

// An erratum: a published figure found wrong after publication. A published file is never edited and
// a figure is never corrected by arithmetic on it, so an erratum withdraws the figure (every cell's
// value of one field, or one of the run's peaks) of one dataset version; the catalog records it beside
// the version's entry (catalog.json 1.2.0, datasets[].errata; a peak from 1.3.0), the file stays
// downloadable, and the site shows the erratum where the figure would be. A correction is a new version
// measured again: it carries no erratum.

#include "dataset/dataset.hpp"
#include "dataset/json_reader.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace layerbench::dataset {

// The kinds of figure an erratum can withdraw.
enum class WithdrawnField {
  peak_memory_bytes, // results[].peak_memory_bytes: one value per cell
  compute_peak       // environment.peaks.compute[] of one precision: the roof its cells are held to
};

inline constexpr const char* k_compute_peak_prefix = "environment.peaks.compute.";

struct Erratum
{
  WithdrawnField field = WithdrawnField::peak_memory_bytes;
  std::string reason;   // what is wrong with the figures, in one or two sentences
  std::string date;     // YYYY-MM-DD, when it was withdrawn
  std::string fixed_by; // the commit whose measurement no longer has the fault (7 to 40 hex digits)
  // compute_peak: the peak's precision ("fp32"). Last, so that the initialisers of a field without one
  // keep their meaning.
  std::string precision;
};

// The field as the catalog and the command spell it: "peak_memory_bytes", "environment.peaks.compute.fp32".
std::string field_name(const Erratum& erratum);
// Sets `erratum`'s field (and precision) from its spelling; throws Error naming `what` and the fields there are.
void parse_field_name(const std::string& text, const std::string& what, Erratum& erratum);

// An erratum's problem (a date that is not YYYY-MM-DD, a commit that is not hex, an empty reason),
// naming the field; empty when it has none.
std::string erratum_problem(const Erratum& erratum);
// Its problem against the version it stands beside: a peak the run did not measure. Empty when none.
std::string erratum_problem(const Erratum& erratum, const Dataset& dataset);

namespace detail {
// datasets[i].errata of the catalog: parsed, checked (erratum_problem, one erratum per field).
std::vector<Erratum> parse_errata(Reader& reader);
nlohmann::ordered_json errata_json(const std::vector<Erratum>& errata);
} // namespace detail

// Whether `errata` withdraw `field`.
bool withdraws(const std::vector<Erratum>& errata, WithdrawnField field);
// The erratum that withdraws the compute peak at `precision`, or null.
const Erratum* withdrawn_peak(const std::vector<Erratum>& errata, const std::string& precision);
// "the erratum of 2026-11-28 that withdraws environment.peaks.compute.fp32": how a message names it.
std::string erratum_text(const Erratum& erratum);

// The errata of the published version in `file`: its catalog entry's, where the file lies in a data folder
// whose catalog lists its id and version; none for a run's own file.
std::vector<Erratum> errata_of(const std::filesystem::path& file, const Dataset& dataset);

// Adds `erratum` to the catalog entry of `reference` ("id@N") in DATA/catalog.json, under the lock
// publish takes; the dataset file is not touched. Throws Error naming the reference when the catalog
// does not list it, already withdraws that field of it, or lacks the peak it names.
void record_erratum(const std::filesystem::path& data_dir, const std::string& reference, const Erratum& erratum);

} // namespace layerbench::dataset
