// SPDX-License-Identifier: MIT
// Shared by the dataset tests that read a data folder: a hand-made dataset written as a published
// version, beside a catalog that lists it, without publish's checks (which would refuse the faults
// these tests plant). The numbers are test inputs, not measurements.
#pragma once

#include "dataset/catalog.hpp"
#include "dataset/io.hpp"
#include "util/sha256.hpp"

#include "test_dataset_fixture.hpp"

#include <filesystem>
#include <string>

namespace layerbench::test {

struct PublishedFile
{
  std::filesystem::path file; // DATA/datasets/<id>-v<N>.json
  std::string content;        // its bytes
  dataset::Catalog catalog;   // as written to DATA/catalog.json
};

inline PublishedFile write_published(const std::filesystem::path& data_dir, const dataset::Dataset& d)
{
  PublishedFile published;
  published.content = dataset::serialize(d);
  published.file = data_dir / dataset::dataset_path(d.id, d.version);
  write_text(published.file, published.content);
  published.catalog.datasets.push_back(dataset::describe(d, util::sha256_hex(published.content)));
  write_text(data_dir / "catalog.json", dataset::serialize(published.catalog));
  return published;
}

} // namespace layerbench::test
