// SPDX-License-Identifier: MIT
#include "dataset/catalog.hpp"

#include "dataset/io.hpp"
#include "dataset/json_reader.hpp"
#include "dataset/json_text.hpp"
#include "dataset/validate.hpp"
#include "util/error.hpp"
#include "util/file.hpp"
#include "util/sha256.hpp"

#include <algorithm>

namespace layerbench::dataset {

using OrderedJson = nlohmann::ordered_json;

std::string reference(const std::string& id, int version) { return id + "@" + std::to_string(version); }

bool valid_id(const std::string& id)
{
  if (id.empty() || id.front() == '-' || id.back() == '-' || id.find("--") != std::string::npos) {
    return false;
  }
  return id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
}

Reference parse_reference(const std::string& text, const std::string& what)
{
  const auto at = text.rfind('@');
  const std::string digits = at == std::string::npos ? std::string() : text.substr(at + 1);
  const bool number = !digits.empty() && digits.size() <= 6 && digits.front() != '0'
                      && digits.find_first_not_of("0123456789") == std::string::npos;
  if (!number || !valid_id(text.substr(0, at))) {
    throw Error(what + ": \"" + text + "\" is not ID@VERSION (for example a100-reference@1)");
  }
  return Reference{text.substr(0, at), std::stoi(digits)};
}

std::string dataset_path(const std::string& id, int version)
{
  return "datasets/" + id + "-v" + std::to_string(version) + ".json";
}

const CatalogEntry* find_entry(const Catalog& catalog, const std::string& id, int version)
{
  for (const auto& entry : catalog.datasets) {
    if (entry.id == id && entry.version == version) {
      return &entry;
    }
  }
  return nullptr;
}

int latest_version(const Catalog& catalog, const std::string& id)
{
  int latest = 0;
  for (const auto& entry : catalog.datasets) {
    if (entry.id == id) {
      latest = std::max(latest, entry.version);
    }
  }
  return latest;
}

CatalogEntry describe(const Dataset& dataset, const std::string& sha256)
{
  CatalogEntry entry;
  entry.id = dataset.id;
  entry.version = dataset.version;
  entry.title = dataset.title;
  entry.kind = dataset.kind;
  if (dataset.environment) {
    entry.device = dataset.environment->device.name;
    entry.torch_version = dataset.environment->torch_version;
  } else if (dataset.provenance.source) {
    entry.device = dataset.provenance.source->device;
    entry.torch_version = dataset.provenance.source->torch_version;
  }
  entry.created = dataset.created;
  entry.cells = static_cast<int>(dataset.results.size());
  entry.sha256 = sha256;
  entry.path = dataset_path(dataset.id, dataset.version);
  entry.replaces = dataset.replaces;
  return entry;
}

// ---------------------------------------------------------------------------------------------------
// Reading and writing

namespace {

using detail::Reader;

CatalogEntry parse_entry(Reader reader)
{
  CatalogEntry entry;
  entry.id = reader.text("id");
  entry.version = reader.small_integer("version");
  entry.title = reader.text("title");
  entry.kind = detail::parse_enum<Kind>(
    reader, "kind", {{"measured", Kind::measured}, {"published-reference", Kind::published_reference}});
  entry.device = reader.text("device");
  entry.torch_version = reader.text("torch_version");
  entry.created = reader.text("created");
  entry.cells = reader.small_integer("cells");
  entry.sha256 = reader.text("sha256");
  entry.path = reader.text("path");
  entry.replaces = reader.optional_text("replaces");
  if (!valid_id(entry.id)) {
    reader.fail(reader.at("id"), "\"" + entry.id + "\" is not a dataset id ([a-z0-9] words joined by '-')");
  }
  if (entry.version < 1) {
    reader.fail(reader.at("version"), "a published version counts from 1");
  }
  if (entry.sha256.size() != 64 || entry.sha256.find_first_not_of("0123456789abcdef") != std::string::npos) {
    reader.fail(reader.at("sha256"), "expected 64 lowercase hex digits");
  }
  if (entry.path != dataset_path(entry.id, entry.version)) {
    reader.fail(reader.at("path"), "expected \"" + dataset_path(entry.id, entry.version) + "\"");
  }
  if (!entry.replaces.empty()) {
    parse_reference(entry.replaces, reader.origin() + ": " + reader.at("replaces"));
  }
  reader.done();
  return entry;
}

} // namespace

Catalog parse_catalog(const std::string& text, const std::string& origin)
{
  const auto json = parse_json(text, origin);
  if (!json.is_object() || !json.contains("datasets")) {
    throw Error(origin + ": not a layerbench catalog (no \"datasets\" at the top level)");
  }
  Reader reader(json, "", origin);
  Catalog catalog;
  catalog.schema_version = detail::parse_version(reader, k_catalog_schema_version, k_catalog_schema_version);
  catalog.featured = reader.optional_text("featured");
  const auto& datasets = reader.array("datasets");
  for (size_t i = 0; i < datasets.size(); ++i) {
    const auto pointer = reader.at("datasets") + "/" + std::to_string(i);
    auto entry = parse_entry(Reader(datasets[i], pointer, origin));
    if (find_entry(catalog, entry.id, entry.version)) {
      reader.fail(pointer, reference(entry.id, entry.version) + " is listed twice");
    }
    catalog.datasets.push_back(entry);
  }
  if (!catalog.featured.empty()) {
    const auto featured = parse_reference(catalog.featured, origin + ": /featured");
    if (!find_entry(catalog, featured.id, featured.version)) {
      reader.fail(reader.at("featured"), catalog.featured + " is not in the catalog");
    }
  }
  reader.done();
  return catalog;
}

Catalog load_catalog(const std::filesystem::path& path)
{
  auto text = util::read_file(path);
  if (!text) {
    throw Error(path.string() + ": " + text.error());
  }
  return parse_catalog(*text, path.string());
}

std::string serialize(const Catalog& catalog)
{
  OrderedJson json;
  json["schema_version"] = to_string(catalog.schema_version);
  json["featured"] = catalog.featured.empty() ? OrderedJson(nullptr) : OrderedJson(catalog.featured);
  json["datasets"] = OrderedJson::array();
  for (const auto& entry : catalog.datasets) {
    json["datasets"].push_back({{"id", entry.id},
                                {"version", entry.version},
                                {"title", entry.title},
                                {"kind", to_string(entry.kind)},
                                {"device", entry.device},
                                {"torch_version", entry.torch_version},
                                {"created", entry.created},
                                {"cells", entry.cells},
                                {"sha256", entry.sha256},
                                {"path", entry.path},
                                {"replaces", entry.replaces.empty() ? OrderedJson(nullptr) : OrderedJson(entry.replaces)}});
  }
  return json.dump(2) + "\n";
}

// ---------------------------------------------------------------------------------------------------
// Publishing

namespace {

void require_valid(const Dataset& run, const std::string& origin)
{
  const auto problems = check(run);
  if (problems.empty()) {
    return;
  }
  std::string message = origin + ": not publishable, " + std::to_string(problems.size()) + " problem(s):";
  for (const auto& problem : problems) {
    message += "\n  " + (problem.pointer.empty() ? std::string("/") : problem.pointer) + ": " + problem.message;
  }
  throw Error(message);
}

void write(const std::filesystem::path& path, const std::string& content, util::Overwrite overwrite)
{
  const auto written = util::write_file_atomic(path, content, overwrite);
  if (!written) {
    throw Error(written.error());
  }
}

} // namespace

CatalogEntry publish(Dataset run, const PublishOptions& options)
{
  const auto catalog_path = options.data_dir / "catalog.json";
  std::filesystem::create_directories(options.data_dir);
  // Held from reading the catalog to writing it back, so two publishes at once both land.
  const auto lock_path = options.data_dir / k_catalog_lock;
  const auto lock = util::FileLock::acquire(lock_path);
  if (!lock) {
    throw Error(lock_path.string() + ": " + lock.error());
  }
  Catalog catalog = std::filesystem::exists(catalog_path) ? load_catalog(catalog_path) : Catalog{};
  if (!options.id.empty()) {
    run.id = options.id;
  }
  if (!options.title.empty()) {
    run.title = options.title;
  }
  if (!options.creators.empty()) {
    run.creators = options.creators;
  }
  if (!valid_id(run.id)) {
    throw Error("--id: \"" + run.id + "\" is not a dataset id ([a-z0-9] words joined by '-', e.g. h100-sxm-fp32)");
  }
  if (run.title.empty()) {
    throw Error("--title: the dataset has no title; give one");
  }
  const int latest = latest_version(catalog, run.id);
  run.version = latest + 1;
  run.replaces = options.replaces.empty() && latest > 0 ? reference(run.id, latest) : options.replaces;
  if (!run.replaces.empty()) {
    const auto replaced = parse_reference(run.replaces, "--replaces");
    if (!find_entry(catalog, replaced.id, replaced.version)) {
      throw Error("--replaces: " + run.replaces + " is not in " + catalog_path.string());
    }
  }
  require_valid(run, "publish " + reference(run.id, run.version));

  const auto content = serialize(run);
  const auto entry = describe(run, util::sha256_hex(content));
  std::filesystem::create_directories(options.data_dir / "datasets");
  write(options.data_dir / entry.path, content, util::Overwrite::no);
  catalog.datasets.push_back(entry);
  const bool replaced_featured = !run.replaces.empty() && catalog.featured == run.replaces;
  if (catalog.featured.empty() || replaced_featured || options.feature == PublishOptions::Feature::make_featured) {
    catalog.featured = reference(entry.id, entry.version);
  }
  try {
    write(catalog_path, serialize(catalog), util::Overwrite::yes);
  } catch (const Error&) {
    // Without its catalog entry the new file is an orphan that would block the next attempt.
    std::filesystem::remove(options.data_dir / entry.path);
    throw;
  }
  return entry;
}

std::vector<std::string> publish_warnings(const Dataset& run, const Dataset* featured)
{
  std::vector<std::string> warnings;
  if (run.methodology && !run.methodology->shard.empty()) {
    warnings.push_back("it measured shard " + run.methodology->shard
                       + " of its matrix only (join the shards with 'layerbench merge' first)");
  }
  size_t skipped = 0;
  size_t timed = 0;
  size_t missed = 0;
  for (const auto& cell : run.results) {
    if (cell.status == CellStatus::skipped) {
      ++skipped;
      continue;
    }
    ++timed;
    missed += cell.stats && cell.stats->noise_target_met == false ? 1 : 0;
  }
  if (skipped > 0) {
    warnings.push_back(std::to_string(skipped) + " of its " + std::to_string(run.results.size())
                       + " cells were skipped");
  }
  if (missed > 0) {
    warnings.push_back(std::to_string(missed) + " of its " + std::to_string(timed)
                       + " timed cells missed their noise target (marked on the site)");
  }
  if (featured && featured->methodology && run.methodology) {
    const auto& mine = *run.methodology;
    const auto& theirs = *featured->methodology;
    if (mine.layers.size() * mine.batch_sizes.size() < theirs.layers.size() * theirs.batch_sizes.size()) {
      warnings.push_back("its matrix is partial: " + std::to_string(mine.layers.size()) + " layers x "
                         + std::to_string(mine.batch_sizes.size()) + " batch sizes, where the featured dataset "
                         + reference(featured->id, featured->version) + " has " + std::to_string(theirs.layers.size())
                         + " x " + std::to_string(theirs.batch_sizes.size()));
    }
  }
  return warnings;
}

} // namespace layerbench::dataset
