// SPDX-License-Identifier: MIT
#include "site/render.hpp"

#include "dataset/csv.hpp"
#include "site/site_data.hpp"
#include "site/template_set.hpp"
#include "site/view_model.hpp"
#include "util/error.hpp"

#include <fstream>
#include <system_error>
#include <unistd.h>

namespace fs = std::filesystem;

namespace layerbench::site {

namespace {

void write(const fs::path& path, const std::string& content)
{
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) {
    throw Error(path.string() + ": could not write");
  }
}

size_t copy_static(const fs::path& from, const fs::path& to)
{
  size_t copied = 0;
  if (!fs::is_directory(from)) {
    return copied;
  }
  for (const auto& entry : fs::recursive_directory_iterator(from)) {
    if (!entry.is_regular_file()) {
      continue;
    }
    const fs::path target = to / fs::relative(entry.path(), from);
    fs::create_directories(target.parent_path());
    fs::copy_file(entry.path(), target, fs::copy_options::overwrite_existing);
    ++copied;
  }
  return copied;
}

size_t write_site(const TemplateSet& templates, const SiteData& site, const fs::path& out)
{
  size_t written = 0;
  for (auto& page : build_pages(site)) {
    if (!page.prose.empty()) {
      page.view.set("prose", templates.render_prose(page.prose, page.view));
    }
    write(out / page.path, templates.render_page(page.template_name, page.view));
    ++written;
  }
  for (const auto& entry : site.datasets) {
    write(out / "data" / (entry.slug + ".json"), entry.bytes);
    write(out / "data" / (entry.slug + ".csv"), dataset::to_csv(entry.data));
    written += 2;
  }
  return written + copy_static(templates.static_dir(), out);
}

// Puts `fresh` where `out` was in two renames, so a reader sees the old site or the new one, never a mix.
void swap_in(const fs::path& fresh, const fs::path& out)
{
  if (!fs::exists(out)) {
    fs::rename(fresh, out);
    return;
  }
  const fs::path old = out.string() + ".old-" + std::to_string(::getpid());
  fs::remove_all(old);
  fs::rename(out, old);
  fs::rename(fresh, out);
  fs::remove_all(old);
}

} // namespace

RenderReport render(const RenderOptions& options)
{
  const TemplateSet templates = TemplateSet::load(options.templates_dir);
  const SiteData site = load_site_data(options);
  const fs::path out = options.out_dir.has_filename() ? options.out_dir : options.out_dir.parent_path();
  const fs::path fresh = out.string() + ".tmp-" + std::to_string(::getpid());
  RenderReport report;
  try {
    fs::remove_all(fresh);
    fs::create_directories(fresh);
    report.files_written = write_site(templates, site, fresh);
    swap_in(fresh, out);
  } catch (const fs::filesystem_error& error) {
    std::error_code ignored;
    fs::remove_all(fresh, ignored);
    throw Error(std::string("render: ") + error.what());
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(fresh, ignored);
    throw;
  }
  return report;
}

} // namespace layerbench::site
