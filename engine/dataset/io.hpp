// SPDX-License-Identifier: MIT
#pragma once

#include "dataset/dataset.hpp"
#include "util/file.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace layerbench::dataset {

// The fixed units of every dataset, written as "units" so that a reader never has to guess.
nlohmann::ordered_json units_json();

nlohmann::ordered_json to_json(const Dataset& dataset);

// Strict: a missing or mistyped field, an unknown field, a non-finite number or an unsupported schema
// version throws Error naming `origin` (usually the file) and the JSON pointer of the problem.
Dataset from_json(const nlohmann::json& json, const std::string& origin);

// Parses text; an empty file, truncated or non-JSON text throws Error naming `origin`.
Dataset parse(const std::string& text, const std::string& origin);

Dataset load(const std::filesystem::path& path);

// Serialised form: two-space indentation, fields in a fixed order, trailing newline, so the same
// dataset always gives the same bytes (its sha256 goes into the catalog).
std::string serialize(const Dataset& dataset);

// Atomic; with Overwrite::no an existing file is an Error and is left as it was.
void save(const std::filesystem::path& path, const Dataset& dataset, util::Overwrite overwrite);

} // namespace layerbench::dataset
