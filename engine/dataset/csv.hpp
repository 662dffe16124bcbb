// SPDX-License-Identifier: MIT
#pragma once

// `layerbench export --format csv`: one row per cell, RFC 4180 quoting, an empty field where the
// dataset has no value. The columns (documented in docs/dataset.md) never change order within a
// major schema version; new ones are appended.

#include "dataset/dataset.hpp"

#include <string>
#include <vector>

namespace layerbench::dataset {

std::vector<std::string> csv_columns();

std::string to_csv(const Dataset& dataset);

} // namespace layerbench::dataset
