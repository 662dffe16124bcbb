// SPDX-License-Identifier: MIT
#pragma once

#include "dataset/dataset.hpp"
#include "dataset/validation.hpp"
#include "site/render.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace layerbench::site {

enum class DatasetOrigin { published, local };

// One dataset as the site shows it: the parsed form and the exact bytes that the download serves.
struct SiteDataset
{
  dataset::Dataset data;
  std::string bytes;
  std::string sha256;
  std::string slug; // "<id>-v<version>": file names on the site
  DatasetOrigin origin = DatasetOrigin::published;
};

// A problem of the published reference that our own computations expose; kept as the text the file gives.
struct Inconsistency
{
  std::string dataset_id; // empty when the file does not say
  std::string kind;       // "params_differ_from_pytorch", ...; may be empty
  std::string layer;      // empty for a claim about the whole page
  std::vector<std::pair<std::string, std::string>> fields; // the rest, as text
};

// data/reference/<name>.json: one file's inconsistencies and the conventions they were found under.
struct InconsistencyFile
{
  std::string origin;
  std::vector<std::string> conventions;
  std::vector<Inconsistency> items;
};

struct SiteData
{
  std::vector<SiteDataset> datasets; // catalog order, then the extra datasets
  size_t featured = 0;               // index into datasets
  std::vector<InconsistencyFile> inconsistencies;
  std::vector<dataset::Parity> validations; // data/validation/*.json
};

// One data/reference/*.json from its text, `origin` naming it in errors (the loader reads each file
// through this, and so does the fuzz target fuzz_inconsistencies_parse).
InconsistencyFile parse_inconsistencies(const std::string& text, const std::string& origin);

// Reads data/catalog.json (or every data/datasets/*.json when there is no catalog) through
// dataset::parse, so an invalid dataset stops the render with its validation error.
SiteData load_site_data(const RenderOptions& options);

} // namespace layerbench::site
