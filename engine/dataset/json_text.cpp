// SPDX-License-Identifier: MIT
#include "dataset/json_text.hpp"

#include "util/error.hpp"
#include "util/text.hpp"

#include <set>
#include <vector>

namespace layerbench::dataset {

namespace {

// RFC 6901: "~" and "/" inside a key are written "~0" and "~1".
std::string escaped(const std::string& key)
{
  std::string result;
  for (char c : key) {
    result += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  }
  return result;
}

// Follows the parser's events to know the pointer of the value being read: one frame per open
// object (its keys so far, the current one) or array (the index of the current element).
class PointerTracker
{
public:
  explicit PointerTracker(const std::string& origin) : m_origin(origin) {}

  template<typename BasicJson>
  bool on_event(nlohmann::json::parse_event_t event, const BasicJson& parsed)
  {
    using Event = nlohmann::json::parse_event_t;
    switch (event) {
    case Event::object_start:
      m_frames.push_back(Frame{Container::object, {}, {}, 0});
      break;
    case Event::array_start:
      m_frames.push_back(Frame{Container::array, {}, {}, 0});
      break;
    case Event::key:
      on_key(parsed.template get_ref<const std::string&>());
      break;
    case Event::value:
      if (parsed.is_string()) {
        check_length(parsed.template get_ref<const std::string&>());
      }
      next_element();
      break;
    case Event::object_end:
    case Event::array_end:
      m_frames.pop_back();
      next_element();
      break;
    }
    return true;
  }

private:
  enum class Container { object, array };

  struct Frame
  {
    Container container;
    std::set<std::string> keys;
    std::string key;
    size_t index;
  };

  void on_key(const std::string& key)
  {
    auto& frame = m_frames.back();
    frame.key = key;
    check_length(key);
    if (!frame.keys.insert(key).second) {
      fail("duplicate key \"" + key + "\"");
    }
  }

  void check_length(const std::string& text) const
  {
    const auto problem = text_length_problem(text);
    if (!problem.empty()) {
      fail(problem);
    }
  }

  // After a value: the enclosing array moves on to its next element.
  void next_element()
  {
    if (!m_frames.empty() && m_frames.back().container == Container::array) {
      ++m_frames.back().index;
    }
  }

  std::string pointer() const
  {
    std::string result;
    for (const auto& frame : m_frames) {
      result += "/" + (frame.container == Container::object ? escaped(frame.key) : std::to_string(frame.index));
    }
    return result.empty() ? "/" : result;
  }

  [[noreturn]] void fail(const std::string& what) const { throw Error(m_origin + ": " + pointer() + ": " + what); }

  const std::string& m_origin;
  std::vector<Frame> m_frames;
};

template<typename BasicJson>
BasicJson parse_checked(const std::string& text, const std::string& origin)
{
  PointerTracker tracker(origin);
  const typename BasicJson::parser_callback_t callback =
    [&tracker](int /*depth*/, nlohmann::json::parse_event_t event, BasicJson& parsed) {
      return tracker.on_event(event, parsed);
    };
  try {
    return BasicJson::parse(text, callback);
  } catch (const typename BasicJson::exception& error) {
    // parse_error, and out_of_range for a number beyond double such as 1e400 (found by fuzzing).
    throw Error(origin + ": not valid JSON: " + error.what());
  }
}

} // namespace

std::string text_length_problem(const std::string& text)
{
  if (text.size() <= k_max_text_bytes) {
    return "";
  }
  return "string of " + std::to_string(text.size()) + " bytes exceeds the " + std::to_string(k_max_text_bytes)
         + "-byte limit";
}

std::string text_problem(const std::string& text)
{
  return util::is_valid_utf8(text) ? text_length_problem(text) : "not valid UTF-8";
}

nlohmann::json parse_json(const std::string& text, const std::string& origin)
{
  return parse_checked<nlohmann::json>(text, origin);
}

nlohmann::ordered_json parse_ordered_json(const std::string& text, const std::string& origin)
{
  return parse_checked<nlohmann::ordered_json>(text, origin);
}

} // namespace layerbench::dataset
