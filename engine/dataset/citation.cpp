// SPDX-License-Identifier: MIT
#include "dataset/citation.hpp"

#include <nlohmann/json.hpp>

namespace layerbench::dataset {

namespace {

std::string year(const Dataset& dataset) { return dataset.created.substr(0, 4); }

std::string braced(const std::string& text)
{
  std::string out;
  for (char c : text) {
    if (c == '&' || c == '%' || c == '#' || c == '_' || c == '$') {
      out += '\\';
    }
    if (c == '{' || c == '}') {
      continue; // unbalanced braces break a BibTeX entry; they carry no meaning in our titles
    }
    out += c;
  }
  return "{" + out + "}";
}

// A YAML double-quoted scalar; JSON string escapes are valid YAML.
std::string yaml(const std::string& text) { return nlohmann::json(text).dump(); }

std::string note(const Dataset& dataset)
{
  std::string text = "Licence " + dataset.license.id + ". " + dataset.license.attribution;
  if (dataset.provenance.source) {
    const auto& s = *dataset.provenance.source;
    text += " Figures as printed by \"" + s.title + "\"" + " (" + source_address(s) + ")"
            + (s.date.empty() ? "" : ", " + s.date) + ", " + s.license + ".";
  }
  return text;
}

} // namespace

std::string citation_key(const Dataset& dataset)
{
  return "layerbench-" + dataset.id + "-v" + std::to_string(dataset.version);
}

std::string bibtex(const Dataset& dataset)
{
  std::string authors;
  for (const auto& creator : dataset.creators) {
    authors += (authors.empty() ? "" : " and ") + ("{" + creator.name + "}");
  }
  std::string out = "@misc{" + citation_key(dataset) + ",\n";
  out += "  title = " + braced(dataset.title) + ",\n";
  if (!authors.empty()) {
    out += "  author = {" + authors + "},\n";
  }
  out += "  year = {" + year(dataset) + "},\n";
  out += "  version = {" + std::to_string(dataset.version) + "},\n";
  out += "  note = " + braced(note(dataset)) + ",\n";
  out += "  howpublished = {LayerBench dataset " + dataset.id + "@" + std::to_string(dataset.version) + "}\n}\n";
  return out;
}

std::string cff(const Dataset& dataset)
{
  std::string out = "cff-version: 1.2.0\n";
  out += "message: \"If you use this dataset, please cite it as below.\"\n";
  out += "type: dataset\n";
  out += "title: " + yaml(dataset.title) + "\n";
  out += "version: " + yaml(std::to_string(dataset.version)) + "\n";
  out += "date-released: " + yaml(dataset.created.substr(0, 10)) + "\n";
  out += "license: " + dataset.license.id + "\n";
  out += "abstract: " + yaml(note(dataset)) + "\n";
  out += "authors:\n";
  for (const auto& creator : dataset.creators) {
    out += "  - name: " + yaml(creator.name) + "\n";
    if (!creator.affiliation.empty()) {
      out += "    affiliation: " + yaml(creator.affiliation) + "\n";
    }
  }
  if (dataset.creators.empty()) {
    out += "  - name: \"LayerBench contributors\"\n";
  }
  return out;
}

} // namespace layerbench::dataset
