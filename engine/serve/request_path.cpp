// SPDX-License-Identifier: MIT
#include "serve/request_path.hpp"

#include "util/text.hpp"

#include <optional>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace layerbench::serve {

namespace {

Resolution refuse(Verdict verdict, std::string reason)
{
  Resolution resolution;
  resolution.verdict = verdict;
  resolution.reason = std::move(reason);
  return resolution;
}

int hex_value(char c)
{
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

std::optional<std::string> percent_decode(const std::string& text)
{
  std::string decoded;
  decoded.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      decoded += text[i];
      continue;
    }
    if (i + 2 >= text.size()) {
      return std::nullopt;
    }
    const int high = hex_value(text[i + 1]);
    const int low = hex_value(text[i + 2]);
    if (high < 0 || low < 0) {
      return std::nullopt;
    }
    decoded += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return decoded;
}

// Why a decoded path cannot be served, or nullopt when its characters are acceptable.
std::optional<std::string> forbidden_character(const std::string& decoded)
{
  for (char c : decoded) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == 0) {
      return "NUL byte in path";
    }
    if (c == '\\') {
      return "backslash in path";
    }
    if (byte < 0x20 || byte == 0x7F) {
      return "control character in path";
    }
    if (c == '%') {
      return "percent sign after decoding (double-encoded path)";
    }
  }
  if (!util::is_valid_utf8(decoded)) {
    return "path is not valid UTF-8";
  }
  return std::nullopt;
}

std::string percent_encode_segment(const std::string& segment)
{
  static const char* const k_hex = "0123456789ABCDEF";
  std::string encoded;
  for (char c : segment) {
    const auto byte = static_cast<unsigned char>(c);
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                            || c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved) {
      encoded += c;
      continue;
    }
    encoded += '%';
    encoded += k_hex[byte >> 4];
    encoded += k_hex[byte & 0x0F];
  }
  return encoded;
}

bool is_inside(const fs::path& canonical_root, const fs::path& canonical_path)
{
  auto root_part = canonical_root.begin();
  auto path_part = canonical_path.begin();
  for (; root_part != canonical_root.end(); ++root_part, ++path_part) {
    if (path_part == canonical_path.end() || *root_part != *path_part) {
      return false;
    }
  }
  return true;
}

// The canonical form of `path` when it exists and stays inside the root after every symlink.
std::optional<fs::path> canonical_inside(const fs::path& canonical_root, const fs::path& path)
{
  std::error_code error;
  const fs::path canonical = fs::canonical(path, error);
  if (error || !is_inside(canonical_root, canonical)) {
    return std::nullopt;
  }
  return canonical;
}

Resolution serve_regular_file(const fs::path& canonical_root, const fs::path& path)
{
  const auto canonical = canonical_inside(canonical_root, path);
  std::error_code error;
  if (!canonical || !fs::is_regular_file(*canonical, error)) {
    return refuse(Verdict::not_found, "not found");
  }
  Resolution resolution;
  resolution.verdict = Verdict::file;
  resolution.file = *canonical;
  return resolution;
}

// Splits the decoded path into segments; empty and "." segments are dropped and ".." refused, so the
// result can be appended to the root one name at a time.
std::optional<std::vector<std::string>> split_segments(const std::string& decoded, std::string& reason)
{
  std::vector<std::string> segments;
  size_t start = 1;
  while (start <= decoded.size()) {
    size_t end = decoded.find('/', start);
    if (end == std::string::npos) {
      end = decoded.size();
    }
    const std::string segment = decoded.substr(start, end - start);
    start = end + 1;
    if (segment.empty() || segment == ".") {
      continue;
    }
    if (segment == "..") {
      reason = "'..' in path";
      return std::nullopt;
    }
    segments.push_back(segment);
  }
  return segments;
}

} // namespace

Resolution resolve_target(const fs::path& root, const std::string& target)
{
  if (target.size() > k_max_target_length) {
    return refuse(Verdict::too_long, "request target longer than " + std::to_string(k_max_target_length) + " bytes");
  }
  const std::string raw_path = target.substr(0, target.find_first_of("?#"));
  if (raw_path.empty() || raw_path.front() != '/') {
    return refuse(Verdict::bad_request, "request target is not a path starting with '/'");
  }
  const auto decoded = percent_decode(raw_path);
  if (!decoded) {
    return refuse(Verdict::bad_request, "malformed percent escape in path");
  }
  if (const auto reason = forbidden_character(*decoded)) {
    return refuse(Verdict::bad_request, *reason);
  }
  std::string reason;
  const auto segments = split_segments(*decoded, reason);
  if (!segments) {
    return refuse(Verdict::bad_request, reason);
  }

  std::error_code error;
  const fs::path canonical_root = fs::canonical(root, error);
  if (error) {
    return refuse(Verdict::not_found, "the site folder does not exist (yet)");
  }
  fs::path candidate = canonical_root;
  std::string location;
  for (const auto& segment : *segments) {
    if (segment.front() == '.') {
      return refuse(Verdict::not_found, "not found");
    }
    candidate /= segment; // a single name, never absolute: it holds no '/'
    location += "/" + percent_encode_segment(segment);
  }

  const auto canonical = canonical_inside(canonical_root, candidate);
  if (!canonical) {
    return refuse(Verdict::not_found, "not found");
  }
  if (!fs::is_directory(*canonical, error)) {
    return serve_regular_file(canonical_root, *canonical);
  }
  if (decoded->back() != '/') {
    Resolution resolution;
    resolution.verdict = Verdict::redirect;
    resolution.location = location + "/";
    return resolution;
  }
  return serve_regular_file(canonical_root, *canonical / "index.html");
}

} // namespace layerbench::serve
