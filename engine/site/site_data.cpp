// SPDX-License-Identifier: MIT
#include "site/site_data.hpp"

#include "dataset/catalog.hpp"
#include "dataset/io.hpp"
#include "dataset/json_text.hpp"
#include "util/error.hpp"
#include "util/file.hpp"
#include "util/format.hpp"
#include "util/sha256.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace layerbench::site {

namespace {

std::string read(const fs::path& path)
{
  auto text = util::read_file(path);
  if (!text) {
    throw Error(path.string() + ": " + text.error());
  }
  return *text;
}

SiteDataset load_dataset(const fs::path& path, DatasetOrigin origin)
{
  SiteDataset entry;
  entry.bytes = read(path);
  entry.data = dataset::parse(entry.bytes, path.string());
  entry.sha256 = util::sha256_hex(entry.bytes);
  entry.slug = std::string(origin == DatasetOrigin::local ? "local-" : "") + entry.data.id + "-v" + std::to_string(entry.data.version);
  entry.origin = origin;
  return entry;
}

struct Listing
{
  fs::path file;
  std::string sha256; // pinned by the catalog; empty without one
};

std::vector<Listing> dataset_files(const fs::path& data_dir, std::string& featured)
{
  const fs::path catalog_path = data_dir / "catalog.json";
  std::vector<Listing> files;
  if (!fs::exists(catalog_path)) {
    if (fs::is_directory(data_dir / "datasets")) {
      for (const auto& entry : fs::directory_iterator(data_dir / "datasets")) {
        if (entry.path().extension() == ".json") {
          files.push_back({entry.path(), ""});
        }
      }
    }
    std::sort(files.begin(), files.end(), [](const Listing& a, const Listing& b) { return a.file < b.file; });
    return files;
  }
  const dataset::Catalog catalog = dataset::load_catalog(catalog_path);
  featured = catalog.featured;
  for (const auto& entry : catalog.datasets) {
    files.push_back({data_dir / entry.path, entry.sha256});
  }
  return files;
}

size_t choose_featured(const std::vector<SiteDataset>& datasets, const std::string& featured)
{
  for (size_t i = 0; i < datasets.size(); ++i) {
    const auto& data = datasets[i].data;
    if (!featured.empty() && (featured == data.id || featured == data.id + "@" + std::to_string(data.version))) {
      return i;
    }
  }
  // Otherwise the newest published measurement: a transcribed reference is featured only when alone.
  size_t best = 0;
  bool found_measured = false;
  for (size_t i = 0; i < datasets.size(); ++i) {
    const auto& data = datasets[i].data;
    if (data.kind != dataset::Kind::measured || datasets[i].origin != DatasetOrigin::published) {
      continue;
    }
    if (!found_measured || data.created > datasets[best].data.created) {
      best = i;
      found_measured = true;
    }
  }
  return best;
}

std::string value_text(const nlohmann::ordered_json& value)
{
  if (value.is_string()) {
    return value.get<std::string>();
  }
  if (value.is_number_integer() || (value.is_number() && value.get<double>() == std::floor(value.get<double>())
                                    && std::fabs(value.get<double>()) < 9e15)) {
    return util::format_thousands(static_cast<int64_t>(value.get<double>()));
  }
  if (value.is_number()) {
    return util::format_significant(value.get<double>(), 4);
  }
  if (value.is_object()) {
    std::string text;
    for (const auto& [key, item] : value.items()) {
      text += (text.empty() ? "" : ", ") + key + " = " + value_text(item);
    }
    return text;
  }
  return value.dump();
}

std::string string_at(const nlohmann::ordered_json& json, const char* key)
{
  return json.is_object() && json.contains(key) && json[key].is_string() ? json[key].get<std::string>() : "";
}

// The dataset a file is about: "dataset": "id" or "reference": {"dataset": "id@N"}.
std::string dataset_of(const nlohmann::ordered_json& json)
{
  std::string id = string_at(json, "dataset");
  if (id.empty() && json.is_object() && json.contains("reference")) {
    id = string_at(json["reference"], "dataset");
  }
  return id.substr(0, id.find('@'));
}

const nlohmann::ordered_json* items_of(const nlohmann::ordered_json& json)
{
  if (json.is_array()) {
    return &json;
  }
  if (json.is_object() && json.contains("inconsistencies") && json["inconsistencies"].is_array()) {
    return &json["inconsistencies"];
  }
  return nullptr;
}

Inconsistency inconsistency_of(const nlohmann::ordered_json& item, const std::string& dataset_id)
{
  Inconsistency inconsistency{dataset_id, string_at(item, "kind"), string_at(item, "layer"), {}};
  if (!item.is_object()) {
    inconsistency.fields.emplace_back("", value_text(item));
    return inconsistency;
  }
  for (const auto& [key, value] : item.items()) {
    if (key != "kind" && key != "layer") {
      inconsistency.fields.emplace_back(key, value_text(value));
    }
  }
  return inconsistency;
}

// data/reference/*.json: the issues of the transcribed reference, shown as the file gives them.
std::vector<InconsistencyFile> load_inconsistencies(const fs::path& data_dir)
{
  std::vector<InconsistencyFile> found;
  const fs::path folder = data_dir / "reference";
  if (!fs::is_directory(folder)) {
    return found;
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".json") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    found.push_back(parse_inconsistencies(read(path), path.string()));
  }
  return found;
}

} // namespace

InconsistencyFile parse_inconsistencies(const std::string& text, const std::string& origin)
{
  const nlohmann::ordered_json json = dataset::parse_ordered_json(text, origin);
  const nlohmann::ordered_json* items = items_of(json);
  if (!items) {
    throw Error(origin + ": /inconsistencies: expected an array of inconsistencies");
  }
  InconsistencyFile file{origin, {}, {}};
  if (json.is_object() && json.contains("conventions") && json["conventions"].is_array()) {
    for (const auto& convention : json["conventions"]) {
      file.conventions.push_back(value_text(convention));
    }
  }
  for (const auto& item : *items) {
    file.items.push_back(inconsistency_of(item, dataset_of(json)));
  }
  return file;
}

SiteData load_site_data(const RenderOptions& options)
{
  SiteData site;
  std::string featured;
  for (const auto& listed : dataset_files(options.data_dir, featured)) {
    site.datasets.push_back(load_dataset(listed.file, DatasetOrigin::published));
    if (!listed.sha256.empty() && listed.sha256 != site.datasets.back().sha256) {
      throw Error(listed.file.string() + ": sha256 " + site.datasets.back().sha256 + " differs from the catalog's "
                  + listed.sha256 + " (a published version must not be edited; publish a new version)");
    }
  }
  for (const auto& file : options.extra_datasets) {
    site.datasets.push_back(load_dataset(file, DatasetOrigin::local));
  }
  if (site.datasets.empty()) {
    throw Error(options.data_dir.string() + ": no datasets (neither catalog.json nor datasets/*.json)");
  }
  site.featured = choose_featured(site.datasets, featured);
  site.inconsistencies = load_inconsistencies(options.data_dir);
  site.validations = dataset::load_parity_folder(options.data_dir);
  return site;
}

} // namespace layerbench::site
