// SPDX-License-Identifier: MIT
#pragma once

// The data folder, read in one place. Every command that reads DATA/ (validate, render, publish) goes
// through DataFolder, so a published file is checked against its catalog sha256 once, here.
//
//   DATA/catalog.json                              the published versions (catalog.hpp)
//   DATA/datasets/<id>-v<N>.json                   each pinned by its sha256 in the catalog
//   DATA/validation/*.json                         parity files (validation.hpp)
//   DATA/reference/<id>-inconsistencies.json       a reference's inconsistencies (inconsistencies.hpp)
//   DATA/findings/<id>.json                      why a cell's time differs between releases (finding.hpp)
//   DATA/peaks/datasheet.json                      vendors' datasheet peaks (datasheet.hpp), optional
//
// A folder without catalog.json (one nobody has published into) is read as every datasets/*.json in
// name order, unpinned. Beside a catalog, a datasets/*.json it does not list is a problem for
// validate and publish (unlisted_files below); readers of the folder read only what the catalog lists.

#include "dataset/catalog.hpp"
#include "dataset/dataset.hpp"
#include "dataset/datasheet.hpp"
#include "dataset/finding.hpp"
#include "dataset/inconsistencies.hpp"
#include "dataset/validation.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::dataset {

// One dataset of the folder: its catalog entry, the exact bytes of its file and their parsed form.
struct FolderDataset
{
  CatalogEntry entry; // without a catalog: describe()d from the file
  std::filesystem::path file;
  std::string bytes;
  Dataset data;
};

class DataFolder
{
public:
  // Reads the whole folder; the first problem throws Error naming the file (and the JSON pointer).
  // With `problems`, each problem is appended to it instead, as "FILE: /pointer: message", and what
  // could be read is kept (for validate, which lists them all); there, and only there, each unlisted
  // file is a problem too: it changes nothing a reader of the catalog sees, and publish deals with it.
  static DataFolder load(const std::filesystem::path& dir);
  static DataFolder load(const std::filesystem::path& dir, std::vector<std::string>& problems);

  // The folder that holds `file` when it is DATA/datasets/X.json or DATA/reference/X.json beside a
  // DATA/catalog.json; nullopt otherwise.
  static std::optional<std::filesystem::path> folder_of(const std::filesystem::path& file);

  // DIR/catalog.json: the folder's file names are spelled here and nowhere else.
  static std::filesystem::path catalog_file(const std::filesystem::path& dir);
  static bool is_catalog_file(const std::filesystem::path& file); // by its name: X/catalog.json
  // Whether DIR holds a catalog, that is whether anyone has published into it.
  static bool holds_catalog(const std::filesystem::path& dir);
  // DIR/.catalog.json.lock, which publish holds around its read-modify-write of the catalog.
  static std::filesystem::path catalog_lock_file(const std::filesystem::path& dir);

  const std::filesystem::path& dir() const { return m_dir; }
  bool has_catalog() const { return m_has_catalog; }
  const Catalog& catalog() const { return m_catalog; }
  const std::vector<FolderDataset>& datasets() const { return m_datasets; } // catalog order
  const std::vector<Parity>& validations() const { return m_validations; }
  const std::vector<InconsistencyFile>& inconsistencies() const { return m_inconsistencies; }
  const std::vector<Finding>& findings() const { return m_findings; } // file-name order
  const DatasheetPeaks& datasheet() const { return m_datasheet; } // no devices when the file is absent

  const FolderDataset* find(const std::string& id, int version) const;
  const FolderDataset* featured() const; // the catalog's featured dataset; nullptr when it names none

private:
  DataFolder() = default;
  void read_catalog(std::vector<std::string>* problems);
  void read_datasets(std::vector<std::string>* problems);
  void read_references(std::vector<std::string>* problems);
  void read_findings(std::vector<std::string>* problems);

  std::filesystem::path m_dir;
  bool m_has_catalog = false;
  bool m_catalog_read = false; // read without a problem
  Catalog m_catalog;
  std::vector<FolderDataset> m_datasets;
  std::vector<Parity> m_validations;
  std::vector<InconsistencyFile> m_inconsistencies;
  std::vector<Finding> m_findings;
  DatasheetPeaks m_datasheet;
};

// A published file against its catalog entry: the sha256 of `bytes` is the pinned one (the one place
// this is compared), the file name is the entry's and the entry describes `data`. Each difference is
// a line "FILE: message"; none when the file is what the catalog says.
std::vector<std::string> check_against_entry(const CatalogEntry& entry, const std::filesystem::path& file,
                                             const std::string& bytes, const Dataset& data);

// DIR/datasets/*.json that `catalog` does not list, in name order: what a publish leaves that stopped
// after writing its file and before writing the catalog (killed, out of space).
std::vector<std::filesystem::path> unlisted_files(const std::filesystem::path& dir, const Catalog& catalog);

// "FILE has no entry in CATALOG: ..., and how to recover": the one message validate and publish give.
std::string unlisted_problem(const std::filesystem::path& file, const std::filesystem::path& catalog_file);

// For publish, about to write `content` to `file` with `catalog` already listing it: true where
// `file` is there holding exactly `content`, left by an earlier attempt of this very publish, which
// is completed by writing the catalog alone. Throws Error (unlisted_problem) for any other unlisted
// file, so that publish refuses the folder that validate calls invalid.
bool adopt_unlisted(const std::filesystem::path& dir, const Catalog& catalog, const std::filesystem::path& file,
                    const std::string& content);

// An inconsistencies file against the catalog: the reference it names is listed, at the path it gives,
// with the sha256 it was computed from. Each difference is a line "FILE: /pointer: message".
std::vector<std::string> check_reference(const InconsistencyFile& file, const Catalog& catalog);

} // namespace layerbench::dataset
