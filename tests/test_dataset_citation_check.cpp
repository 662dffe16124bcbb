// SPDX-License-Identifier: MIT
#include "dataset/citation_check.hpp"

#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

TEST_CASE("dataset::valid_utc_time")
{
  SUBCASE("real UTC date-times")
  {
    CHECK(dataset::valid_utc_time("2026-11-22T04:05:07Z"));
    CHECK(dataset::valid_utc_time("2024-02-29T23:59:59Z"));
    CHECK(dataset::valid_utc_time("2000-02-29T00:00:00Z"));
  }
  SUBCASE("the right shape, but no such time (issue 36: 2026-13-45T99:99:99Z validated and published)")
  {
    for (const char* text : {"2026-13-45T99:99:99Z", "2026-00-10T00:00:00Z", "2026-04-31T00:00:00Z", "2026-02-29T00:00:00Z",
                             "1900-02-29T00:00:00Z", "2026-01-00T00:00:00Z", "2026-01-01T24:00:00Z",
                             "2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z"}) {
      CAPTURE(text);
      CHECK_FALSE(dataset::valid_utc_time(text));
    }
  }
  SUBCASE("not the shape")
  {
    CHECK_FALSE(dataset::valid_utc_time("yesterday"));
    CHECK_FALSE(dataset::valid_utc_time("2026-11-22T04:05:07+01:00"));
    CHECK_FALSE(dataset::valid_utc_time("2026-11-22 04:05:07Z"));
  }
}

TEST_CASE("dataset::citation_text_problem")
{
  SUBCASE("printable text of any script passes")
  {
    CHECK(dataset::citation_text_problem("H100 & friends: \"fp32\", µs, \xe2\x82\xac, \xf0\x9f\x98\x80") == "");
    CHECK(dataset::citation_text_problem("") == ""); // an empty title is validate's own rule
  }
  SUBCASE("C0 controls (NUL, ESC, \\x01), DEL and C1 controls, named by code point")
  {
    CHECK(dataset::citation_text_problem(std::string("ab\0c", 4))
          == "the control character U+0000 at character 2; a citation holds printable text only");
    CHECK(dataset::citation_text_problem("\x1b[2J") == "the control character U+001B at character 0; a citation holds printable text only");
    CHECK(dataset::citation_text_problem("a\x01") == "the control character U+0001 at character 1; a citation holds printable text only");
    CHECK(dataset::citation_text_problem("a\x7f") == "the control character U+007F at character 1; a citation holds printable text only");
    CHECK(dataset::citation_text_problem("\xc2\xb5\xc2\x85") == "the control character U+0085 at character 1; a citation holds printable text only");
    CHECK(dataset::citation_text_problem("a\tb").find("U+0009") != std::string::npos);
  }
  SUBCASE("noncharacters")
  {
    CHECK(dataset::citation_text_problem("x\xef\xbf\xbe") == "the noncharacter U+FFFE at character 1; a citation holds printable text only");
    CHECK(dataset::citation_text_problem("\xef\xbf\xbf").find("U+FFFF") != std::string::npos);
    CHECK(dataset::citation_text_problem("\xef\xb7\x90").find("U+FDD0") != std::string::npos);
    CHECK(dataset::citation_text_problem("\xf4\x8f\xbf\xbf").find("U+10FFFF") != std::string::npos);
  }
  SUBCASE("only white space")
  {
    CHECK(dataset::citation_text_problem("   ") == "only white space; give the text");
    CHECK(dataset::citation_text_problem("\xc2\xa0\xe3\x80\x80") == "only white space; give the text");
  }
  SUBCASE("not UTF-8")
  {
    CHECK(dataset::citation_text_problem("a\xff") == "not valid UTF-8 at byte 1");
  }
}

TEST_CASE("dataset::check_citation")
{
  auto d = test::measured();
  SUBCASE("the fixture's citation fields are fine")
  {
    CHECK(dataset::check_citation(d).empty());
  }
  SUBCASE("every citation field, named by its pointer")
  {
    d.created = "2026-13-45T99:99:99Z";
    d.title = " ";
    d.creators = {{"Ada\x7f", ""}, {"Alan", "\xef\xbf\xbe"}};
    dataset::Source source;
    source.title = "a\xc2\x9b" "b";
    d.provenance.source = source;
    const auto problems = dataset::check_citation(d);
    REQUIRE(problems.size() == 5);
    CHECK(problems[0].pointer == "/created");
    CHECK(problems[0].message == "\"2026-13-45T99:99:99Z\" is not a UTC time like 2026-11-22T04:05:07Z");
    CHECK(problems[1].pointer == "/title");
    CHECK(problems[1].message == "only white space; give the text");
    CHECK(problems[2].pointer == "/creators/0/name");
    CHECK(problems[2].message.find("U+007F") != std::string::npos);
    CHECK(problems[3].pointer == "/creators/1/affiliation");
    CHECK(problems[3].message.find("U+FFFE") != std::string::npos);
    CHECK(problems[4].pointer == "/provenance/source/title");
    CHECK(problems[4].message.find("U+009B") != std::string::npos);
  }
  SUBCASE("check, which validate and publish apply, reports them")
  {
    d.title = "Test\x1b]0;PWNED\x07";
    const auto problems = dataset::check(d);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].pointer == "/title");
    CHECK(problems[0].message.find("U+001B at character 4") != std::string::npos);
  }
}
