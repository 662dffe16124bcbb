// SPDX-License-Identifier: MIT
#pragma once

// The semantic rules a dataset must meet beyond its schema: the declared matrix is complete, times
// are positive and ordered, no cell appears twice, a published reference carries nothing that would
// look measured by us. The reader (io.hpp) already enforces the schema itself.

#include "dataset/dataset.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace layerbench::dataset {

struct Problem
{
  std::string pointer; // JSON pointer into the file, "" for the whole file
  std::string message;
};

// Limits that turn an absurd number into a problem instead of a page full of nonsense; the schema
// states the same limits.
inline constexpr double k_max_time_ms = 1e7;          // one forward pass of under three hours
inline constexpr int64_t k_max_bytes = int64_t(1) << 50; // 1 PiB
inline constexpr double k_max_flops = 1e18;

// A run's checkpoint (OUT.partial) holds only the cells finished so far: `partial` checks everything
// but that every cell of the declared matrix is there.
enum class Completeness { complete, partial };

std::vector<Problem> check(const Dataset& dataset, Completeness completeness = Completeness::complete);

// The matrix a dataset declares: methodology.layers x methodology.batch_sizes x the corners of
// methodology.axes, restricted to its shard, in layer-major order (the corners vary fastest). For a
// published reference: its layers x the batch sizes it gives, at the reference corner. A matrix listed
// in methodology.cells (1.9.0, a union of runs) is that list, in its order.
std::vector<CellKey> declared_matrix(const Dataset& dataset);

// Everything `layerbench validate` says of one file, each line "FILE: /pointer: message". A
// dataset inside a data folder (DATA/datasets/X.json beside DATA/catalog.json) is also checked
// against its catalog entry, and a reference's inconsistencies (DATA/reference/X-inconsistencies.json)
// against the reference it names; DATA/catalog.json stands for the whole folder (data_folder.hpp).
// A measured cell that no device could have run (dataset/physics.hpp) is a problem; one that only
// looks fast (above the memory roof, its working set maybe in cache) goes to `warnings`, if given.
std::vector<std::string> validate_file(const std::filesystem::path& path, std::vector<std::string>* warnings = nullptr);

} // namespace layerbench::dataset
