// SPDX-License-Identifier: MIT
#pragma once

// Text helpers for the tests that read rendered pages, SVG and HTTP answers.

#include "util/file.hpp"

#include <cstddef>
#include <filesystem>
#include <string>

namespace layerbench::test {

// The source tree, for the fixtures and committed files the tests read.
inline const std::filesystem::path k_source = LAYERBENCH_SOURCE_DIR;

// A file's whole text; throws (failing the test) where it cannot be read.
inline std::string read_text(const std::filesystem::path& path) { return *util::read_file(path); }

// How many times `part` occurs in `text`, overlapping occurrences counted.
inline size_t count_of(const std::string& text, const std::string& part)
{
  size_t found = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++found;
  }
  return found;
}

} // namespace layerbench::test
