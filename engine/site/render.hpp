// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::site {

struct RenderOptions
{
  std::filesystem::path data_dir = "data";           // catalog.json, datasets/, schema/
  std::filesystem::path templates_dir = "templates";
  std::filesystem::path out_dir = "site";
  // Unpublished local runs shown beside the published datasets (make run's preview); never in site/.
  std::vector<std::filesystem::path> extra_datasets;
  // Where the site will be served ("https://example.org/layerbench/"): page addresses go into the
  // citations and attributions. Empty: no address is written, never a made-up one.
  std::string base_url;
  // The path a host serves the site at ("/", "/layerbench/"), for the 404 page, which it serves for a
  // missing address at any depth: its links start there. Empty: base_url's path, else relative links.
  std::string served_path;
};

struct RenderReport
{
  size_t files_written = 0;
};

// Written into every rendered site: render and serve replace only a folder that holds it (or an
// empty or missing one).
inline constexpr const char* k_site_marker = ".layerbench-site";

// Says why out_dir must not be replaced by a render, or nullopt when it may: it is, holds or is inside
// the data, templates or extra datasets; it is or holds the current folder, the repository root or
// the home folder; or it is a non-empty folder without the marker. Render and serve both ask this.
std::optional<std::string> unsafe_out_dir(const RenderOptions& options);

// Renders into a temporary folder beside out_dir and swaps it in, so that on any Error (an invalid
// dataset, a template problem) the previous out_dir is left untouched.
RenderReport render(const RenderOptions& options);

} // namespace layerbench::site
