// SPDX-License-Identifier: MIT
#include "dataset/erratum.hpp"

#include "dataset/catalog.hpp"
#include "dataset/data_folder.hpp"
#include "test_dataset_fixture.hpp"
#include "util/file.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace layerbench;
using test::error_of;

namespace {

dataset::Erratum canary_erratum()
{
  return {dataset::WithdrawnField::peak_memory_bytes, "counts the canary's buffers", "2026-11-27", "0123abcd"};
}

} // namespace

TEST_CASE("dataset::erratum_problem")
{
  auto erratum = canary_erratum();
  SUBCASE("a complete erratum has none")
  {
    CHECK(dataset::erratum_problem(erratum).empty());
  }
  SUBCASE("each field's problem names the field")
  {
    erratum.reason.clear();
    CHECK(dataset::erratum_problem(erratum).rfind("reason: ", 0) == 0);
    erratum = canary_erratum();
    erratum.date = "2026-13-01";
    CHECK(dataset::erratum_problem(erratum) == "date: \"2026-13-01\" is not YYYY-MM-DD");
    erratum = canary_erratum();
    erratum.fixed_by = "HEAD";
    CHECK(dataset::erratum_problem(erratum) == "fixed_by: \"HEAD\" is not a commit (7 to 40 lowercase hex digits)");
  }
  SUBCASE("a field there is no withdrawing of")
  {
    CHECK(error_of([&] { dataset::parse_field_name("median_ms", "--withdraw", erratum); })
          == "--withdraw: \"median_ms\" is not a field an erratum can withdraw (there is: peak_memory_bytes, "
             "environment.peaks.compute.PRECISION)");
    CHECK_THROWS(dataset::parse_field_name("environment.peaks.compute.", "--withdraw", erratum));
  }
  SUBCASE("a compute peak is spelled by its precision, and read back")
  {
    dataset::parse_field_name("environment.peaks.compute.fp32", "--withdraw", erratum);
    CHECK(erratum.field == dataset::WithdrawnField::compute_peak);
    CHECK(erratum.precision == "fp32");
    CHECK(dataset::field_name(erratum) == "environment.peaks.compute.fp32");
    const std::vector<dataset::Erratum> errata{canary_erratum(), erratum};
    CHECK(dataset::withdrawn_peak(errata, "fp32") == &errata[1]);
    CHECK(!dataset::withdrawn_peak(errata, "bf16"));
    dataset::parse_field_name("peak_memory_bytes", "--withdraw", erratum);
    CHECK(dataset::field_name(erratum) == "peak_memory_bytes");
  }
}

TEST_CASE("dataset::record_erratum")
{
  test::TempFolder folder;
  dataset::PublishOptions options;
  options.data_dir = folder.path();
  options.forced = "test fixture: one round, built outside a checkout";
  const auto first = dataset::publish(test::measured(), options);
  const auto bytes = *util::read_file(folder.path() / first.path);

  SUBCASE("the catalog records it beside the version; the file is untouched and reads back")
  {
    dataset::record_erratum(folder.path(), "test-cpu@1", canary_erratum());
    const auto catalog = dataset::load_catalog(folder.path() / "catalog.json");
    REQUIRE(catalog.datasets.size() == 1);
    const auto& errata = catalog.datasets[0].errata;
    REQUIRE(errata.size() == 1);
    CHECK(errata[0].field == dataset::WithdrawnField::peak_memory_bytes);
    CHECK(errata[0].reason == "counts the canary's buffers");
    CHECK(errata[0].date == "2026-11-27");
    CHECK(errata[0].fixed_by == "0123abcd");
    CHECK(*util::read_file(folder.path() / first.path) == bytes);
    CHECK(dataset::DataFolder::load(folder.path()).datasets().size() == 1);
  }
  SUBCASE("a version measured again and published anew carries no erratum; the old one keeps its own")
  {
    dataset::record_erratum(folder.path(), "test-cpu@1", canary_erratum());
    const auto second = dataset::publish(test::measured(), options);
    CHECK(second.version == 2);
    CHECK(second.errata.empty());
    const auto catalog = dataset::load_catalog(folder.path() / "catalog.json");
    CHECK(dataset::find_entry(catalog, "test-cpu", 1)->errata.size() == 1);
    CHECK(dataset::find_entry(catalog, "test-cpu", 2)->errata.empty());
    CHECK(catalog.featured == "test-cpu@2");
  }
  SUBCASE("a version the catalog does not list, or a field already withdrawn, is refused by name")
  {
    CHECK(error_of([&] { dataset::record_erratum(folder.path(), "test-cpu@2", canary_erratum()); })
          == "test-cpu@2 is not in " + (folder.path() / "catalog.json").string());
    dataset::record_erratum(folder.path(), "test-cpu@1", canary_erratum());
    CHECK(error_of([&] { dataset::record_erratum(folder.path(), "test-cpu@1", canary_erratum()); })
          == "test-cpu@1: its peak_memory_bytes is already withdrawn by an erratum");
  }
  SUBCASE("an erratum with a problem is refused before the catalog is read")
  {
    auto erratum = canary_erratum();
    erratum.date = "today";
    CHECK(error_of([&] { dataset::record_erratum(folder.path(), "test-cpu@1", erratum); })
          == "erratum for test-cpu@1: date: \"today\" is not YYYY-MM-DD");
  }
}

