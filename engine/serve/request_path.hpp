// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace layerbench::serve {

enum class Verdict {
  file,        // serve `file`
  redirect,    // a folder asked for without its trailing slash: send the browser to `location`
  not_found,   // nothing to serve there (or something outside the root, which is not said)
  bad_request, // a target no browser sends: traversal, NUL, backslash, bad escapes, not UTF-8
  too_long,    // longer than k_max_target_length
};

struct Resolution
{
  Verdict verdict = Verdict::not_found;
  std::filesystem::path file; // Verdict::file: the canonical path, inside the canonical root
  std::string location;       // Verdict::redirect: rebuilt from the checked segments, never echoed
  std::string reason;         // why a target was refused, for the response body
};

// Our own pages have short paths; anything longer is refused before it reaches the file system.
inline constexpr std::size_t k_max_target_length = 1024;

// Maps a request target exactly as it came on the request line ("/a/b%20c?q", not decoded) to a file
// under `root`. Decodes percent escapes exactly once and then refuses what a decoded path must never
// contain, so double-encoded traversal ("%252e%252e") cannot become ".." later. Symlinks are
// followed, but only to files that are still inside the root. Directories are served by their
// index.html; there are no listings. Hidden names (".git") are never served.
Resolution resolve_target(const std::filesystem::path& root, const std::string& target);

} // namespace layerbench::serve
