// SPDX-License-Identifier: MIT
#include "util/text.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

TEST_CASE("util::shell_quote")
{
  CHECK(util::shell_quote("--layers=Conv2d,LSTM") == "--layers=Conv2d,LSTM");
  CHECK(util::shell_quote("a b") == "'a b'");
  CHECK(util::shell_quote("it's") == "'it'\\''s'");
  CHECK(util::shell_quote("") == "''");
  CHECK(util::shell_quote("$HOME") == "'$HOME'");
}

TEST_CASE("util::markdown_escape")
{
  SUBCASE("a link, emphasis, raw HTML and an entity stay text")
  {
    CHECK(util::markdown_escape("[x](javascript:alert(1))") == "\\[x\\]\\(javascript\\:alert\\(1\\)\\)");
    CHECK(util::markdown_escape("*a* _b_ <b>&amp;") == "\\*a\\* \\_b\\_ \\<b\\>\\&amp\\;");
  }
  SUBCASE("a line break cannot start a block")
  {
    CHECK(util::markdown_escape("a\n# b\r\n- c") == "a \\# b  \\- c");
  }
  SUBCASE("letters, digits, spaces and UTF-8 pass unchanged")
  {
    CHECK(util::markdown_escape("H100 80GB HBM3 µs") == "H100 80GB HBM3 µs");
  }
}

TEST_CASE("util::is_valid_utf8")
{
  SUBCASE("ASCII and well-formed sequences")
  {
    CHECK(util::is_valid_utf8("plain"));
    CHECK(util::is_valid_utf8("\xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80"));
  }
  SUBCASE("a stray continuation byte, a truncated sequence, an overlong form, a surrogate")
  {
    CHECK_FALSE(util::is_valid_utf8("a\x80"));
    CHECK_FALSE(util::is_valid_utf8("\xe2\x82"));
    CHECK_FALSE(util::is_valid_utf8("\xc0\xae"));
    CHECK_FALSE(util::is_valid_utf8("\xed\xa0\x80"));
    CHECK_FALSE(util::is_valid_utf8("\xff"));
  }
}

TEST_CASE("util::control_character_at")
{
  CHECK_FALSE(util::control_character_at("one line, tab-free").has_value());
  CHECK(util::control_character_at("ab\ncd") == 2u);
  CHECK(util::control_character_at(std::string("\0x", 2)) == 0u);
  CHECK(util::control_character_at("del\x7f") == 3u);
}

TEST_CASE("util::markdown_code")
{
  SUBCASE("a plain name in single backticks")
  {
    CHECK(util::markdown_code("aten::mkldnn_convolution") == "`aten::mkldnn_convolution`");
  }
  SUBCASE("backticks inside get a longer fence, and padding where they touch it")
  {
    CHECK(util::markdown_code("a`b") == "``a`b``");
    CHECK(util::markdown_code("``x") == "``` ``x ```");
  }
  SUBCASE("a line break cannot end the span or start a block")
  {
    CHECK(util::markdown_code("a\n# b") == "`a # b`");
  }
}

TEST_CASE("util::shell_words")
{
  SUBCASE("what shell_quote writes reads back as the words it quoted")
  {
    const std::vector<std::string> words = {"layerbench", "it's", "a b", "", "$(x)", "--out=f.json"};
    std::string line;
    for (const auto& word : words) {
      line += (line.empty() ? "" : " ") + util::shell_quote(word);
    }
    CHECK(util::shell_words(line) == words);
  }
  SUBCASE("nothing is expanded; spaces and tabs separate")
  {
    CHECK(util::shell_words("a;b  $HOME\t`c`") == std::vector<std::string>{"a;b", "$HOME", "`c`"});
  }
  SUBCASE("an open quote or a trailing backslash")
  {
    CHECK_FALSE(util::shell_words("run --title 'open").has_value());
    CHECK_FALSE(util::shell_words("run \\").has_value());
  }
}
