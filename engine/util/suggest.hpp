// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace layerbench::util {

// Levenshtein distance, ignoring ASCII case.
size_t edit_distance(const std::string& a, const std::string& b);

// The candidate nearest to `name`, if one is closer than `limit` edits: the "did you mean" of an
// unknown command or layer name.
std::optional<std::string> closest(const std::string& name, const std::vector<std::string>& candidates, size_t limit);

} // namespace layerbench::util
