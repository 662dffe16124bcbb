// SPDX-License-Identifier: MIT
#include "site/template_set.hpp"

#include "util/error.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

#include <md4c-html.h>

namespace fs = std::filesystem;

namespace layerbench::site {

namespace {

// Partials come from the template set, never from the view model, so a view-model key can never be
// mistaken for a partial (kainjow's default context looks both up in the data).
class PartialContext : public kainjow::mustache::context<std::string>
{
public:
  PartialContext(const Data* view, const std::map<std::string, Data>& partials)
    : kainjow::mustache::context<std::string>(view), m_partials(partials)
  {
  }

  const Data* get_partial(const std::string& name) const override
  {
    const auto found = m_partials.find(name);
    return found == m_partials.end() ? nullptr : &found->second;
  }

private:
  const std::map<std::string, Data>& m_partials;
};

std::string read(const fs::path& path)
{
  auto text = util::read_file(path);
  if (!text) {
    throw Error(path.string() + ": " + text.error());
  }
  return *text;
}

// Files of one folder with one extension, by name, in a fixed order.
std::map<std::string, fs::path> files_in(const fs::path& directory, const std::string& extension)
{
  std::map<std::string, fs::path> files;
  if (!fs::is_directory(directory)) {
    return files;
  }
  for (const auto& entry : fs::directory_iterator(directory)) {
    if (entry.is_regular_file() && entry.path().extension() == extension) {
      files[entry.path().stem().string()] = entry.path();
    }
  }
  return files;
}

void append_html(const MD_CHAR* text, MD_SIZE size, void* output)
{
  static_cast<std::string*>(output)->append(text, size);
}

} // namespace

TemplateSet TemplateSet::load(const fs::path& directory)
{
  if (!fs::is_directory(directory / "pages")) {
    throw Error(directory.string() + ": not a templates folder (no pages/ in it)");
  }
  TemplateSet set;
  for (const auto& [name, path] : files_in(directory / "pages", ".mustache")) {
    set.add_page(name, read(path), path.string());
  }
  for (const auto& [name, path] : files_in(directory / "partials", ".mustache")) {
    set.add_partial(name, read(path), path.string());
  }
  for (const auto& [name, path] : files_in(directory / "prose", ".md")) {
    set.add_prose(name, read(path), path.string());
  }
  set.m_static_dir = directory / "static";
  return set;
}

TemplateSet::Source TemplateSet::parse(const std::string& text, const std::string& origin)
{
  return {text, {origin, parse_tags(text, origin)}};
}

void TemplateSet::add_page(const std::string& name, const std::string& text, const std::string& origin)
{
  m_pages[name] = parse(text, origin);
}

void TemplateSet::add_partial(const std::string& name, const std::string& text, const std::string& origin)
{
  m_partials[name] = parse(text, origin);
}

void TemplateSet::add_prose(const std::string& name, const std::string& text, const std::string& origin)
{
  m_prose[name] = parse(text, origin);
}

std::string TemplateSet::render(const std::map<std::string, Source>& kind,
                                const std::string& kind_name,
                                const std::string& name,
                                const Data& view,
                                Markup markup) const
{
  const auto found = kind.find(name);
  if (found == kind.end()) {
    throw Error("templates: missing " + kind_name + " template '" + name + "'");
  }
  const Source& source = found->second;
  check_tags(source.parsed.tags, source.parsed.origin, view, [this](const std::string& partial) -> const PartialSource* {
    const auto it = m_partials.find(partial);
    return it == m_partials.end() ? nullptr : &it->second.parsed;
  });

  std::map<std::string, Data> partials;
  for (const auto& [partial_name, partial] : m_partials) {
    const std::string text = partial.text;
    partials.emplace(partial_name, Data(kainjow::mustache::partial([text] { return text; })));
  }
  kainjow::mustache::mustache engine{source.text};
  if (!engine.is_valid()) {
    throw Error(source.parsed.origin + ": " + engine.error_message());
  }
  if (markup == Markup::markdown) {
    // A title or a label in prose is text: "[x](javascript:...)" must not become a link.
    engine.set_custom_escape(util::markdown_escape);
  }
  PartialContext context(&view, partials);
  std::string output = engine.render(context);
  if (!engine.is_valid()) {
    throw Error(source.parsed.origin + ": " + engine.error_message());
  }
  return output;
}

std::string TemplateSet::render_page(const std::string& name, const Data& view) const
{
  return render(m_pages, "page", name, view, Markup::html);
}

std::string TemplateSet::render_prose(const std::string& name, const Data& view) const
{
  const std::string markdown = render(m_prose, "prose", name, view, Markup::markdown);
  std::string html;
  if (md_html(markdown.data(), static_cast<MD_SIZE>(markdown.size()), append_html, &html, MD_DIALECT_GITHUB, 0) != 0) {
    throw Error(m_prose.at(name).parsed.origin + ": Markdown could not be rendered");
  }
  return html;
}

} // namespace layerbench::site
