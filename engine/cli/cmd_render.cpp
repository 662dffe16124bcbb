// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "site/render.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace layerbench::cli {

int cmd_render(const Arguments& arguments)
{
  site::RenderOptions options;
  std::string data_dir = options.data_dir.string();
  std::string templates_dir = options.templates_dir.string();
  std::string out_dir = options.out_dir.string();
  po::options_description description("options");
  description.add_options()
    ("data", po::value(&data_dir)->default_value(data_dir), "folder with catalog.json and datasets/")
    ("templates", po::value(&templates_dir)->default_value(templates_dir), "folder with pages/, partials/, prose/, static/")
    ("out", po::value(&out_dir)->default_value(out_dir), "folder to (re)place with the rendered site");
  if (!parse("render", "[--data DIR] [--templates DIR] [--out DIR]", description, arguments)) {
    return 0;
  }
  options.data_dir = data_dir;
  options.templates_dir = templates_dir;
  options.out_dir = out_dir;
  const auto report = site::render(options);
  std::cout << "render: wrote " << report.files_written << " files to " << options.out_dir.string() << "\n";
  return 0;
}

} // namespace layerbench::cli
