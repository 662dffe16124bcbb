// SPDX-License-Identifier: MIT
#pragma once

// data/catalog.json: the list of published dataset versions. A published file is never edited; the
// catalog pins each by its sha256, and a correction is a new version whose "replaces" names the old.
//
// Layout of a data folder:
//   DATA/catalog.json
//   DATA/datasets/<id>-v<version>.json

#include "dataset/dataset.hpp"
#include "dataset/erratum.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace layerbench::dataset {

// Same meaning of major/minor/patch as the dataset's SchemaVersion.
// 1.1.0 added datasets[].label; a 1.0.0 entry reads with default_label().
// 1.2.0 added datasets[].errata (erratum.hpp); an entry without it has none.
// 1.3.0: an erratum may withdraw a compute peak (environment.peaks.compute.PRECISION), one erratum per field.
inline constexpr SchemaVersion k_catalog_schema_version{1, 3, 0};
inline constexpr SchemaVersion k_oldest_catalog_schema_version{1, 0, 0};

struct CatalogEntry
{
  std::string id;
  int version = 0;
  std::string title;
  // The short name running text, captions, chart legends and compare headings use ("2-vCPU Xeon",
  // "A100 reference"); the title stays on the datasets page. Chosen at publish; not part of the
  // dataset file, so changing it edits no published bytes.
  std::string label;
  Kind kind = Kind::measured;
  std::string device;        // environment.device.name, or what a reference page names
  std::string torch_version; // likewise
  std::string created;
  int cells = 0; // results in the file, skipped ones included
  std::string sha256;
  std::string path; // relative to the data folder: "datasets/<id>-v<N>.json"
  std::string replaces; // "id@N" or empty
  // Figures of this version withdrawn after publication (erratum.hpp); a new version starts with none.
  std::vector<Erratum> errata;
};

struct Catalog
{
  SchemaVersion schema_version = k_catalog_schema_version;
  std::string featured; // "id@N": the dataset the site shows first; empty while there is none
  std::vector<CatalogEntry> datasets;
};

// "id@N", the way datasets name each other.
std::string reference(const std::string& id, int version);
struct Reference
{
  std::string id;
  int version = 0;
};
// Throws Error naming `what` (an option or a JSON pointer) when `text` is not "id@N".
Reference parse_reference(const std::string& text, const std::string& what);

bool valid_id(const std::string& id); // [a-z0-9]+ joined by single hyphens

std::string dataset_path(const std::string& id, int version); // "datasets/<id>-v<N>.json"

const CatalogEntry* find_entry(const Catalog& catalog, const std::string& id, int version);
int latest_version(const Catalog& catalog, const std::string& id); // 0 when none

// The label a dataset gets when publish is given none: the device's model name without vendor,
// trademark marks, "CPU"/"Processor", clock speed or bracketed text, in at most three words (the id
// when nothing is left), then ", N threads" for a CPU run that records its threads, or " reference"
// for a published reference. "NVIDIA H100 80GB HBM3" gives "H100 80GB HBM3"; "NVIDIA A100 (80GB)" as
// a reference gives "A100 reference"; "Intel(R) Xeon(R) Processor" with 2 threads gives "Xeon, 2 threads".
std::string default_label(const std::string& device, Kind kind, const std::string& id, int cpu_threads = 0);
std::string default_label(const Dataset& dataset);

inline constexpr size_t k_max_label_size = 40;
// A label is one short line: 1 to k_max_label_size characters, no control characters, no space at either end. Empty when `label` is one,
// else the reason it is not.
std::string label_problem(const std::string& label);

// The entry that describes `dataset`, whose serialised bytes have digest `sha256`, labelled `label`
// (empty: default_label(dataset)).
CatalogEntry describe(const Dataset& dataset, const std::string& sha256, const std::string& label = "");

// What in `entry` does not describe `dataset` (title, kind, device, cells...), the label aside; empty
// when it does.
std::vector<std::string> entry_mismatches(const CatalogEntry& entry, const Dataset& dataset);

Catalog parse_catalog(const std::string& text, const std::string& origin);
Catalog load_catalog(const std::filesystem::path& path);
std::string serialize(const Catalog& catalog);

struct PublishOptions
{
  std::filesystem::path data_dir = "data";
  std::string id;       // empty: the run's own id
  std::string title;    // empty: the run's own title
  std::string label;    // empty: default_label(run)
  std::string replaces; // "id@N"; empty: the id's latest version, if there is one
  std::vector<Creator> creators; // empty: the run's own
  enum class Feature { keep, make_featured } feature = Feature::keep;
  // Why the run is published although publish_refusals() names something (--force REASON); recorded
  // with what it overrode in provenance.forced and shown on the dataset's page. Empty: not forced.
  std::string forced;
};

// Validates `run`, gives it the next version of its id, writes DATA/datasets/<id>-v<N>.json (never
// over an existing file) and then the catalog, each atomically. Returns the new catalog entry.
CatalogEntry publish(Dataset run, const PublishOptions& options);

// What publish refuses unless forced: a measured run from a tree with uncommitted changes or from no
// checkout (provenance.git_commit "-dirty" or "unknown"), one on which the busy-machine check fired
// (environment.other_cores_busy), one of fewer than k_publish_rounds rounds. Empty for a run that may
// be published as it is, and for a published reference (we did not run it).
std::vector<std::string> publish_refusals(const Dataset& run);

// What a reader of the published dataset should know before trusting it: one shard only, skipped
// cells, cells that missed their noise target, a smaller matrix than the featured dataset's
// (`featured`, when the data folder has one). Empty when there is nothing to say.
std::vector<std::string> publish_warnings(const Dataset& run, const Dataset* featured);

} // namespace layerbench::dataset
