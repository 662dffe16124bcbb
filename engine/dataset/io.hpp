// SPDX-License-Identifier: MIT
#pragma once

#include "dataset/dataset.hpp"
#include "dataset/validate.hpp"
#include "util/file.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace layerbench::dataset {

// The fixed units of every dataset, written as "units" so that a reader never has to guess.
nlohmann::ordered_json units_json();

nlohmann::ordered_json to_json(const Dataset& dataset);
// One layers[] entry as the file writes it (merge --union compares the runs' descriptions of a layer).
nlohmann::ordered_json layer_to_json(const Layer& layer);

// Strict: a missing or mistyped field, an unknown field, a non-finite number or an unsupported schema
// version throws Error naming `origin` (usually the file) and the JSON pointer of the problem.
Dataset from_json(const nlohmann::json& json, const std::string& origin);

// One results[] entry alone, as strictly (a Python worker's cell, bench/python_worker.hpp).
Cell cell_from_json(const nlohmann::json& json, const std::string& origin);

// The one way a dataset is read: the schema (from_json), then the rules of validate.hpp's check(),
// so that no command can diff, export, merge or render a negative median or a duplicate cell. The
// first problem throws Error "ORIGIN: /pointer: message"; an empty file, truncated or non-JSON text,
// a duplicate key or an over-long string throws the same way (json_text.hpp).
// `partial` is for a run's checkpoint, which holds only the cells finished so far.
Dataset parse(const std::string& text, const std::string& origin, Completeness completeness = Completeness::complete);
Dataset load(const std::filesystem::path& path, Completeness completeness = Completeness::complete);

// The schema only: for `validate`, which lists every rule a file breaks rather than the first.
Dataset parse_unchecked(const std::string& text, const std::string& origin);

// Serialised form: two-space indentation, fields in a fixed order, trailing newline, so the same
// dataset always gives the same bytes (its sha256 goes into the catalog).
std::string serialize(const Dataset& dataset);

// Atomic; with Overwrite::no an existing file is an Error and is left as it was.
void save(const std::filesystem::path& path, const Dataset& dataset, util::Overwrite overwrite);

} // namespace layerbench::dataset
