// SPDX-License-Identifier: MIT
#include "util/text.hpp"

#include "util/error.hpp"

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

TEST_CASE("util::printable")
{
  SUBCASE("an OSC title and a screen clear are shown, not obeyed")
  {
    CHECK(util::printable("\x1b]0;PWNED\x07\x1b[2J") == "\\x1b]0;PWNED\\x07\\x1b[2J");
  }
  SUBCASE("NUL, a newline, DEL and a C1 control (CSI, U+009B)")
  {
    CHECK(util::printable(std::string("a\0b\nc\x7f" "d\xc2\x9b" "e", 10)) == "a\\x00b\\x0ac\\x7fd\\u009be");
  }
  SUBCASE("bytes that are not UTF-8 are escaped one by one")
  {
    CHECK(util::printable("a\xff\xe2\x82") == "a\\xff\\xe2\\x82");
  }
  SUBCASE("a message of several lines keeps its line breaks where asked, and only those")
  {
    CHECK(util::printable("rank 0: a\nrank 1: \x1b[2J", util::LineBreaks::keep) == "rank 0: a\nrank 1: \\x1b[2J");
    CHECK(util::printable("a\r\n", util::LineBreaks::keep) == "a\\x0d\n");
  }
  SUBCASE("printable text and UTF-8 pass unchanged, so escaping twice changes nothing")
  {
    CHECK(util::printable("H100 80GB µs \xe2\x82\xac") == "H100 80GB µs \xe2\x82\xac");
    const auto once = util::printable("\x1b[2J\xc2\x85");
    CHECK(util::printable(once) == once);
  }
}

TEST_CASE("util::code_point_at")
{
  CHECK(util::code_point_at("a", 0)->value == U'a');
  CHECK(util::code_point_at("x\xef\xbf\xbe", 1)->value == 0xFFFE);
  CHECK(util::code_point_at("x\xef\xbf\xbe", 1)->length == 3u);
  CHECK_FALSE(util::code_point_at("\xc0\xae", 0));
  CHECK(util::code_point_name(0x7f) == "U+007F");
  CHECK(util::code_point_name(0x1F600) == "U+1F600");
}

TEST_CASE("util::comma_list")
{
  SUBCASE("items in order")
  {
    CHECK(util::comma_list("ResNet50,BertBase", "--layer-sum") == std::vector<std::string>{"ResNet50", "BertBase"});
    CHECK(util::comma_list("8", "--batch-sizes") == std::vector<std::string>{"8"});
  }
  SUBCASE("an empty list is a usage error naming the option, never the default matrix")
  {
    CHECK_THROWS_WITH_AS(util::comma_list("", "--layer-sum"),
                         "--layer-sum: the list is empty; give one item or more, comma-separated", UsageError);
  }
  SUBCASE("an empty item anywhere is a usage error")
  {
    for (const char* text : {",", "a,,b", "a,", ",a"}) {
      CHECK_THROWS_WITH_AS(util::comma_list(text, "--layers"),
                           ("--layers: '" + std::string(text) + "' has an empty item (two commas, or one at an end)").c_str(),
                           UsageError);
    }
  }
}
