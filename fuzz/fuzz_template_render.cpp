// SPDX-License-Identifier: MIT
// libFuzzer target for the templates (templates/pages, partials, prose): a template of any bytes must be
// rendered or refused with a layerbench::Error by the tag check, never crash, hang or let another
// exception out, and Markdown prose must go through md4c the same way. The view models are the real
// ones, built once from the site fixtures, so the check walks the names the templates really use.
//
// One input is several files, separated by NUL bytes. The first is "<page>\n<text>": <page> picks whose
// view model to render with (home, layer, faq...; unknown: the first page's). Each further one is
// "<name>\n<text>", a partial. Built and run by `make fuzz`; seeds in tests/fuzz-seeds/fuzz_template_render/.

#include "site/render.hpp"
#include "site/site_data.hpp"
#include "site/template_set.hpp"
#include "site/view_model.hpp"
#include "util/error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace {

std::map<std::string, layerbench::site::Data> g_views; // by page template name
std::string g_first_page;
const bool g_verbose = std::getenv("FUZZ_VERBOSE") != nullptr;

std::vector<std::string> split(const std::string& text)
{
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t end; (end = text.find('\0', start)) != std::string::npos; start = end + 1) {
    parts.push_back(text.substr(start, end - start));
  }
  parts.push_back(text.substr(start));
  return parts;
}

std::pair<std::string, std::string> named(const std::string& part)
{
  const auto newline = part.find('\n');
  if (newline == std::string::npos) {
    return {part, ""};
  }
  return {part.substr(0, newline), part.substr(newline + 1)};
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
  layerbench::site::RenderOptions options;
  options.data_dir = LAYERBENCH_SOURCE_DIR "/tests/fixtures/site/data";
  try {
    for (auto& page : layerbench::site::build_pages(layerbench::site::load_site_data(options))) {
      page.view.set("prose", "<p>prose</p>");
      if (g_views.empty()) {
        g_first_page = page.template_name;
      }
      g_views.emplace(page.template_name, page.view);
    }
  } catch (const layerbench::Error& error) {
    std::cerr << "fuzz_template_render: cannot build the view models: " << error.what() << "\n";
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const auto parts = split(std::string(reinterpret_cast<const char*>(data), size));
  const auto [page, text] = named(parts.front());
  const auto view = g_views.find(page);
  const layerbench::site::Data& model = view == g_views.end() ? g_views.at(g_first_page) : view->second;
  try {
    layerbench::site::TemplateSet templates;
    for (size_t i = 1; i < parts.size(); ++i) {
      const auto [name, partial] = named(parts[i]);
      templates.add_partial(name, partial, "fuzz-partial-" + name);
    }
    templates.add_page("fuzz", text, "fuzz-page");
    templates.add_prose("fuzz", text, "fuzz-prose");
    (void)templates.render_page("fuzz", model);
    (void)templates.render_prose("fuzz", model);
  } catch (const layerbench::Error& error) {
    if (g_verbose) { // to see why the seeds are refused, if they are: FUZZ_VERBOSE=1 TARGET SEED...
      std::cerr << error.what() << "\n";
    }
  }
  return 0;
}
