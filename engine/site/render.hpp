// SPDX-License-Identifier: MIT
#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <functional>
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
  // Asked before each file is written; true stops the render, which removes its temporary folder and
  // throws RenderInterrupted. Empty: never interrupted. `render` passes a signal's flag here.
  std::function<bool()> interrupted;
};

// An interrupted render: the temporary folder is gone and out_dir is as it was.
class RenderInterrupted : public Error
{
public:
  RenderInterrupted() : Error("interrupted; the previous site is left as it was") {}
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

// Renders into a temporary folder beside out_dir (OUT.tmp-PID) and swaps it in, so that on any Error
// (an invalid dataset, a template problem, an interruption) the previous out_dir is left untouched and
// the temporary folder removed. Temporary folders of renders whose process is gone (killed before
// they could clean up) are removed first.
RenderReport render(const RenderOptions& options);

} // namespace layerbench::site
