// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "site/render.hpp"
#include "util/error.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

// An address a reader can follow: http(s), no spaces, no query or fragment of its own (pages add theirs).
void check_base_url(const std::string& url)
{
  if (url.empty()) {
    return;
  }
  const bool web = url.rfind("https://", 0) == 0 || url.rfind("http://", 0) == 0;
  if (!web || url.find_first_of(" \t\n?#\"<>") != std::string::npos || url.size() <= url.find("//") + 2) {
    throw UsageError("render: --base-url \"" + url + "\": give the address the site is served at, "
                     "such as https://example.org/layerbench/");
  }
}

} // namespace

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
    ("out", po::value(&out_dir)->default_value(out_dir), "folder to (re)place with the rendered site")
    ("base-url", po::value(&options.base_url),
     "where the site will be served (https://...): page addresses go into the citations and attributions");
  if (!parse("render", "[--data DIR] [--templates DIR] [--out DIR] [--base-url URL]", description, arguments)) {
    return 0;
  }
  check_base_url(options.base_url);
  options.data_dir = data_dir;
  options.templates_dir = templates_dir;
  options.out_dir = out_dir;
  const auto report = site::render(options);
  std::cout << "render: wrote " << report.files_written << " files to " << options.out_dir.string() << "\n";
  return 0;
}

} // namespace layerbench::cli
