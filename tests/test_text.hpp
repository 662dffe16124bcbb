// SPDX-License-Identifier: MIT
#pragma once

// Text helpers for the tests that read rendered pages, SVG and HTTP answers.

#include <cstddef>
#include <string>

namespace layerbench::test {

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
