// SPDX-License-Identifier: MIT
#include "dataset/json_text.hpp"

#include "test_dataset_fixture.hpp"
#include "util/error.hpp"

#include <doctest/doctest.h>

#include <functional>

using namespace layerbench;
using test::error_of;

namespace {

std::string json_error(const std::string& text)
{
  return error_of([&] { dataset::parse_json(text, "x.json"); });
}

} // namespace

TEST_CASE("dataset::parse_json")
{
  SUBCASE("valid JSON parses as nlohmann does")
  {
    const auto json = dataset::parse_json(R"({"a": [1, {"b": "c"}], "d": {"a": 2}})", "x.json");
    CHECK(json["a"][1]["b"] == "c");
    CHECK(json["d"]["a"] == 2);
  }
  SUBCASE("a duplicate key at the top level names the key's pointer")
  {
    CHECK(json_error(R"({"title": "a", "title": "b"})") == "x.json: /title: duplicate key \"title\"");
  }
  SUBCASE("a duplicate key inside arrays and nested objects names the full pointer")
  {
    CHECK(json_error(R"({"results": [{"x": 1}, 7, [], {"stats": {"median_ms": 1, "p25_ms": 2, "median_ms": 3}}]})")
          == "x.json: /results/3/stats/median_ms: duplicate key \"median_ms\"");
  }
  SUBCASE("the same key in sibling objects is no duplicate")
  {
    CHECK_NOTHROW(dataset::parse_json(R"([{"a": {"k": 1}, "b": {"k": 2}}, {"a": 3}])", "x.json"));
  }
  SUBCASE("a duplicate key's pointer is escaped (RFC 6901)")
  {
    CHECK(json_error(R"({"a/b": {"c~d": 1, "c~d": 2}})") == "x.json: /a~1b/c~0d: duplicate key \"c~d\"");
  }
  SUBCASE("a string over 4096 bytes is refused with its pointer; 4096 bytes are fine")
  {
    const std::string at_limit(dataset::k_max_text_bytes, 'x');
    CHECK(dataset::parse_json("{\"title\": \"" + at_limit + "\"}", "x.json")["title"].get<std::string>().size() == 4096);
    CHECK(json_error("{\"title\": \"" + at_limit + "y\"}")
          == "x.json: /title: string of 4097 bytes exceeds the 4096-byte limit");
    CHECK(json_error("{\"notes\": [\"a\", \"" + std::string(200000, 'z') + "\"]}")
          == "x.json: /notes/1: string of 200000 bytes exceeds the 4096-byte limit");
  }
  SUBCASE("a key over 4096 bytes is refused too")
  {
    const std::string key(5000, 'k');
    CHECK(json_error("{\"" + key + "\": 1}") == "x.json: /" + key + ": string of 5000 bytes exceeds the 4096-byte limit");
  }
  SUBCASE("bad JSON names the origin")
  {
    CHECK(json_error("{\"a\": ").rfind("x.json: not valid JSON: ", 0) == 0);
    CHECK(json_error("[1e400]").find("number overflow") != std::string::npos);
  }
}

TEST_CASE("dataset::parse_ordered_json")
{
  SUBCASE("keeps the order of the keys")
  {
    const auto json = dataset::parse_ordered_json(R"({"b": 1, "a": 2})", "i.json");
    CHECK(json.begin().key() == "b");
  }
  SUBCASE("refuses a duplicate key as parse_json does")
  {
    CHECK(error_of([] { dataset::parse_ordered_json(R"({"inconsistencies": [{"kind": "a", "kind": "b"}]})", "i.json"); })
          == "i.json: /inconsistencies/0/kind: duplicate key \"kind\"");
  }
}
