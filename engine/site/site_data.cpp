// SPDX-License-Identifier: MIT
#include "site/site_data.hpp"

#include "dataset/catalog.hpp"
#include "dataset/io.hpp"
#include "util/error.hpp"
#include "util/file.hpp"
#include "util/format.hpp"
#include "util/sha256.hpp"

#include <algorithm>
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

nlohmann::json parse_json(const fs::path& path)
{
  try {
    return nlohmann::json::parse(read(path));
  } catch (const nlohmann::json::parse_error& error) {
    throw Error(path.string() + ": not valid JSON: " + error.what());
  }
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

std::string value_text(const nlohmann::json& value)
{
  if (value.is_string()) {
    return value.get<std::string>();
  }
  if (value.is_number_integer()) {
    return util::format_thousands(value.get<int64_t>());
  }
  if (value.is_number()) {
    return util::format_significant(value.get<double>(), 4);
  }
  return value.dump();
}

const nlohmann::json* first_array(const nlohmann::json& json)
{
  if (json.is_array()) {
    return &json;
  }
  if (json.is_object()) {
    for (const auto& [key, value] : json.items()) {
      if (value.is_array()) {
        return &value;
      }
    }
  }
  return nullptr;
}

// data/reference/*.json: the issues of the transcribed reference, shown on the compare pages as given.
std::vector<Inconsistency> load_inconsistencies(const fs::path& data_dir)
{
  std::vector<Inconsistency> found;
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
  for (const auto& file : files) {
    const nlohmann::json json = parse_json(file);
    const std::string dataset_id = json.is_object() && json.contains("dataset") && json["dataset"].is_string()
                                     ? json["dataset"].get<std::string>() : "";
    const nlohmann::json* items = first_array(json);
    if (!items) {
      continue;
    }
    for (const auto& item : *items) {
      Inconsistency inconsistency{dataset_id, {}};
      if (!item.is_object()) {
        inconsistency.fields.emplace_back("", value_text(item));
      } else {
        for (const auto& [key, value] : item.items()) {
          inconsistency.fields.emplace_back(key, value_text(value));
        }
      }
      found.push_back(std::move(inconsistency));
    }
  }
  return found;
}

} // namespace

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
  return site;
}

} // namespace layerbench::site
