// SPDX-License-Identifier: MIT
#include "util/text.hpp"

#include <algorithm>
#include <cstring>

namespace layerbench::util {

bool is_valid_utf8(const std::string& text)
{
  size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    size_t length = 0;
    unsigned long code = 0;
    unsigned long minimum = 0;
    if (lead < 0x80) {
      ++i;
      continue;
    }
    if ((lead & 0xE0) == 0xC0) {
      length = 2, code = lead & 0x1F, minimum = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
      length = 3, code = lead & 0x0F, minimum = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
      length = 4, code = lead & 0x07, minimum = 0x10000;
    } else {
      return false;
    }
    if (i + length > text.size()) {
      return false;
    }
    for (size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) {
        return false;
      }
      code = (code << 6) | (next & 0x3F);
    }
    if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      return false;
    }
    i += length;
  }
  return true;
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
