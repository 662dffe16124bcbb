// SPDX-License-Identifier: MIT
#pragma once

// The one place where the JSON text layerbench reads is parsed: datasets, catalog.json, parity files
// and the reference inconsistencies. nlohmann's parser lets the last of two equal keys win silently
// and takes a string of any length; here both are errors naming the origin and the JSON pointer.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace layerbench::dataset {

// The longest real string in data/ is a methodology text of about 640 bytes; the limit leaves room
// for prose while a multi-megabyte title is refused before it reaches a page. The schemas say
// "maxLength": 4096, which counts characters, so for non-ASCII text the reader is the stricter.
inline constexpr size_t k_max_text_bytes = 4096;

// "string of N bytes exceeds the 4096-byte limit", or "" when `text` is within it.
std::string text_length_problem(const std::string& text);
// Why the readers would refuse `text` as a string of a file: not UTF-8, or too long; "" when they take it.
std::string text_problem(const std::string& text);

// Invalid JSON, a number beyond double, a duplicate key in one object or a string (value or key)
// over k_max_text_bytes throws Error "ORIGIN: ..." with the JSON pointer where there is one.
nlohmann::json parse_json(const std::string& text, const std::string& origin);
nlohmann::ordered_json parse_ordered_json(const std::string& text, const std::string& origin);

} // namespace layerbench::dataset
