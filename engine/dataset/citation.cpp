// SPDX-License-Identifier: MIT
#include "dataset/citation.hpp"

#include <nlohmann/json.hpp>

namespace layerbench::dataset {

namespace {

std::string year(const Dataset& dataset) { return dataset.created.substr(0, 4); }

// Text inside a BibTeX field: TeX's specials escaped, and braces written as commands, because BibTeX
// counts every brace, escaped or not, to find where a field ends.
std::string tex(const std::string& text)
{
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&': case '%': case '#': case '_': case '$':
      out += '\\';
      out += c;
      break;
    case '\\': out += "\\textbackslash{}"; break;
    case '{': out += "\\textbraceleft{}"; break;
    case '}': out += "\\textbraceright{}"; break;
    case '~': out += "\\textasciitilde{}"; break;
    case '^': out += "\\textasciicircum{}"; break;
    default: out += c;
    }
  }
  return out;
}

std::string braced(const std::string& text) { return "{" + tex(text) + "}"; }

// An address in a url field: the characters a URL never holds unencoded (spaces, quotes, braces, a
// backslash) percent-encoded, so the field ends where BibTeX thinks it ends.
std::string url_field(const std::string& url)
{
  static const char* const k_hex = "0123456789ABCDEF";
  std::string out;
  for (char c : url) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte >= 0x7f || c == '{' || c == '}' || c == '\\' || c == '"') {
      out += '%';
      out += k_hex[byte >> 4];
      out += k_hex[byte & 0xF];
      continue;
    }
    out += c;
  }
  return "{" + out + "}";
}

// A YAML double-quoted scalar; JSON string escapes are valid YAML.
std::string yaml(const std::string& text) { return nlohmann::json(text).dump(); }

std::string creator_names(const Dataset& dataset)
{
  if (dataset.creators.empty()) {
    return "LayerBench contributors";
  }
  std::string names;
  for (size_t i = 0; i < dataset.creators.size(); ++i) {
    const bool last = i + 1 == dataset.creators.size();
    names += (i == 0 ? "" : last ? " and " : ", ") + dataset.creators[i].name;
  }
  return names;
}

std::string source_text(const Source& source)
{
  return "Figures as printed by \"" + source.title + "\" (" + source_address(source) + ")"
         + (source.date.empty() ? "" : ", " + source.date) + (source.license.empty() ? "" : ", " + source.license) + ".";
}

std::string note(const Dataset& dataset, const std::string& url)
{
  return "Licence " + dataset.license.id + ". " + attribution(dataset, url);
}

} // namespace

std::string attribution(const Dataset& dataset, const std::string& url)
{
  std::string text = dataset.provenance.source ? source_text(*dataset.provenance.source) + " Transcribed by " : "";
  text += creator_names(dataset) + ", \"" + dataset.title + "\", LayerBench dataset "
          + dataset.id + " version " + std::to_string(dataset.version);
  text += url.empty() ? "" : ", " + url;
  text += ", licensed " + dataset.license.id + (dataset.license.url.empty() ? "" : " (" + dataset.license.url + ")") + ".";
  return text;
}

std::string citation_key(const Dataset& dataset)
{
  return "layerbench-" + dataset.id + "-v" + std::to_string(dataset.version);
}

std::string bibtex(const Dataset& dataset, const std::string& url)
{
  std::string authors;
  for (const auto& creator : dataset.creators) {
    authors += (authors.empty() ? "" : " and ") + braced(creator.name);
  }
  std::string out = "@misc{" + citation_key(dataset) + ",\n";
  out += "  title = " + braced(dataset.title) + ",\n";
  if (!authors.empty()) {
    out += "  author = {" + authors + "},\n";
  }
  out += "  year = {" + year(dataset) + "},\n";
  out += "  version = {" + std::to_string(dataset.version) + "},\n";
  if (!url.empty()) {
    out += "  url = " + url_field(url) + ",\n";
  }
  out += "  note = " + braced(note(dataset, url)) + ",\n";
  out += "  howpublished = {LayerBench dataset " + dataset.id + "@" + std::to_string(dataset.version) + "}\n}\n";
  return out;
}

std::string cff(const Dataset& dataset, const std::string& url)
{
  std::string out = "cff-version: 1.2.0\n";
  out += "message: \"If you use this dataset, please cite it as below.\"\n";
  out += "type: dataset\n";
  out += "title: " + yaml(dataset.title) + "\n";
  out += "version: " + yaml(std::to_string(dataset.version)) + "\n";
  out += "date-released: " + yaml(dataset.created.substr(0, 10)) + "\n";
  out += "license: " + dataset.license.id + "\n";
  if (!url.empty()) {
    out += "url: " + yaml(url) + "\n";
  }
  out += "abstract: " + yaml(note(dataset, url)) + "\n";
  out += "authors:\n";
  for (const auto& creator : dataset.creators) {
    // CFF's entity (`name`) has no affiliation, and its person has no single-string name: a creator
    // with an affiliation is a person known by the whole name as written (`alias`), so the CFF
    // validates without our splitting a name into given and family names.
    if (creator.affiliation.empty()) {
      out += "  - name: " + yaml(creator.name) + "\n";
      continue;
    }
    out += "  - alias: " + yaml(creator.name) + "\n";
    out += "    affiliation: " + yaml(creator.affiliation) + "\n";
  }
  if (dataset.creators.empty()) {
    out += "  - name: \"LayerBench contributors\"\n";
  }
  return out;
}

} // namespace layerbench::dataset
