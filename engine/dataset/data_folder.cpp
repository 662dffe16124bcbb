// SPDX-License-Identifier: MIT
#include "dataset/data_folder.hpp"

#include "dataset/erratum.hpp"
#include "dataset/io.hpp"
#include "util/error.hpp"
#include "util/file.hpp"
#include "util/sha256.hpp"

#include <algorithm>

namespace fs = std::filesystem;

namespace layerbench::dataset {

namespace {

std::string read(const fs::path& path)
{
  auto text = util::read_file(path);
  if (!text) {
    throw Error(path.string() + ": " + text.error());
  }
  return *text;
}

// Runs `step`; a problem it throws either stops the load or joins `problems`.
template<typename Step>
void attempt(std::vector<std::string>* problems, Step step)
{
  if (!problems) {
    step();
    return;
  }
  try {
    step();
  } catch (const Error& error) {
    problems->push_back(error.what());
  }
}

void report(std::vector<std::string>* problems, const std::vector<std::string>& found)
{
  if (found.empty()) {
    return;
  }
  if (!problems) {
    throw Error(found.front());
  }
  problems->insert(problems->end(), found.begin(), found.end());
}

std::vector<fs::path> json_files(const fs::path& folder, const std::string& suffix)
{
  std::vector<fs::path> files;
  if (!fs::is_directory(folder)) {
    return files;
  }
  for (const auto& entry : fs::directory_iterator(folder)) {
    const auto name = entry.path().filename().string();
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace

std::vector<std::string> check_against_entry(const CatalogEntry& entry, const fs::path& file, const std::string& bytes,
                                             const Dataset& data)
{
  std::vector<std::string> found;
  const auto name = file.string();
  const auto digest = util::sha256_hex(bytes);
  if (digest != entry.sha256) {
    found.push_back(name + ": sha256 " + digest + " differs from the catalog's " + entry.sha256
                    + " (a published version must never be edited; publish a new version)");
  }
  if (file.filename() != fs::path(entry.path).filename()) {
    found.push_back(name + ": file name should be " + fs::path(entry.path).filename().string());
  }
  for (const auto& difference : entry_mismatches(entry, data)) {
    found.push_back(name + ": the catalog entry for " + reference(entry.id, entry.version)
                    + " does not describe this file: " + difference);
  }
  for (const auto& erratum : entry.errata) {
    const auto problem = erratum_problem(erratum, data);
    if (!problem.empty()) {
      found.push_back(name + ": the catalog entry's erratum for " + reference(entry.id, entry.version) + ": " + problem);
    }
  }
  return found;
}

std::vector<std::string> check_reference(const InconsistencyFile& file, const Catalog& catalog)
{
  std::vector<std::string> found;
  const auto named = parse_reference(file.reference, file.origin + ": /reference/dataset");
  const auto* entry = find_entry(catalog, named.id, named.version);
  if (!entry) {
    found.push_back(file.origin + ": /reference/dataset: " + file.reference + " is not in the catalog");
    return found;
  }
  if (entry->kind != Kind::published_reference) {
    found.push_back(file.origin + ": /reference/dataset: " + file.reference + " is not a published reference");
  }
  if (file.reference_path != entry->path) {
    found.push_back(file.origin + ": /reference/path: \"" + file.reference_path + "\" where the catalog has \""
                    + entry->path + "\"");
  }
  if (file.reference_sha256 != entry->sha256) {
    found.push_back(file.origin + ": /reference/sha256: " + file.reference_sha256 + " is not the catalog's "
                    + entry->sha256 + " (regenerate the file with the command in its generated_by)");
  }
  return found;
}

namespace {

// The folder's layout (the diagram in data_folder.hpp).
constexpr const char* k_catalog_name = "catalog.json";
constexpr const char* k_datasets_folder = "datasets";
constexpr const char* k_references_folder = "reference";
constexpr const char* k_findings_folder = "findings";

DatasheetPeaks load_datasheet(const fs::path& dir)
{
  const auto file = dir / "peaks" / "datasheet.json";
  return fs::exists(file) ? load_datasheet_peaks(file) : DatasheetPeaks{};
}

} // namespace

std::vector<fs::path> unlisted_files(const fs::path& dir, const Catalog& catalog)
{
  std::vector<fs::path> unlisted;
  for (const auto& file : json_files(dir / k_datasets_folder, ".json")) {
    const auto listed = std::any_of(catalog.datasets.begin(), catalog.datasets.end(), [&](const CatalogEntry& entry) {
      return (dir / entry.path).lexically_normal() == file.lexically_normal();
    });
    if (!listed) {
      unlisted.push_back(file);
    }
  }
  return unlisted;
}

std::string unlisted_problem(const fs::path& file, const fs::path& catalog_file)
{
  return file.string() + ": has no entry in " + catalog_file.string() + " (a publish that stopped before writing the "
         "catalog leaves such a file): run that publish again, which completes it when the file is the one it "
         "writes, byte for byte; else remove the file";
}

bool adopt_unlisted(const fs::path& dir, const Catalog& catalog, const fs::path& file, const std::string& content)
{
  const auto unlisted = unlisted_files(dir, catalog);
  if (!unlisted.empty()) {
    throw Error(unlisted_problem(unlisted.front(), DataFolder::catalog_file(dir)));
  }
  if (!fs::exists(file)) {
    return false;
  }
  if (read(file) == content) {
    return true;
  }
  throw Error(unlisted_problem(file, DataFolder::catalog_file(dir)) + "; this publish would write other bytes");
}

DataFolder DataFolder::load(const fs::path& dir)
{
  DataFolder folder;
  folder.m_dir = dir;
  folder.read_catalog(nullptr);
  folder.read_datasets(nullptr);
  folder.m_validations = load_parity_folder(dir);
  folder.read_references(nullptr);
  folder.read_findings(nullptr);
  folder.m_datasheet = load_datasheet(dir);
  return folder;
}

DataFolder DataFolder::load(const fs::path& dir, std::vector<std::string>& problems)
{
  DataFolder folder;
  folder.m_dir = dir;
  folder.read_catalog(&problems);
  folder.read_datasets(&problems);
  attempt(&problems, [&] { folder.m_validations = load_parity_folder(dir); });
  folder.read_references(&problems);
  folder.read_findings(&problems);
  attempt(&problems, [&] { folder.m_datasheet = load_datasheet(dir); });
  return folder;
}

std::optional<fs::path> DataFolder::folder_of(const fs::path& file)
{
  const auto folder = fs::absolute(file).parent_path();
  if ((folder.filename() != k_datasets_folder && folder.filename() != k_references_folder) || !holds_catalog(folder.parent_path())) {
    return std::nullopt;
  }
  // Named as the caller named the file, so messages keep its relative paths.
  const auto parent = file.parent_path();
  if (parent.empty()) {
    return fs::path("..");
  }
  return parent.parent_path().empty() ? fs::path(".") : parent.parent_path();
}

fs::path DataFolder::catalog_file(const fs::path& dir)
{
  return dir / k_catalog_name;
}

bool DataFolder::is_catalog_file(const fs::path& file)
{
  return file.filename() == k_catalog_name;
}

bool DataFolder::holds_catalog(const fs::path& dir)
{
  return fs::exists(catalog_file(dir));
}

fs::path DataFolder::catalog_lock_file(const fs::path& dir)
{
  return dir / ("." + std::string(k_catalog_name) + ".lock");
}

void DataFolder::read_catalog(std::vector<std::string>* problems)
{
  const auto path = catalog_file(m_dir);
  m_has_catalog = fs::exists(path);
  if (m_has_catalog) {
    attempt(problems, [&] {
      m_catalog = load_catalog(path);
      m_catalog_read = true;
    });
    return;
  }
  if (json_files(m_dir / k_datasets_folder, ".json").empty()) {
    report(problems, {m_dir.string() + ": no datasets (neither " + k_catalog_name + " nor " + k_datasets_folder + "/*.json)"});
  }
}

void DataFolder::read_datasets(std::vector<std::string>* problems)
{
  if (!m_has_catalog) {
    for (const auto& file : json_files(m_dir / k_datasets_folder, ".json")) {
      attempt(problems, [&] {
        FolderDataset item{{}, file, read(file), {}};
        item.data = parse(item.bytes, file.string());
        item.entry = describe(item.data, util::sha256_hex(item.bytes));
        m_datasets.push_back(std::move(item));
      });
    }
    return;
  }
  for (const auto& entry : m_catalog.datasets) {
    attempt(problems, [&] {
      const auto file = m_dir / entry.path;
      FolderDataset item{entry, file, read(file), {}};
      item.data = parse(item.bytes, file.string());
      report(problems, check_against_entry(entry, file, item.bytes, item.data));
      m_datasets.push_back(std::move(item));
    });
  }
  // Against a catalog that could not be read, every file would look unlisted.
  if (problems && m_catalog_read) {
    for (const auto& file : unlisted_files(m_dir, m_catalog)) {
      problems->push_back(unlisted_problem(file, catalog_file(m_dir)));
    }
  }
  for (size_t i = 0; i < m_catalog.datasets.size(); ++i) {
    const auto& entry = m_catalog.datasets[i];
    if (entry.replaces.empty()) {
      continue;
    }
    const auto replaced = parse_reference(entry.replaces, "replaces");
    if (!find_entry(m_catalog, replaced.id, replaced.version)) {
      report(problems, {catalog_file(m_dir).string() + ": /datasets/" + std::to_string(i) + "/replaces: "
                        + entry.replaces + " is not in the catalog"});
    }
  }
}

void DataFolder::read_references(std::vector<std::string>* problems)
{
  for (const auto& file : json_files(m_dir / k_references_folder, k_inconsistencies_suffix)) {
    attempt(problems, [&] {
      auto parsed = parse_inconsistencies(read(file), file.string());
      if (m_has_catalog) {
        report(problems, check_reference(parsed, m_catalog));
      }
      m_inconsistencies.push_back(std::move(parsed));
    });
  }
}

void DataFolder::read_findings(std::vector<std::string>* problems)
{
  for (const auto& file : json_files(m_dir / k_findings_folder, ".json")) {
    attempt(problems, [&] {
      auto finding = parse_finding(read(file), file.string());
      report(problems, check_finding(finding, file, m_has_catalog ? &m_catalog : nullptr));
      m_findings.push_back(std::move(finding));
    });
  }
}

const FolderDataset* DataFolder::find(const std::string& id, int version) const
{
  for (const auto& item : m_datasets) {
    if (item.entry.id == id && item.entry.version == version) {
      return &item;
    }
  }
  return nullptr;
}

const FolderDataset* DataFolder::featured() const
{
  if (m_catalog.featured.empty()) {
    return nullptr;
  }
  const auto featured = parse_reference(m_catalog.featured, "featured");
  return find(featured.id, featured.version);
}

} // namespace layerbench::dataset
