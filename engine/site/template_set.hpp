// SPDX-License-Identifier: MIT
#pragma once

#include "site/template_check.hpp"

#include <filesystem>
#include <map>
#include <string>

namespace layerbench::site {

// The templates of the site, read once:
//   pages/<name>.mustache     one per kind of page, HTML
//   partials/<name>.mustache  included with {{>name}}
//   prose/<name>.md           Markdown with Mustache tags: the tags are filled first, each value escaped
//                             as Markdown text, then md4c makes HTML
//   static/                   copied as they are (style sheet, script)
// Every template is checked against its view model before rendering (see template_check.hpp).
class TemplateSet
{
public:
  static TemplateSet load(const std::filesystem::path& directory);

  // For tests: templates given as text, keyed by name.
  void add_page(const std::string& name, const std::string& text, const std::string& origin);
  void add_partial(const std::string& name, const std::string& text, const std::string& origin);
  void add_prose(const std::string& name, const std::string& text, const std::string& origin);

  std::string render_page(const std::string& name, const Data& view) const;
  // Markdown prose rendered to an HTML fragment.
  std::string render_prose(const std::string& name, const Data& view) const;

  const std::filesystem::path& static_dir() const { return m_static_dir; }

private:
  struct Source
  {
    std::string text;
    PartialSource parsed;
  };
  // What {{tag}} escapes for: HTML pages, or Markdown prose (made HTML by md4c afterwards).
  enum class Markup { html, markdown };
  static Source parse(const std::string& text, const std::string& origin);
  std::string render(const std::map<std::string, Source>& kind, const std::string& kind_name,
                     const std::string& name, const Data& view, Markup markup) const;

  std::map<std::string, Source> m_pages;
  std::map<std::string, Source> m_partials;
  std::map<std::string, Source> m_prose;
  std::filesystem::path m_static_dir;
};

} // namespace layerbench::site
