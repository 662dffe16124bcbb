// SPDX-License-Identifier: MIT
#include "dataset/validation.hpp"
#include "dataset/validate.hpp"

#include "test_dataset_fixture.hpp"
#include "util/error.hpp"
#include "util/file.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <nlohmann/json.hpp>

using namespace layerbench;

namespace {

const std::filesystem::path k_fixture_data = std::filesystem::path(LAYERBENCH_SOURCE_DIR) / "tests/fixtures/site/data";

nlohmann::json parity_json()
{
  return nlohmann::json::parse(*util::read_file(k_fixture_data / "validation/parity-fixture-cpu.json"));
}

std::string mutated_parity_error(const std::function<void(nlohmann::json&)>& change)
{
  auto json = parity_json();
  change(json);
  try {
    dataset::parse_parity(json.dump(), "parity.json");
  } catch (const Error& error) {
    return error.what();
  }
  FAIL("parsed without an error");
  return {};
}

} // namespace

TEST_CASE("dataset::parse_parity")
{
  SUBCASE("reads the fixture")
  {
    const auto parity = dataset::parse_parity(parity_json().dump(), "parity.json");
    CHECK(parity.id == "parity-fixture-cpu");
    CHECK(parity.targets.cell_ratio_high == doctest::Approx(1.05));
    CHECK(parity.summary.cells_within == 1);
    REQUIRE(parity.cells.size() == 3);
    CHECK_FALSE(parity.cells[1].within_target);
    CHECK(parity.cells[1].round_ratios.size() == 3);
  }
  SUBCASE("a newer minor format version is too new, an older major too old")
  {
    CHECK(mutated_parity_error([](auto& j) { j["format_version"] = "1.1.0"; }).find("format version 1.1.0 is too new") != std::string::npos);
    CHECK(mutated_parity_error([](auto& j) { j["format_version"] = "0.9.0"; }).find("format version 0.9.0 is too old") != std::string::npos);
  }
  SUBCASE("errors name the file and the JSON pointer")
  {
    CHECK(mutated_parity_error([](auto& j) { j["cells"][1]["ratio"] = "x"; }) == "parity.json: /cells/1/ratio: expected a number, found string");
    CHECK(mutated_parity_error([](auto& j) { j["targets"]["extra"] = 1; }) == "parity.json: /targets/extra: unknown field");
    CHECK(mutated_parity_error([](auto& j) { j.erase("summary"); }) == "parity.json: /summary: missing required field");
    CHECK(mutated_parity_error([](auto& j) { j["format"] = "other"; }).find("/format: expected \"layerbench-parity\"") != std::string::npos);
  }
  SUBCASE("a duplicate key is refused with its pointer")
  {
    auto text = parity_json().dump();
    text.replace(text.find("\"title\""), 7, "\"title\": \"x\", \"title\"");
    CHECK_THROWS_WITH_AS(dataset::parse_parity(text, "parity.json"), "parity.json: /title: duplicate key \"title\"", Error);
  }
}

TEST_CASE("dataset::load_parity_folder")
{
  SUBCASE("reads every file of data/validation")
  {
    CHECK(dataset::load_parity_folder(k_fixture_data).size() == 1);
  }
  SUBCASE("no folder, no files")
  {
    test::TempFolder folder;
    CHECK(dataset::load_parity_folder(folder.path()).empty());
  }
  SUBCASE("an id that is not the file name is an error")
  {
    test::TempFolder folder;
    test::write_text(folder.path() / "validation/other.json", parity_json().dump());
    CHECK_THROWS_WITH_AS(dataset::load_parity_folder(folder.path()), doctest::Contains("differs from the file name"), Error);
  }
}

TEST_CASE("dataset::validate_file parity")
{
  SUBCASE("a valid parity file is valid")
  {
    CHECK(dataset::validate_file(k_fixture_data / "validation/parity-fixture-cpu.json").empty());
  }
  SUBCASE("a broken one names its pointer")
  {
    test::TempFolder folder;
    auto json = parity_json();
    json["rounds"] = "three";
    test::write_text(folder.path() / "parity.json", json.dump());
    const auto problems = dataset::validate_file(folder.path() / "parity.json");
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].find("/rounds: expected an integer") != std::string::npos);
  }
}
