// SPDX-License-Identifier: MIT
#pragma once

// Suite files (issue 37 item 3, docs/catalog.md "Suites"): cross products of a layer's parameters, as
// PyTorch's operator benchmarks write their configs, each entry with tags (short, long, ...) that select
// it. Format "layerbench-suite" 1.0.0:
//
//   {"format": "layerbench-suite", "version": "1.0.0", "description": "...",
//    "entries": [{"layer": "Linear", "parameters": {"in": 4096, "out": [4096, 11008], "seq": [2048, 8192]},
//                 "tags": ["long"]}]}
//
// A parameter's list is an axis; the axes are crossed in the order written, the first outermost. The
// reference matrix is the built-in suite "reference": the catalog's fourteen layers at their defaults;
// "today" is the layers of today's models beyond it (catalog.hpp, todays_layers()).
// Torch-free.

#include <string>
#include <vector>

namespace layerbench::bench {

inline constexpr const char* k_reference_suite = "reference";
inline constexpr const char* k_today_suite = "today"; // todays_layers() at their defaults

// The canonical names of the layers `suite` (a file's path, or "reference") measures, in the order
// written, keeping the entries that carry at least one of `tags` (every entry where `tags` is empty).
// Throws Error naming the file, the entry and what is wrong: an unknown layer or parameter, a shape that
// cannot be built, a layer given twice, no entry left after the tags.
std::vector<std::string> suite_layers(const std::string& suite, const std::vector<std::string>& tags);

} // namespace layerbench::bench
