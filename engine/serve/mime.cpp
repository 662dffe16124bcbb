// SPDX-License-Identifier: MIT
#include "serve/mime.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace layerbench::serve {

namespace {

// Text types carry their charset: the site is written in UTF-8 and a preview must not depend on the
// browser's guess. CFF (CITATION.cff) is YAML, whose media type is application/yaml (RFC 9512).
const std::map<std::string, std::string>& types_by_extension()
{
  static const std::map<std::string, std::string> table = {
    {".html", "text/html; charset=utf-8"},
    {".htm", "text/html; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".svg", "image/svg+xml"},
    {".json", "application/json"},
    {".csv", "text/csv; charset=utf-8"},
    {".png", "image/png"},
    {".jpg", "image/jpeg"},
    {".jpeg", "image/jpeg"},
    {".gif", "image/gif"},
    {".webp", "image/webp"},
    {".ico", "image/x-icon"},
    {".woff", "font/woff"},
    {".woff2", "font/woff2"},
    {".ttf", "font/ttf"},
    {".otf", "font/otf"},
    {".cff", "application/yaml"},
    {".yaml", "application/yaml"},
    {".yml", "application/yaml"},
    {".bib", "text/plain; charset=utf-8"},
    {".txt", "text/plain; charset=utf-8"},
    {".md", "text/markdown; charset=utf-8"},
    {".xml", "application/xml"},
    {".pdf", "application/pdf"},
    {".wasm", "application/wasm"},
  };
  return table;
}

} // namespace

std::string mime_type(const std::filesystem::path& file)
{
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) {
    return static_cast<char>(std::tolower(c));
  });
  const auto& table = types_by_extension();
  const auto found = table.find(extension);
  if (found == table.end()) {
    return "application/octet-stream";
  }
  return found->second;
}

} // namespace layerbench::serve
