// SPDX-License-Identifier: MIT
#pragma once

#include "dataset/datasheet.hpp"
#include "dataset/dataset.hpp"
#include "dataset/erratum.hpp"
#include "dataset/finding.hpp"
#include "dataset/inconsistencies.hpp"
#include "dataset/scaling_reference.hpp"
#include "dataset/validation.hpp"
#include "site/render.hpp"

#include <filesystem>
#include <memory>
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
  std::string label; // the catalog's short name, with " vN" where two datasets share it
  // The title the site shows: the file's, with what tells it from the other datasets of the same title
  // (their release, threads, settings, rounds, batch sizes) where several share it; empty in hand-made
  // entries, which show the file's (dataset_title in view_common.hpp).
  std::string title;
  DatasetOrigin origin = DatasetOrigin::published;
  // The whole file as parsed, layers and models alike, where `data` holds a part of it: for the
  // downloads and what the datasets page says the file holds.
  std::shared_ptr<const dataset::Dataset> file;
  // The catalog's errata of this version: figures withdrawn after publication, which no page shows
  // (site/memory_figure.hpp); the download stays as published.
  std::vector<dataset::Erratum> errata;
};

// A problem of the published reference that our own computations expose (dataset::Inconsistency),
// as the text the page shows.
struct Inconsistency
{
  std::string dataset_id; // empty when the file does not say
  std::string kind;       // "params_differ_from_pytorch", ...; may be empty
  std::string layer;      // empty for a claim about the whole page
  std::vector<std::pair<std::string, std::string>> fields; // the rest, as text
  std::string anchor;            // "issue-<dataset id>-<n>": its place on the inconsistencies page
  dataset::Inconsistency source; // as read, for the mark on the figure it is about
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
  // The layer pages see layers only: a dataset's whole models (layers[] of kind model, and their cells)
  // are split off at load into `models`, and a dataset of models alone is not in `datasets` at all.
  std::vector<SiteDataset> datasets; // catalog order, then the extra datasets
  std::vector<SiteDataset> models;   // the same order: each dataset's models, for the models pages
  // Each dataset that measured a model's layers at its shapes (layers of kind model_layer): its models
  // and those layers, with their cells, for the model pages' comparison with the sum of its layers.
  std::vector<SiteDataset> layer_sums;
  size_t featured = 0;               // index into datasets
  std::vector<InconsistencyFile> inconsistencies;
  std::vector<dataset::Parity> validations; // data/validation/*.json
  dataset::DatasheetPeaks datasheet;        // data/peaks/datasheet.json; no devices when absent
  std::vector<dataset::Finding> findings;   // data/findings/*.json (the versions pages show them)
  // data/reference/data-parallel-scaling.json (the models page's scaling section); absent in most folders.
  std::optional<dataset::ScalingReference> scaling_reference;
};

// Every dataset file once, layers' or models' (the datasets page and the downloads list each one).
std::vector<const SiteDataset*> dataset_files(const SiteData& site);

// Reads the data folder through dataset::DataFolder, so an invalid or edited dataset, or a reference
// inconsistencies file that breaks its format, stops the render with its error.
SiteData load_site_data(const RenderOptions& options);

} // namespace layerbench::site
