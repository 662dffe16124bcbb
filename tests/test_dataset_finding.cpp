// SPDX-License-Identifier: MIT
#include "dataset/finding.hpp"

#include "util/error.hpp"
#include "util/file.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

using namespace layerbench;

namespace {

// The published finding of issue 35 is the fixture: the reader must take what the data folder holds.
const std::filesystem::path k_finding = std::filesystem::path(LAYERBENCH_SOURCE_DIR) / "data/findings/dropout-bernoulli.json";

nlohmann::json finding_json()
{
  return nlohmann::json::parse(*util::read_file(k_finding));
}

std::string mutated_finding_error(const std::function<void(nlohmann::json&)>& change)
{
  auto json = finding_json();
  change(json);
  try {
    dataset::parse_finding(json.dump(), "finding.json");
  } catch (const Error& error) {
    return error.what();
  }
  FAIL("parsed without an error");
  return {};
}

} // namespace

TEST_CASE("dataset::parse_finding")
{
  SUBCASE("reads the published finding")
  {
    const auto finding = dataset::parse_finding(finding_json().dump(), k_finding.string());
    CHECK(finding.id == "dropout-bernoulli");
    CHECK(finding.layer == "Dropout");
    REQUIRE(finding.paths.size() == 2);
    CHECK(finding.paths[1].first == "mkl");
    REQUIRE(finding.releases.size() == 8);
    CHECK(finding.releases[1].torch_version == "2.0.1");
    CHECK(finding.releases[1].path == "mkl");
    CHECK(finding.releases[1].dataset == "cpu-epyc-2vcpu-torch-2-0-1@1");
    CHECK(finding.releases[1].cell_median_ms.at(32) == doctest::Approx(0.0122));
    REQUIRE(finding.releases[1].operator_alone);
    CHECK(finding.releases[1].operator_alone->cpu_ms_1_thread.size() == 2);
    CHECK_FALSE(finding.releases[4].operator_alone);
    CHECK_FALSE(finding.releases[4].operator_alone_note.empty());
    CHECK(finding.changes[1].reference == "https://github.com/pytorch/pytorch/pull/146174");
    CHECK(finding.changes[0].reference.empty());
  }
  SUBCASE("another format is refused by name")
  {
    CHECK(mutated_finding_error([](auto& j) { j["format"] = "layerbench-parity"; })
          == "finding.json: /format: expected \"layerbench-finding\"");
  }
  SUBCASE("a newer minor format version is too new, an older major too old")
  {
    CHECK(mutated_finding_error([](auto& j) { j["format_version"] = "1.1.0"; }).find("format version 1.1.0 is too new") != std::string::npos);
    CHECK(mutated_finding_error([](auto& j) { j["format_version"] = "0.9.0"; }).find("format version 0.9.0 is too old") != std::string::npos);
    CHECK(mutated_finding_error([](auto& j) { j["format_version"] = "one"; }).find("is not a MAJOR.MINOR.PATCH version") != std::string::npos);
  }
  SUBCASE("a release's path must be one the finding describes")
  {
    CHECK(mutated_finding_error([](auto& j) { j["releases"][2]["path"] = "vsl"; })
          == "finding.json: /releases/2/path: \"vsl\" is not one of the finding's /paths");
  }
  SUBCASE("errors name the field and the rule")
  {
    CHECK(mutated_finding_error([](auto& j) { j["releases"][0]["operator_share_of_cell"]["share"] = 1.5; })
          == "finding.json: /releases/0/operator_share_of_cell/share: expected a fraction from 0 to 1");
    CHECK(mutated_finding_error([](auto& j) { j["releases"][0]["cell_median_ms"]["b32"] = 0.1; })
          == "finding.json: /releases/0/cell_median_ms/b32: \"b32\" is not a batch size");
    CHECK(mutated_finding_error([](auto& j) { j["releases"][0]["extra"] = 1; }) == "finding.json: /releases/0/extra: unknown field");
    CHECK(mutated_finding_error([](auto& j) { j["releases"][1]["operator_alone"] = nullptr; })
          == "finding.json: /releases/1/operator_alone: null without an operator_alone_note saying why it was not timed");
    CHECK(mutated_finding_error([](auto& j) { j["releases"][1]["dataset"] = "cpu-epyc-v1"; }).find("/releases/1/dataset") != std::string::npos);
  }
}

TEST_CASE("dataset::check_finding")
{
  const auto finding = dataset::parse_finding(finding_json().dump(), k_finding.string());
  SUBCASE("its id is its file's name")
  {
    CHECK(dataset::check_finding(finding, k_finding, nullptr).empty());
    const auto found = dataset::check_finding(finding, "data/findings/other.json", nullptr);
    REQUIRE(found.size() == 1);
    CHECK(found[0] == "data/findings/other.json: /id: \"dropout-bernoulli\" differs from the file name");
  }
  SUBCASE("each release's dataset is in the catalog")
  {
    dataset::Catalog catalog;
    for (const auto& release : finding.releases) {
      const auto named = dataset::parse_reference(release.dataset, "dataset");
      if (named.id != "cpu-epyc-2vcpu-torch-2-9-1") {
        dataset::CatalogEntry entry;
        entry.id = named.id;
        entry.version = named.version;
        catalog.datasets.push_back(entry);
      }
    }
    const auto found = dataset::check_finding(finding, k_finding, &catalog);
    REQUIRE(found.size() == 1);
    CHECK(found[0] == k_finding.string() + ": /releases/4/dataset: cpu-epyc-2vcpu-torch-2-9-1@1 is not in the catalog");
  }
}
