// SPDX-License-Identifier: MIT
#pragma once

// Whether two files are parts of one run: the shards that `merge` joins, and the checkpoint that
// `run --resume` continues. Both compare the same parts through this one function, so that a resume
// is held to everything a merge is (the environment, the methodology, the layers, the build).

#include "dataset/dataset.hpp"

#include <optional>
#include <string>

namespace layerbench::dataset {

// Whether methodology.shard and shard_cells take part: the shards of one run differ there by
// design; a checkpoint and its resume must not.
enum class ShardFields { compared, ignored };

// Whether the matrix takes part: which layers, batch sizes and corners a run measured (and the layers'
// descriptions). The runs that `merge --union` joins differ there by design.
enum class MatrixFields { compared, ignored };

// The first field where two datasets differ: its JSON pointer ("/environment/threads") and each
// one's value as JSON, cut short for a message ("absent" where a file has no such field).
struct RunDifference
{
  std::string pointer;
  std::string first_value;
  std::string other_value;
};

// nullopt when `first` and `other` could be parts of one run: equal but for what each part records
// for itself (its results, id and created time, command line, the load around it, the device's peaks
// timed on its own, the speed classes ranked within it).
std::optional<RunDifference> run_difference(const Dataset& first, const Dataset& other, ShardFields shard_fields,
                                            MatrixFields matrix_fields = MatrixFields::compared);

} // namespace layerbench::dataset