TEST_CASE("dataset::parse_catalog errata")
{
  test::TempFolder folder;
  dataset::Catalog catalog;
  dataset::CatalogEntry entry;
  entry.id = "test-cpu";
  entry.version = 1;
  entry.title = "T";
  entry.label = "Test";
  entry.device = "Test CPU";
  entry.torch_version = "2.11.0";
  entry.created = "2026-11-22T04:05:07Z";
  entry.sha256 = std::string(64, 'a');
  entry.path = dataset::dataset_path(entry.id, entry.version);
  entry.errata = {canary_erratum()};
  catalog.datasets.push_back(entry);
  const auto text = dataset::serialize(catalog);

  SUBCASE("written and read back alike")
  {
    const auto read = dataset::parse_catalog(text, "catalog.json");
    REQUIRE(read.datasets[0].errata.size() == 1);
    CHECK(read.datasets[0].errata[0].fixed_by == "0123abcd");
    CHECK(dataset::serialize(read) == text);
  }
  SUBCASE("a bad erratum names its pointer and field")
  {
    auto json = nlohmann::json::parse(text);
    json["datasets"][0]["errata"][0]["date"] = "27/11/2026";
    CHECK(error_of([&] { dataset::parse_catalog(json.dump(), "catalog.json"); })
          == "catalog.json: /datasets/0/errata/0: date: \"27/11/2026\" is not YYYY-MM-DD");
    json = nlohmann::json::parse(text);
    json["datasets"][0]["errata"].push_back(json["datasets"][0]["errata"][0]);
    CHECK(error_of([&] { dataset::parse_catalog(json.dump(), "catalog.json"); })
          == "catalog.json: /datasets/0/errata/1: peak_memory_bytes is withdrawn twice");
  }
  SUBCASE("a peak's erratum beside a memory erratum is written and read back; the same peak twice is refused")
  {
    dataset::Erratum peak{dataset::WithdrawnField::compute_peak, "the peak was a median", "2026-11-28", "3427e8c", "fp32"};
    catalog.datasets[0].errata.push_back(peak);
    const auto both = dataset::serialize(catalog);
    CHECK(both.find("\"field\": \"environment.peaks.compute.fp32\"") != std::string::npos);
    const auto read = dataset::parse_catalog(both, "catalog.json");
    REQUIRE(read.datasets[0].errata.size() == 2);
    CHECK(read.datasets[0].errata[1].precision == "fp32");
    auto json = nlohmann::json::parse(both);
    json["datasets"][0]["errata"].push_back(json["datasets"][0]["errata"][1]);
    CHECK(error_of([&] { dataset::parse_catalog(json.dump(), "catalog.json"); })
          == "catalog.json: /datasets/0/errata/2: environment.peaks.compute.fp32 is withdrawn twice");
  }
  SUBCASE("an entry without errata is written without the field, as before 1.2.0")
  {
    catalog.datasets[0].errata.clear();
    CHECK(dataset::serialize(catalog).find("errata") == std::string::npos);
  }
}
