// SPDX-License-Identifier: MIT
#pragma once

// The strict JSON walker shared by the dataset and catalog readers: every problem becomes an Error
// naming the origin and the JSON pointer, and fields nobody asked for are errors.

#include "dataset/dataset.hpp"
#include "dataset/json_text.hpp"
#include "util/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace layerbench::dataset::detail {

using Json = nlohmann::json;

// Walks one JSON object, remembering its pointer, and insists that every field it was not asked
// for is an error: a typo in a hand-edited dataset must not pass silently.
class Reader
{
public:
  Reader(const Json& json, std::string pointer, const std::string& origin)
    : m_json(json), m_pointer(std::move(pointer)), m_origin(origin)
  {
    if (!m_json.is_object()) {
      fail(m_pointer, "expected an object, found " + std::string(m_json.type_name()));
    }
  }

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const
  {
    throw Error(m_origin + ": " + (pointer.empty() ? "/" : pointer) + ": " + what);
  }

  // RFC 6901: "~" and "/" inside a key are written "~0" and "~1".
  std::string at(const std::string& key) const
  {
    std::string escaped;
    for (char c : key) {
      escaped += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    }
    return m_pointer + "/" + escaped;
  }

  // An optional object that is absent or null.
  void allow_null(const std::string& key) { m_seen.insert(key); }

  bool has(const std::string& key) const { return m_json.contains(key) && !m_json.at(key).is_null(); }

  const Json& field(const std::string& key)
  {
    m_seen.insert(key);
    if (!m_json.contains(key)) {
      fail(at(key), "missing required field");
    }
    return m_json.at(key);
  }

  std::string text(const std::string& key)
  {
    const auto& value = field(key);
    if (!value.is_string()) {
      fail(at(key), "expected a string, found " + std::string(value.type_name()));
    }
    // parse_json() has already refused long strings in text; this covers a Json built in memory.
    const auto problem = text_length_problem(value.get_ref<const std::string&>());
    if (!problem.empty()) {
      fail(at(key), problem);
    }
    return value.get<std::string>();
  }

  std::string optional_text(const std::string& key)
  {
    m_seen.insert(key);
    return has(key) ? text(key) : std::string();
  }

  double number(const std::string& key)
  {
    const auto& value = field(key);
    if (!value.is_number()) {
      fail(at(key), "expected a number, found " + std::string(value.type_name()));
    }
    const double result = value.get<double>();
    if (!std::isfinite(result)) {
      fail(at(key), "number is not finite");
    }
    return result;
  }

  int64_t integer(const std::string& key)
  {
    const auto& value = field(key);
    if (!value.is_number_integer()) {
      fail(at(key), "expected an integer, found " + std::string(value.type_name()));
    }
    if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
      fail(at(key), "integer out of range");
    }
    return value.get<int64_t>();
  }

  int small_integer(const std::string& key)
  {
    const int64_t value = integer(key);
    if (value < INT32_MIN || value > INT32_MAX) {
      fail(at(key), "integer out of range");
    }
    return static_cast<int>(value);
  }

  bool boolean(const std::string& key)
  {
    const auto& value = field(key);
    if (!value.is_boolean()) {
      fail(at(key), "expected true or false, found " + std::string(value.type_name()));
    }
    return value.get<bool>();
  }

  template<typename T, typename Get>
  std::optional<T> optional(const std::string& key, Get get)
  {
    m_seen.insert(key);
    if (!has(key)) {
      return std::nullopt;
    }
    return (this->*get)(key);
  }

  Reader object(const std::string& key)
  {
    return Reader(field(key), at(key), m_origin);
  }

  const Json& array(const std::string& key)
  {
    const auto& value = field(key);
    if (!value.is_array()) {
      fail(at(key), "expected an array, found " + std::string(value.type_name()));
    }
    return value;
  }

  // Call last: every field must have been read.
  void done() const
  {
    for (const auto& item : m_json.items()) {
      if (m_seen.count(item.key()) == 0) {
        fail(at(item.key()), "unknown field");
      }
    }
  }

  const std::string& pointer() const { return m_pointer; }
  const std::string& origin() const { return m_origin; }

