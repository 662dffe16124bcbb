// SPDX-License-Identifier: MIT
#include "catalog/suite.hpp"

#include "catalog/catalog.hpp"
#include "catalog/user_shapes.hpp"
#include "dataset/json_text.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace layerbench::bench {

namespace {

using Json = nlohmann::ordered_json;

std::string read_file(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error("suite " + util::printable(path) + ": cannot be read (give a suite file's path, or '" + k_reference_suite + "' or '" + k_today_suite + "')");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<double> values_of(const Json& value, const std::string& at)
{
  std::vector<double> out;
  const auto add = [&](const Json& item) {
    if (!item.is_number()) {
      throw Error(at + ": expected a number or a list of numbers, found " + std::string(item.type_name()));
    }
    out.push_back(item.get<double>());
  };
  if (value.is_array()) {
    if (value.empty()) {
      throw Error(at + ": an empty list");
    }
    for (const auto& item : value) {
      add(item);
    }
  } else {
    add(value);
  }
  return out;
}

ShapeSweep read_entry(const Json& entry, const std::string& at)
{
  if (!entry.is_object()) {
    throw Error(at + ": expected an object");
  }
  for (const auto& item : entry.items()) {
    if (item.key() != "layer" && item.key() != "parameters" && item.key() != "tags") {
      throw Error(at + "/" + item.key() + ": unknown field (an entry has layer, parameters and tags)");
    }
  }
  if (!entry.contains("layer") || !entry["layer"].is_string()) {
    throw Error(at + "/layer: a layer's name is required");
  }
  ShapeSweep sweep{entry["layer"].get<std::string>(), {}, {}};
  if (entry.contains("parameters")) {
    const auto& parameters = entry["parameters"];
    if (!parameters.is_object()) {
      throw Error(at + "/parameters: expected an object of parameter: value or [values]");
    }
    for (const auto& item : parameters.items()) {
      auto values = values_of(item.value(), at + "/parameters/" + item.key());
      if (item.value().is_array()) {
        sweep.axes.push_back({item.key(), std::move(values)});
      } else {
        sweep.fixed.push_back({item.key(), values.front()});
      }
    }
  }
  return sweep;
}

std::vector<std::string> tags_of(const Json& entry, const std::string& at)
{
  std::vector<std::string> tags;
  if (!entry.contains("tags")) {
    return tags;
  }
  if (!entry["tags"].is_array()) {
    throw Error(at + "/tags: expected a list of words");
  }
  for (const auto& tag : entry["tags"]) {
    if (!tag.is_string()) {
      throw Error(at + "/tags: expected a list of words");
    }
    tags.push_back(tag.get<std::string>());
  }
  return tags;
}

// A built-in suite has no tags to select by.
void require_no_tags(const std::string& suite, const std::vector<std::string>& tags)
{
  if (!tags.empty()) {
    throw Error("suite " + suite + ": a built-in suite has no tags; give --tags with a suite file");
  }
}

} // namespace

std::vector<std::string> suite_layers(const std::string& suite, const std::vector<std::string>& tags)
{
  std::vector<std::string> names;
  if (suite == k_reference_suite || suite == k_today_suite) {
    require_no_tags(suite, tags);
    for (const auto& spec : suite == k_reference_suite ? catalog() : todays_layers()) {
      names.push_back(spec.name);
    }
    return names;
  }
  const auto json = dataset::parse_ordered_json(read_file(suite), "suite " + util::printable(suite));
  const std::string origin = "suite " + util::printable(suite) + ": ";
  if (!json.is_object() || json.value("format", "") != "layerbench-suite") {
    throw Error(origin + "not a suite file (its \"format\" is not \"layerbench-suite\")");
  }
  const auto version = json.value("version", "");
  if (version.rfind("1.", 0) != 0) {
    throw Error(origin + "version '" + version + "' is not one this layerbench reads (1.x)");
  }
  if (!json.contains("entries") || !json["entries"].is_array() || json["entries"].empty()) {
    throw Error(origin + "/entries: expected a non-empty list");
  }
  std::set<std::string> seen;
  std::set<std::string> all_tags;
  size_t index = 0;
  for (const auto& entry : json["entries"]) {
    const auto at = "/entries/" + std::to_string(index++);
    const auto entry_tags = tags_of(entry, origin + at);
    all_tags.insert(entry_tags.begin(), entry_tags.end());
    if (!tags.empty() && std::none_of(tags.begin(), tags.end(), [&](const std::string& tag) {
          return std::find(entry_tags.begin(), entry_tags.end(), tag) != entry_tags.end();
        })) {
      continue;
    }
    std::vector<std::string> expanded;
    try {
      const auto sweep = read_entry(entry, origin + at);
      expanded = sweep.fixed.empty() && sweep.axes.empty() ? std::vector<std::string>{find_layer(sweep.layer).name} : expand(sweep);
    } catch (const UsageError& error) {
      throw Error(origin + at + ": " + error.what());
    }
    for (auto& name : expanded) {
      if (!seen.insert(name).second) {
        throw Error(origin + at + ": '" + name + "' is in the suite twice");
      }
      names.push_back(std::move(name));
    }
  }
  if (names.empty()) {
    std::string known;
    for (const auto& tag : all_tags) {
      known += (known.empty() ? "" : ", ") + tag;
    }
    throw Error(origin + "no entry carries the tags asked for (its tags: " + (known.empty() ? "none" : known) + ")");
  }
  return names;
}

} // namespace layerbench::bench
