// SPDX-License-Identifier: MIT
#pragma once

// Text from users and data files is text, never markup or code: the checks it passes where it enters
// and the quoting it gets where it is embedded in another language (a shell line, Markdown).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::util {

// Strict UTF-8: no overlong forms (the old "%c0%ae" trick for '.'), no surrogates, nothing above
// U+10FFFF.
bool is_valid_utf8(const std::string& text);

// The byte offset of the first C0 control character or DEL (a newline, a tab, an escape), if any.
std::optional<size_t> control_character_at(const std::string& text);

// Quoted for bash where it needs to be: 'it'\''s'.
std::string shell_quote(const std::string& word);

// The words of a line as a POSIX shell splits the quoting that shell_quote writes: single-quoted
// parts, backslash escapes, words apart at spaces; nothing is expanded or run. nullopt when a quote
// is left open or a backslash ends the line.
std::optional<std::vector<std::string>> shell_words(const std::string& line);

// Literal text inside CommonMark: every ASCII punctuation character backslash-escaped, so that no
// data becomes a link, an emphasis, raw HTML or an entity; line breaks become spaces, so that no data
// starts a block (a heading, a list, a code block).
std::string markdown_escape(const std::string& text);

// A CommonMark code span that shows `text` as it is: fenced by more backticks than any run inside it
// (backslashes do not escape in code), padded where text starts or ends with a space or a backtick;
// line breaks become spaces.
std::string markdown_code(const std::string& text);

} // namespace layerbench::util