private:
  const Json& m_json;
  std::string m_pointer;
  const std::string& m_origin;
  std::set<std::string> m_seen;
};

// `key` holds "MAJOR.MINOR.PATCH"; a minor or major version outside [oldest, current] is "too old" or
// "too new", named as the key names it ("schema version", "format version").
inline SchemaVersion parse_version(Reader& reader, const SchemaVersion& oldest, const SchemaVersion& current,
                                   const std::string& key = "schema_version")
{
  const auto text = reader.text(key);
  std::string what = key;
  std::replace(what.begin(), what.end(), '_', ' ');
  SchemaVersion version{};
  char extra = 0;
  if (std::sscanf(text.c_str(), "%d.%d.%d%c", &version.major, &version.minor, &version.patch, &extra) != 3
      || version.major < 0 || version.minor < 0 || version.patch < 0) {
    reader.fail(reader.at(key), "\"" + text + "\" is not a MAJOR.MINOR.PATCH version");
  }
  const auto ours = to_string(current);
  if (version.major < oldest.major
      || (version.major == oldest.major && version.minor < oldest.minor)) {
    reader.fail(reader.at(key),
                what + " " + text + " is too old; this layerbench reads "
                    + to_string(oldest) + " to " + ours);
  }
  if (version.major > current.major
      || (version.major == current.major && version.minor > current.minor)) {
    reader.fail(reader.at(key),
                what + " " + text + " is too new; this layerbench reads "
                    + to_string(oldest) + " to " + ours + " (upgrade layerbench)");
  }
  return version;
}

template<typename Enum>
Enum parse_enum(Reader& reader,
                const std::string& key,
                std::initializer_list<std::pair<const char*, Enum>> choices)
{
  const auto text = reader.text(key);
  std::string allowed;
  for (const auto& [name, value] : choices) {
    if (text == name) {
      return value;
    }
    allowed += allowed.empty() ? std::string("\"") + name + "\"" : std::string(", \"") + name + "\"";
  }
  reader.fail(reader.at(key), "\"" + text + "\" is not one of " + allowed);
}

inline std::vector<std::string> text_list(Reader& reader, const std::string& key)
{
  std::vector<std::string> result;
  const auto& array = reader.array(key);
  for (size_t i = 0; i < array.size(); ++i) {
    if (!array[i].is_string()) {
      reader.fail(reader.at(key) + "/" + std::to_string(i), "expected a string");
    }
    const auto problem = text_length_problem(array[i].get_ref<const std::string&>());
    if (!problem.empty()) {
      reader.fail(reader.at(key) + "/" + std::to_string(i), problem);
    }
    result.push_back(array[i].get<std::string>());
  }
  return result;
}

// A number above zero (a median, a rate, a clock).
inline double positive_number(Reader& reader, const std::string& key)
{
  const double value = reader.number(key);
  if (!(value > 0)) {
    reader.fail(reader.at(key), "expected a positive number");
  }
  return value;
}

// Positive integers that fit T: batch sizes (int), byte counts (int64_t).
template<typename T = int>
std::vector<T> integer_list(Reader& reader, const std::string& key)
{
  std::vector<T> result;
  const auto& array = reader.array(key);
  for (size_t i = 0; i < array.size(); ++i) {
    if (!array[i].is_number_integer() || array[i].get<int64_t>() < 1
        || array[i].get<int64_t>() > static_cast<int64_t>(std::numeric_limits<T>::max())) {
      reader.fail(reader.at(key) + "/" + std::to_string(i), "expected a positive integer");
    }
    result.push_back(array[i].get<T>());
  }
  return result;
}

} // namespace layerbench::dataset::detail
