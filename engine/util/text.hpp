// SPDX-License-Identifier: MIT
#pragma once

// Text from users and data files is text, never markup or code: the checks it passes where it enters
// and the quoting it gets where it is embedded in another language (a shell line, Markdown).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layerbench::util {

// One character of UTF-8 text: its code point and how many bytes encode it.
struct CodePoint
{
  char32_t value = 0;
  size_t length = 0;
};

// The character that starts at byte `at`; nullopt where the bytes there are not strict UTF-8 (an
// overlong form, a surrogate, a truncated sequence, a stray continuation byte).
std::optional<CodePoint> code_point_at(std::string_view text, size_t at);

// Strict UTF-8: no overlong forms (the old "%c0%ae" trick for '.'), no surrogates, nothing above
// U+10FFFF.
bool is_valid_utf8(const std::string& text);

// "U+001B", as messages name a character.
std::string code_point_name(char32_t value);

// C0 controls (a newline, an escape), DEL and C1 controls (U+0080 to U+009F): the characters a
// terminal may act on instead of showing.
bool is_control(char32_t value);

// Whether printable() keeps '\n' as a line break: a message of several lines (every failed rank on
// its own) keeps its shape; a single field of data never needs one.
enum class LineBreaks { escape, keep };

// `text` as a terminal shows it without acting on it: every control character (is_control) and every
// byte that is not UTF-8 written as \xNN, or \u0085 for a C1 control, the rest unchanged. Everything a
// message or an output line takes from data or a file goes through it, so that a dataset id of
// "\x1b]0;PWNED\x07" cannot retitle or clear the terminal that prints it. Printable text is unchanged,
// so escaping twice changes nothing.
std::string printable(std::string_view text, LineBreaks line_breaks = LineBreaks::escape);

// The items of a comma-separated list given to `option` ("--layers"). An empty list ("") and an empty
// item ("1,,8", "1,8,") are usage errors naming the option, never dropped in silence: an empty list
// must not fall back to a default matrix.
std::vector<std::string> comma_list(const std::string& text, const std::string& option);

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
