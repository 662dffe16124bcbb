// SPDX-License-Identifier: MIT
#pragma once

// data/catalog.json: the list of published dataset versions. A published file is never edited; the
// catalog pins each by its sha256, and a correction is a new version whose "replaces" names the old.
//
// Layout of a data folder:
//   DATA/catalog.json
//   DATA/datasets/<id>-v<version>.json

#include "dataset/dataset.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace layerbench::dataset {

// Same meaning of major/minor/patch as the dataset's SchemaVersion.
inline constexpr SchemaVersion k_catalog_schema_version{1, 0, 0};

struct CatalogEntry
{
  std::string id;
  int version = 0;
  std::string title;
  Kind kind = Kind::measured;
  std::string device;        // environment.device.name, or what a reference page names
  std::string torch_version; // likewise
  std::string created;
  int cells = 0; // results in the file, skipped ones included
  std::string sha256;
  std::string path; // relative to the data folder: "datasets/<id>-v<N>.json"
  std::string replaces; // "id@N" or empty
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

// The entry that describes `dataset`, whose serialised bytes have digest `sha256`.
CatalogEntry describe(const Dataset& dataset, const std::string& sha256);

Catalog parse_catalog(const std::string& text, const std::string& origin);
Catalog load_catalog(const std::filesystem::path& path);
std::string serialize(const Catalog& catalog);

struct PublishOptions
{
  std::filesystem::path data_dir = "data";
  std::string id;       // empty: the run's own id
  std::string title;    // empty: the run's own title
  std::string replaces; // "id@N"; empty: the id's latest version, if there is one
  std::vector<Creator> creators; // empty: the run's own
  enum class Feature { keep, make_featured } feature = Feature::keep;
};

// Validates `run`, gives it the next version of its id, writes DATA/datasets/<id>-v<N>.json (never
// over an existing file) and then the catalog, each atomically. Returns the new catalog entry.
// The lock file beside catalog.json that publish holds around its read-modify-write.
inline constexpr const char* k_catalog_lock = ".catalog.json.lock";

CatalogEntry publish(Dataset run, const PublishOptions& options);

// What a reader of the published dataset should know before trusting it: one shard only, skipped
// cells, cells that missed their noise target, a smaller matrix than the featured dataset's
// (`featured`, when the data folder has one). Empty when there is nothing to say.
std::vector<std::string> publish_warnings(const Dataset& run, const Dataset* featured);

} // namespace layerbench::dataset
