// SPDX-License-Identifier: MIT
#include "site/render.hpp"

#include "dataset/csv.hpp"
#include "site/site_data.hpp"
#include "site/template_set.hpp"
#include "site/view_model.hpp"
#include "util/error.hpp"
#include "util/file.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
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

// The write path comes from the entry's own place under `from`, never from where a link points: a
// link may name any file, so one that leaves the templates folder is refused rather than copied.
size_t copy_static(const fs::path& from, const fs::path& to, const fs::path& templates_dir)
{
  size_t copied = 0;
  if (!fs::is_directory(from)) {
    return copied;
  }
  const fs::path templates = fs::canonical(templates_dir);
  for (const auto& entry : fs::recursive_directory_iterator(from)) {
    if (entry.is_symlink() && !util::is_within(fs::weakly_canonical(entry.path()), templates)) {
      throw Error(entry.path().string() + ": a link to " + fs::read_symlink(entry.path()).string()
                  + ", outside " + templates_dir.string() + "; copy the file in instead");
    }
    if (!entry.is_regular_file()) {
      continue;
    }
    const fs::path target = to / entry.path().lexically_relative(from);
    fs::create_directories(target.parent_path());
    fs::copy_file(entry.path(), target, fs::copy_options::overwrite_existing);
    ++copied;
  }
  return copied;
}

void stop_if_interrupted(const RenderOptions& options)
{
  if (options.interrupted && options.interrupted()) {
    throw RenderInterrupted();
  }
}

size_t write_site(const TemplateSet& templates,
                  const SiteData& site,
                  const RenderOptions& options,
                  const fs::path& templates_dir,
                  const fs::path& out)
{
  size_t written = 0;
  for (auto& page : build_pages(site, options.base_url, options.served_path)) {
    stop_if_interrupted(options);
    if (!page.prose.empty()) {
      page.view.set("prose", templates.render_prose(page.prose, page.view));
    }
    write(out / page.path, templates.render_page(page.template_name, page.view));
    ++written;
  }
  for (const SiteDataset* entry : dataset_files(site)) {
    stop_if_interrupted(options);
    write(out / "data" / (entry->slug + ".json"), entry->bytes);
    write(out / "data" / (entry->slug + ".csv"), dataset::to_csv(entry->file ? *entry->file : entry->data));
    written += 2;
  }
  write(out / k_site_marker, "This folder was rendered by LayerBench; render and serve replace it whole.\n");
  return written + 1 + copy_static(templates.static_dir(), out, templates_dir);
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

bool process_alive(pid_t pid)
{
  // EPERM: the process exists but belongs to someone else.
  return ::kill(pid, 0) == 0 || errno == EPERM;
}

// The pid in NAME where NAME is PREFIX followed by digits only; nullopt otherwise.
std::optional<pid_t> pid_after(const std::string& name, const std::string& prefix)
{
  if (name.size() <= prefix.size() || name.size() > prefix.size() + 9 || name.compare(0, prefix.size(), prefix) != 0
      || name.find_first_not_of("0123456789", prefix.size()) != std::string::npos) {
    return std::nullopt;
  }
  return static_cast<pid_t>(std::stol(name.substr(prefix.size())));
}

// Removes OUT.tmp-PID and OUT.old-PID folders whose render is gone: a render killed outright (SIGKILL,
// a crash) cannot remove its own. A folder whose process lives may be a render at work, and is kept.
void sweep_stale(const fs::path& out)
{
  const fs::path parent = out.parent_path().empty() ? fs::path(".") : out.parent_path();
  std::vector<fs::path> stale;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(parent, error)) {
    const auto name = entry.path().filename().string();
    for (const char* tag : {".tmp-", ".old-"}) {
      const auto pid = pid_after(name, out.filename().string() + tag);
      if (pid && *pid > 0 && *pid != ::getpid() && !process_alive(*pid) && !entry.is_symlink(error)
          && entry.is_directory(error)) {
        stale.push_back(entry.path());
      }
    }
  }
  for (const auto& folder : stale) {
    fs::remove_all(folder, error);
  }
}

// The git checkout holding `path`, if any: its root is never a render target.
std::optional<fs::path> repository_root(const fs::path& path)
{
  for (fs::path folder = util::comparable_path(path); !folder.empty(); folder = folder.parent_path()) {
    if (fs::exists(folder / ".git")) {
      return folder;
    }
    if (folder == folder.parent_path()) {
      break;
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> unsafe_out_dir(const RenderOptions& options)
{
  const fs::path out = util::comparable_path(options.out_dir);
  std::vector<fs::path> sources = {options.data_dir, options.templates_dir};
  sources.insert(sources.end(), options.extra_datasets.begin(), options.extra_datasets.end());
  for (const auto& source : sources) {
    const fs::path kept = util::comparable_path(source);
    if (util::is_within(kept, out) || out == kept || util::is_within(out, kept)) {
      return "it is, holds or is inside " + source.string() + ", which a render there would destroy";
    }
  }
  std::vector<fs::path> roots = {fs::current_path()};
  if (const auto repository = repository_root(options.data_dir)) {
    roots.push_back(*repository);
  }
  if (const char* home = std::getenv("HOME")) {
    roots.emplace_back(home);
  }
  for (const auto& root : roots) {
    const fs::path kept = util::comparable_path(root);
    if (out == kept || util::is_within(kept, out)) {
      return "it is or holds " + root.string() + ", which a render there would destroy";
    }
  }
  std::error_code error;
  const auto status = fs::symlink_status(options.out_dir, error);
  if (error || status.type() == fs::file_type::not_found) {
    return std::nullopt;
  }
  if (status.type() != fs::file_type::directory) {
    return "it is not a folder";
  }
  if (fs::is_empty(options.out_dir) || fs::is_regular_file(options.out_dir / k_site_marker)) {
    return std::nullopt;
  }
  return "it is not empty and holds no " + std::string(k_site_marker)
         + ", so LayerBench did not render it; remove it or give an empty folder";
}

RenderReport render(const RenderOptions& options)
{
  if (const auto reason = unsafe_out_dir(options)) {
    throw Error(options.out_dir.string() + ": will not replace this folder: " + *reason);
  }
  const TemplateSet templates = TemplateSet::load(options.templates_dir);
  const SiteData site = load_site_data(options);
  const fs::path out = options.out_dir.has_filename() ? options.out_dir : options.out_dir.parent_path();
  const fs::path fresh = out.string() + ".tmp-" + std::to_string(::getpid());
  RenderReport report;
  sweep_stale(out);
  try {
    stop_if_interrupted(options);
    fs::remove_all(fresh);
    fs::create_directories(fresh);
    report.files_written = write_site(templates, site, options, options.templates_dir, fresh);
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
