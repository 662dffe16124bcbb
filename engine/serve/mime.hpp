// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <string>

namespace layerbench::serve {

// The Content-Type for a file, by its extension (case-insensitive). Anything unknown is
// application/octet-stream, so that a browser never guesses (the server also sends nosniff).
std::string mime_type(const std::filesystem::path& file);

} // namespace layerbench::serve
