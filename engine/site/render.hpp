// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <vector>

namespace layerbench::site {

struct RenderOptions
{
  std::filesystem::path data_dir = "data";           // catalog.json, datasets/, schema/
  std::filesystem::path templates_dir = "templates";
  std::filesystem::path out_dir = "site";
  // Unpublished local runs shown beside the published datasets (make run's preview); never in site/.
  std::vector<std::filesystem::path> extra_datasets;
};

struct RenderReport
{
  size_t files_written = 0;
};

// Renders into a temporary folder beside out_dir and swaps it in, so that on any Error (an invalid
// dataset, a template problem) the previous out_dir is left untouched.
RenderReport render(const RenderOptions& options);

} // namespace layerbench::site
