// SPDX-License-Identifier: MIT
#include "util/text.hpp"

#include "util/error.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace layerbench::util {

std::optional<CodePoint> code_point_at(std::string_view text, size_t at)
{
  const auto lead = static_cast<unsigned char>(text.at(at));
  size_t length = 0;
  char32_t code = 0;
  char32_t minimum = 0;
  if (lead < 0x80) {
    return CodePoint{lead, 1};
  }
  if ((lead & 0xE0) == 0xC0) {
    length = 2, code = lead & 0x1F, minimum = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, code = lead & 0x0F, minimum = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, code = lead & 0x07, minimum = 0x10000;
  } else {
    return std::nullopt;
  }
  if (at + length > text.size()) {
    return std::nullopt;
  }
  for (size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[at + k]);
    if ((next & 0xC0) != 0x80) {
      return std::nullopt;
    }
    code = (code << 6) | (next & 0x3F);
  }
  if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
    return std::nullopt;
  }
  return CodePoint{code, length};
}

bool is_valid_utf8(const std::string& text)
{
  for (size_t i = 0; i < text.size();) {
    const auto character = code_point_at(text, i);
    if (!character) {
      return false;
    }
    i += character->length;
  }
  return true;
}

std::string code_point_name(char32_t value)
{
  char name[16];
  std::snprintf(name, sizeof name, "U+%04X", static_cast<unsigned>(value));
  return name;
}

bool is_control(char32_t value)
{
  return value < 0x20 || (value >= 0x7f && value <= 0x9f);
}

std::string printable(std::string_view text, LineBreaks line_breaks)
{
  std::string out;
  out.reserve(text.size());
  char escape[8];
  for (size_t i = 0; i < text.size();) {
    const auto character = code_point_at(text, i);
    if (!character) {
      std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned char>(text[i]));
      out += escape;
      ++i;
      continue;
    }
    const bool kept = character->value == '\n' && line_breaks == LineBreaks::keep;
    if (is_control(character->value) && !kept) {
      std::snprintf(escape, sizeof escape, character->value < 0x80 ? "\\x%02x" : "\\u%04x",
                    static_cast<unsigned>(character->value));
      out += escape;
    } else {
      out.append(text.substr(i, character->length));
    }
    i += character->length;
  }
  return out;
}

std::vector<std::string> comma_list(const std::string& text, const std::string& option)
{
  if (text.empty()) {
    throw UsageError(option + ": the list is empty; give one item or more, comma-separated");
  }
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    const auto comma = std::min(text.find(',', start), text.size());
    if (comma == start) {
      throw UsageError(option + ": '" + printable(text) + "' has an empty item (two commas, or one at an end)");
    }
    items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

std::optional<size_t> control_character_at(const std::string& text)
{
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      return i;
    }
  }
  return std::nullopt;
}

std::string shell_quote(const std::string& word)
{
  const bool plain = !word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                             "0123456789@%+=:,./_-") == std::string::npos;
  if (plain) {
    return word;
  }
  std::string quoted = "'";
  for (char c : word) {
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return quoted + "'";
}

std::optional<std::vector<std::string>> shell_words(const std::string& line)
{
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t') {
      if (in_word) {
        words.push_back(word);
      }
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\') {
      if (++i == line.size()) {
        return std::nullopt;
      }
      word += line[i];
    } else if (c == '\'') {
      const size_t close = line.find('\'', i + 1);
      if (close == std::string::npos) {
        return std::nullopt;
      }
      word += line.substr(i + 1, close - i - 1);
      i = close;
    } else {
      word += c;
    }
  }
  if (in_word) {
    words.push_back(word);
  }
  return words;
}

std::string markdown_escape(const std::string& text)
{
  static const char* const k_punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      escaped += ' ';
      continue;
    }
    if (c != '\0' && std::strchr(k_punctuation, c) != nullptr) {
      escaped += '\\';
    }
    escaped += c;
  }
  return escaped;
}

std::string markdown_code(const std::string& text)
{
  std::string content;
  size_t run = 0;
  size_t longest = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    content += c == '\n' || c == '\r' ? ' ' : c;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !content.empty() && (content.front() == ' ' || content.front() == '`' || content.back() == ' '
                                        || content.back() == '`');
  const std::string space = pad ? " " : "";
  return fence + space + content + space + fence;
}

} // namespace layerbench::util
