// SPDX-License-Identifier: MIT
#include "dataset/inconsistencies.hpp"

#include "test_dataset_fixture.hpp"
#include "util/error.hpp"

#include <doctest/doctest.h>
#include <functional>
#include <nlohmann/json.hpp>

using namespace layerbench;
using test::error_of;

namespace {

// A small file of each kind; the numbers are test inputs.
nlohmann::ordered_json good_file()
{
  return nlohmann::ordered_json::parse(R"json({
    "format": "layerbench-inconsistencies",
    "format_version": "1.0.0",
    "about": "test",
    "reference": {"dataset": "test-reference@1", "path": "datasets/test-reference-v1.json",
                  "sha256": "0000000000000000000000000000000000000000000000000000000000000000"},
    "ours": {"source": "layerbench layers --format json", "tool_version": "0.1.0"},
    "generated_by": "by hand",
    "conventions": ["one", "two"],
    "inconsistencies": [
      {"kind": "params_differ_from_pytorch", "layer": "LSTM", "config": "LSTM(512,256)", "page": 7, "pytorch": 9,
       "pytorch_source": "params_counted"},
      {"kind": "flops_differ_from_page_formula", "layer": "Conv2d", "config": "Conv2d(64,128,3)", "formula": "2 * C",
       "bindings": {"K": 3, "C": 64}, "page": 242000000.0, "formula_value": 128, "page_over_formula": null,
       "note": "a note"},
      {"kind": "claim_differs_from_table", "claim": "X is fastest", "where": "FAQ", "claimed": "X",
       "table": {"8": "Y", "32": "Z", "128": "Y"}, "computation": "Y 1 ms < X 2 ms"}
    ]
  })json");
}

std::string inconsistencies_error(const nlohmann::ordered_json& json)
{
  return error_of([&] { dataset::parse_inconsistencies(json.dump(), "i.json"); });
}

} // namespace

TEST_CASE("dataset::parse_inconsistencies")
{
  auto json = good_file();
  SUBCASE("a good file, each kind with its own fields")
  {
    const auto file = dataset::parse_inconsistencies(json.dump(), "i.json");
    CHECK(file.reference == "test-reference@1");
    CHECK(file.reference_path == "datasets/test-reference-v1.json");
    CHECK(file.conventions == std::vector<std::string>{"one", "two"});
    REQUIRE(file.items.size() == 3);
    CHECK(file.items[0].kind == dataset::InconsistencyKind::params_differ_from_pytorch);
    CHECK(file.items[0].page == 7);
    CHECK(file.items[0].pytorch == 9);
    CHECK(file.items[1].kind == dataset::InconsistencyKind::flops_differ_from_page_formula);
    REQUIRE(file.items[1].bindings.size() == 2);
    CHECK(file.items[1].bindings[1].first == "C"); // the file's order, not sorted
    CHECK_FALSE(file.items[1].page_over_formula.has_value());
    CHECK(file.items[1].note == "a note");
    CHECK(file.items[2].layer.empty());
    CHECK(file.items[2].claimed.text == "X");
    REQUIRE(file.items[2].table.by_key.size() == 3);
    CHECK(file.items[2].table.by_key[1] == std::make_pair(std::string("32"), std::string("Z"))); // not "128"
  }
  SUBCASE("an unknown field is refused with its pointer")
  {
    json["inconsistencies"][0]["colour"] = "red";
    CHECK(inconsistencies_error(json) == "i.json: /inconsistencies/0/colour: unknown field");
  }
  SUBCASE("a field of another kind is refused")
  {
    json["inconsistencies"][0]["formula"] = "2 * C";
    CHECK(inconsistencies_error(json) == "i.json: /inconsistencies/0/formula: unknown field");
  }
  SUBCASE("a missing field is refused with its pointer")
  {
    json["inconsistencies"][0].erase("pytorch");
    CHECK(inconsistencies_error(json) == "i.json: /inconsistencies/0/pytorch: missing required field");
    json = good_file();
    json["reference"].erase("sha256");
    CHECK(inconsistencies_error(json) == "i.json: /reference/sha256: missing required field");
  }
  SUBCASE("a kind it does not know is refused")
  {
    json["inconsistencies"][1]["kind"] = "memory_differs";
    CHECK(inconsistencies_error(json).rfind("i.json: /inconsistencies/1/kind: \"memory_differs\" is not one of", 0) == 0);
  }
  SUBCASE("a mistyped value is refused")
  {
    json["inconsistencies"][0]["page"] = 7.5; // parameter counts are whole numbers
    CHECK(inconsistencies_error(json) == "i.json: /inconsistencies/0/page: expected an integer, found number");
    json = good_file();
    json["inconsistencies"][1]["bindings"]["C"] = "64";
    CHECK(inconsistencies_error(json) == "i.json: /inconsistencies/1/bindings/C: expected a number, found string");
    json = good_file();
    json["inconsistencies"][2]["table"]["8"] = 3;
    CHECK(inconsistencies_error(json) == "i.json: /inconsistencies/2/table/8: expected a string, found number");
  }
  SUBCASE("a format version too new or too old is named so")
  {
    json["format_version"] = "1.2.0";
    CHECK(inconsistencies_error(json) == "i.json: /format_version: format version 1.2.0 is too new; this layerbench reads 1.0.0 to "
                               "1.1.0 (upgrade layerbench)");
    json["format_version"] = "2.0.0";
    CHECK(inconsistencies_error(json).find("too new") != std::string::npos);
    json["format_version"] = "0.9.0";
    CHECK(inconsistencies_error(json) == "i.json: /format_version: format version 0.9.0 is too old; this layerbench reads 1.0.0 to 1.1.0");
  }
  SUBCASE("another format, or none, is refused")
  {
    json["format"] = "layerbench-parity";
    CHECK(inconsistencies_error(json) == "i.json: /format: expected \"layerbench-inconsistencies\"");
    json.erase("format");
    CHECK(inconsistencies_error(json) == "i.json: /format: missing required field");
  }
  SUBCASE("the reference is named as ID@VERSION")
  {
    json["reference"]["dataset"] = "test-reference";
    CHECK(inconsistencies_error(json).rfind("i.json: /reference/dataset: \"test-reference\" is not ID@VERSION", 0) == 0);
  }
}
