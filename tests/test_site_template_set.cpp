// SPDX-License-Identifier: MIT
#include "site/template_set.hpp"
#include "util/error.hpp"
#include "util/file.hpp"

#include <cctype>
#include <filesystem>

#include <doctest/doctest.h>

using layerbench::Error;
using layerbench::site::Data;
using layerbench::site::TemplateSet;

namespace {

Data view_with(const std::string& key, const std::string& value)
{
  Data view(Data::type::object);
  view.set(key, value);
  return view;
}

std::string error_of(const TemplateSet& set, const std::string& page, const Data& view)
{
  try {
    set.render_page(page, view);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

} // namespace

TEST_CASE("site::TemplateSet::render_page")
{
  SUBCASE("fills known variables and escapes HTML")
  {
    TemplateSet set;
    set.add_page("p", "<p>{{name}}</p>", "p.mustache");
    CHECK(set.render_page("p", view_with("name", "a<b & c/d")) == "<p>a&lt;b &amp; c/d</p>");
  }
  SUBCASE("an unknown variable names the file, the line and the variable")
  {
    TemplateSet set;
    set.add_page("p", "<p>\n{{name}}\n{{nmae}}</p>", "pages/p.mustache");
    CHECK(error_of(set, "p", view_with("name", "x")) == "pages/p.mustache:3: unknown variable 'nmae'");
  }
  SUBCASE("an unknown variable inside a list section is found in each item's context")
  {
    TemplateSet set;
    set.add_page("p", "{{#rows}}{{label}}{{/rows}}", "p.mustache");
    Data view(Data::type::object);
    Data rows(Data::type::list);
    rows.push_back(view_with("value", "1"));
    view.set("rows", rows);
    CHECK(error_of(set, "p", view) == "p.mustache:1: unknown variable 'label'");
  }
  SUBCASE("a missing partial names the file, the line and the partial")
  {
    TemplateSet set;
    set.add_page("p", "a\nb\n{{>header}}", "pages/p.mustache");
    CHECK(error_of(set, "p", view_with("name", "x")) == "pages/p.mustache:3: missing partial 'header'");
  }
  SUBCASE("an unknown variable in a partial names the partial's file")
  {
    TemplateSet set;
    set.add_partial("head", "<title>{{title}}</title>", "partials/head.mustache");
    set.add_page("p", "{{>head}}", "pages/p.mustache");
    CHECK(error_of(set, "p", view_with("name", "x")) == "partials/head.mustache:1: unknown variable 'title'");
    CHECK(set.render_page("p", view_with("title", "T")) == "<title>T</title>");
  }
  SUBCASE("a partial that includes itself is an error, not a crash")
  {
    TemplateSet set;
    set.add_partial("loop", "{{>loop}}", "partials/loop.mustache");
    set.add_page("p", "{{>loop}}", "pages/p.mustache");
    CHECK(error_of(set, "p", view_with("name", "x")).find("partial 'loop' includes itself") != std::string::npos);
  }
  SUBCASE("a section used as text is an error")
  {
    TemplateSet set;
    set.add_page("p", "{{rows}}", "p.mustache");
    Data view(Data::type::object);
    view.set("rows", Data(Data::type::list));
    CHECK(error_of(set, "p", view) == "p.mustache:1: 'rows' is a section, not text");
  }
}

TEST_CASE("site::TemplateSet::add_page")
{
  TemplateSet set;
  SUBCASE("an unclosed section names the file, the line and the section")
  {
    CHECK_THROWS_WITH_AS(set.add_page("p", "x\n{{#rows}}\n{{label}}\n", "pages/p.mustache"),
                         "pages/p.mustache:2: unclosed section 'rows'", Error);
  }
  SUBCASE("a closing tag that does not match is an error")
  {
    CHECK_THROWS_WITH_AS(set.add_page("p", "{{#a}}{{#b}}{{/a}}{{/b}}", "p.mustache"),
                         "p.mustache:1: closing tag 'a' does not match section 'b' opened at line 1", Error);
  }
  SUBCASE("an unterminated tag is an error")
  {
    CHECK_THROWS_WITH_AS(set.add_page("p", "a {{name", "p.mustache"), "p.mustache:1: unterminated tag (no '}}')", Error);
  }
  SUBCASE("a delimiter change is refused")
  {
    CHECK_THROWS_WITH_AS(set.add_page("p", "{{=<% %>=}}", "p.mustache"), "p.mustache:1: delimiter changes are not supported", Error);
  }
}

TEST_CASE("site::TemplateSet::render_prose")
{
  TemplateSet set;
  set.add_prose("faq", "## Question\n\n**{{layer}}** is fastest.\n", "prose/faq.md");
  SUBCASE("fills the tags, then makes HTML of the Markdown")
  {
    CHECK(set.render_prose("faq", view_with("layer", "Dropout")) == "<h2>Question</h2>\n<p><strong>Dropout</strong> is fastest.</p>\n");
  }
  SUBCASE("an unknown variable names the file and the line")
  {
    CHECK_THROWS_WITH_AS(set.render_prose("faq", view_with("name", "x")), "prose/faq.md:3: unknown variable 'layer'", Error);
  }
  SUBCASE("a value is text: a link, emphasis, HTML, an autolink or a new block in it stays text")
  {
    const auto html = set.render_prose("faq", view_with("layer", "[x](javascript:alert(1)) *y* <b>z</b> https://e.example www.e.example a@e.example\n# h"));
    CHECK(html == "<h2>Question</h2>\n<p><strong>[x](javascript:alert(1)) *y* &lt;b&gt;z&lt;/b&gt; https://e.example "
                  "www.e.example a@e.example # h</strong> is fastest.</p>\n");
  }
  SUBCASE("a value inside a link's destination is still the address given")
  {
    set.add_prose("link", "[{{layer}}]({{href}})\n", "prose/link.md");
    Data view(Data::type::object);
    view.set("layer", "Conv2d_1");
    view.set("href", "layers/conv2d-1.html");
    CHECK(set.render_prose("link", view) == "<p><a href=\"layers/conv2d-1.html\">Conv2d_1</a></p>\n");
  }
}

TEST_CASE("site::TemplateSet::load")
{
  SUBCASE("the project's templates all parse")
  {
    const TemplateSet set = TemplateSet::load(std::string(LAYERBENCH_SOURCE_DIR) + "/templates");
    CHECK_THROWS_WITH_AS(set.render_page("no-such-page", Data()), "templates: missing page template 'no-such-page'", Error);
  }
  SUBCASE("a folder without pages/ is refused")
  {
    CHECK_THROWS_AS(TemplateSet::load(std::string(LAYERBENCH_SOURCE_DIR) + "/engine"), Error);
  }
}

namespace {

// Text a reader sees in a template: tags of Mustache and HTML removed.
std::string visible_text(const std::string& text)
{
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (text.compare(i, 2, "{{") == 0) {
      const size_t end = text.find("}}", i);
      i = end == std::string::npos ? text.size() : end + (text.compare(end, 3, "}}}") == 0 ? 3 : 2);
      continue;
    }
    if (text[i] == '<') {
      const size_t end = text.find('>', i);
      i = end == std::string::npos ? text.size() : end + 1;
      continue;
    }
    out += text[i++];
  }
  return out;
}

// A figure is a digit that does not belong to a name such as "p25" or "SHA-256".
std::string first_figure(const std::string& text)
{
  for (size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      continue;
    }
    const char before = i > 0 ? text[i - 1] : ' ';
    if (std::isalpha(static_cast<unsigned char>(before)) || (before == '-' && i > 1 && std::isalpha(static_cast<unsigned char>(text[i - 2])))) {
      while (i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
        ++i;
      }
      continue;
    }
    return text.substr(i >= 20 ? i - 20 : 0, 40);
  }
  return "";
}

} // namespace

TEST_CASE("templates hold no numbers")
{
  SUBCASE("the check finds a figure written into a template")
  {
    CHECK(first_figure(visible_text("<p class=\"x1\">took {{ms}} ms, sha256 p25</p>")) == "");
    CHECK(first_figure(visible_text("<p>over 1,200x slower</p>")) == "over 1,200x slower");
  }
  SUBCASE("every page, partial and prose file")
  {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(LAYERBENCH_SOURCE_DIR) + "/templates")) {
      const auto extension = entry.path().extension();
      if (extension != ".mustache" && extension != ".md") {
        continue;
      }
      const std::string text = *layerbench::util::read_file(entry.path());
      CHECK_MESSAGE(first_figure(visible_text(text)) == "", entry.path().string());
    }
  }
}
