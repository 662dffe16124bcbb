// SPDX-License-Identifier: MIT
#include "dataset/data_folder.hpp"

#include "dataset/io.hpp"
#include "dataset/validate.hpp"
#include "test_dataset_fixture.hpp"
#include "test_text.hpp"
#include "util/error.hpp"
#include "util/file.hpp"
#include "util/sha256.hpp"

#include <doctest/doctest.h>
#include <functional>
#include <nlohmann/json.hpp>

using namespace layerbench;
using test::error_of;

namespace {

// The measured fixture as a transcribed page would give it: medians only, a source, nothing of ours.
dataset::Dataset reference_run()
{
  auto run = test::measured();
  run.id = "test-reference";
  run.kind = dataset::Kind::published_reference;
  run.environment.reset();
  run.methodology.reset();
  dataset::Source source;
  source.title = "Test page";
  source.device = "NVIDIA A100 (80GB)";
  source.license = "CC BY 4.0";
  run.provenance.source = source;
  for (auto& cell : run.results) {
    cell.stats = dataset::Stats{};
    cell.stats->median_ms = 1.0;
  }
  return run;
}

std::string inconsistencies_text(const dataset::CatalogEntry& reference)
{
  nlohmann::ordered_json json = {
    {"format", "layerbench-inconsistencies"},
    {"format_version", "1.0.0"},
    {"about", "test"},
    {"reference", {{"dataset", dataset::reference(reference.id, reference.version)}, {"path", reference.path}, {"sha256", reference.sha256}}},
    {"ours", {{"source", "layerbench layers --format json"}, {"tool_version", "0.1.0"}}},
    {"generated_by", "by hand"},
    {"conventions", {"one"}},
    {"inconsistencies",
     {{{"kind", "params_differ_from_pytorch"}, {"layer", "Linear"}, {"config", "Linear()"}, {"page", 10}, {"pytorch", 12}, {"pytorch_source", "test"}}}}};
  return json.dump(2) + "\n";
}

// A published folder: a measured run (featured), a reference and the reference's inconsistencies.
struct PublishedFolder
{
  test::TempFolder folder;
  dataset::CatalogEntry measured;
  dataset::CatalogEntry reference;
  std::filesystem::path inconsistencies;

  PublishedFolder()
  {
    dataset::PublishOptions options;
    options.data_dir = folder.path();
    options.forced = "test fixture: one round, built outside a checkout";
    options.label = "Test box";
    measured = dataset::publish(test::measured(), options);
    options.label = "";
    reference = dataset::publish(reference_run(), options);
    inconsistencies = folder.path() / "reference/test-reference-inconsistencies.json";
    test::write_text(inconsistencies, inconsistencies_text(reference));
  }
};

} // namespace

TEST_CASE("dataset::DataFolder::load")
{
  PublishedFolder published;
  const auto& dir = published.folder.path();
  SUBCASE("a good folder: catalog, datasets with their bytes, labels, inconsistencies")
  {
    const auto folder = dataset::DataFolder::load(dir);
    CHECK(folder.has_catalog());
    REQUIRE(folder.datasets().size() == 2);
    CHECK(folder.datasets()[0].data.id == "test-cpu");
    CHECK(folder.datasets()[0].bytes == test::read_text(dir / "datasets/test-cpu-v1.json"));
    CHECK(folder.datasets()[0].entry.label == "Test box");
    CHECK(folder.datasets()[1].entry.label == "A100 reference");
    REQUIRE(folder.featured() != nullptr);
    CHECK(folder.featured()->data.id == "test-cpu");
    REQUIRE(folder.inconsistencies().size() == 1);
    CHECK(folder.inconsistencies()[0].items.size() == 1);
    std::vector<std::string> problems;
    dataset::DataFolder::load(dir, problems);
    CHECK(problems.empty());
  }
  SUBCASE("tampered bytes: one sha256 error naming the file")
  {
    auto text = test::read_text(dir / "datasets/test-cpu-v1.json");
    const auto at = text.find("\"median_ms\": 1.0");
    REQUIRE(at != std::string::npos);
    text.replace(at, 16, "\"median_ms\": 1.01"); // a valid edit the catalog entry cannot see
    test::write_text(dir / "datasets/test-cpu-v1.json", text);
    const auto file = (dir / "datasets/test-cpu-v1.json").string();
    std::vector<std::string> problems;
    dataset::DataFolder::load(dir, problems);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].rfind(file + ": sha256 " + util::sha256_hex(text) + " differs from the catalog's "
                            + published.measured.sha256, 0) == 0);
    CHECK(error_of([&] { dataset::DataFolder::load(dir); }) == problems[0]);
  }
  SUBCASE("inconsistencies computed from other bytes of the reference")
  {
    auto stale = published.reference;
    stale.sha256 = std::string(64, 'a');
    test::write_text(published.inconsistencies, inconsistencies_text(stale));
    CHECK(error_of([&] { dataset::DataFolder::load(dir); }).rfind(
            published.inconsistencies.string() + ": /reference/sha256: " + std::string(64, 'a') + " is not the catalog's", 0) == 0);
  }
  SUBCASE("inconsistencies of a dataset the catalog does not list")
  {
    auto other = published.reference;
    other.version = 9;
    test::write_text(published.inconsistencies, inconsistencies_text(other));
    CHECK(error_of([&] { dataset::DataFolder::load(dir); })
          == published.inconsistencies.string() + ": /reference/dataset: test-reference@9 is not in the catalog");
  }
  SUBCASE("an inconsistencies file that breaks its format names file and pointer")
  {
    auto json = nlohmann::ordered_json::parse(inconsistencies_text(published.reference));
    json["inconsistencies"][0]["pytorch_counts"] = 1;
    test::write_text(published.inconsistencies, json.dump());
    CHECK(error_of([&] { dataset::DataFolder::load(dir); })
          == published.inconsistencies.string() + ": /inconsistencies/0/pytorch_counts: unknown field");
  }
  SUBCASE("a listed file that is missing")
  {
    std::filesystem::remove(dir / "datasets/test-reference-v1.json");
    std::vector<std::string> problems;
    const auto folder = dataset::DataFolder::load(dir, problems);
    REQUIRE_FALSE(problems.empty());
    CHECK(problems[0].rfind((dir / "datasets/test-reference-v1.json").string() + ": ", 0) == 0);
    CHECK(folder.datasets().size() == 1);
  }
}

TEST_CASE("dataset::DataFolder::load without a catalog")
{
  test::TempFolder folder;
  SUBCASE("an empty folder has no datasets")
  {
    CHECK(error_of([&] { dataset::DataFolder::load(folder.path()); })
          == folder.path().string() + ": no datasets (neither catalog.json nor datasets/*.json)");
  }
  SUBCASE("datasets/*.json, unpinned, labelled from their device")
  {
    auto run = test::measured();
    run.version = 1;
    test::write_text(folder.path() / "datasets/test-cpu-v1.json", dataset::serialize(run));
    const auto loaded = dataset::DataFolder::load(folder.path());
    CHECK_FALSE(loaded.has_catalog());
    REQUIRE(loaded.datasets().size() == 1);
    CHECK(loaded.datasets()[0].entry.label == "Test, 2 threads");
  }
}

TEST_CASE("dataset::validate_file on a data folder")
{
  PublishedFolder published;
  const auto& dir = published.folder.path();
  SUBCASE("the reference's inconsistencies are checked, alone or with the catalog")
  {
    CHECK(dataset::validate_file(published.inconsistencies).empty());
    CHECK(dataset::validate_file(dir / "catalog.json").empty());
    auto stale = published.reference;
    stale.path = "datasets/elsewhere-v1.json";
    test::write_text(published.inconsistencies, inconsistencies_text(stale));
    const auto lines = dataset::validate_file(published.inconsistencies);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0] == published.inconsistencies.string()
                        + ": /reference/path: \"datasets/elsewhere-v1.json\" where the catalog has \"datasets/test-reference-v1.json\"");
    CHECK(dataset::validate_file(dir / "catalog.json") == lines);
  }
  SUBCASE("a version too new is named so")
  {
    auto json = nlohmann::ordered_json::parse(inconsistencies_text(published.reference));
    json["format_version"] = "2.0.0";
    test::write_text(published.inconsistencies, json.dump());
    const auto lines = dataset::validate_file(published.inconsistencies);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].rfind(published.inconsistencies.string() + ": /format_version: format version 2.0.0 is too new", 0) == 0);
  }
}

TEST_CASE("dataset::DataFolder::catalog_file")
{
  SUBCASE("the catalog's name, and the lock publish holds beside it")
  {
    CHECK(dataset::DataFolder::catalog_file("data") == std::filesystem::path("data/catalog.json"));
    CHECK(dataset::DataFolder::catalog_lock_file("data") == std::filesystem::path("data/.catalog.json.lock"));
  }
  SUBCASE("a file is the catalog by its name")
  {
    CHECK(dataset::DataFolder::is_catalog_file("somewhere/catalog.json"));
    CHECK(dataset::DataFolder::is_catalog_file("catalog.json"));
    CHECK_FALSE(dataset::DataFolder::is_catalog_file("data/datasets/catalog.json.bak"));
  }
  SUBCASE("a folder holds a catalog once something is published into it")
  {
    test::TempFolder folder;
    CHECK_FALSE(dataset::DataFolder::holds_catalog(folder.path()));
    dataset::PublishOptions options;
    options.data_dir = folder.path();
    options.forced = "test fixture: one round, built outside a checkout";
    dataset::publish(test::measured(), options);
    CHECK(dataset::DataFolder::holds_catalog(folder.path()));
    CHECK(std::filesystem::exists(folder.path() / "catalog.json"));
  }
}

TEST_CASE("dataset::unlisted_files")
{
  PublishedFolder published;
  const auto& dir = published.folder.path();
  dataset::PublishOptions options;
  options.data_dir = dir;
  options.forced = "test fixture: one round, built outside a checkout";
  const auto catalog = dir / "catalog.json";
  // Spelt out, so that the test reads the message as a user would.
  const auto unlisted = [&](const std::string& name) {
    return (dir / "datasets" / name).string() + ": has no entry in " + catalog.string() + " (a publish that stopped "
           "before writing the catalog leaves such a file): run that publish again, which completes it when the file "
           "is the one it writes, byte for byte; else remove the file";
  };
  SUBCASE("a dataset file without its catalog entry: validate of the folder names it and how to recover")
  {
    test::write_text(dir / "datasets/test-cpu-v2.json", test::read_text(dir / "datasets/test-cpu-v1.json"));
    const auto lines = dataset::validate_file(catalog);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0] == unlisted("test-cpu-v2.json"));
    // Readers of the catalog are not stopped by it: they read only what it lists.
    CHECK(dataset::DataFolder::load(dir).datasets().size() == 2);
  }
  SUBCASE("publish refuses such a folder with the same message, and writes nothing")
  {
    test::write_text(dir / "datasets/other-cpu-v1.json", "left over");
    const auto before = test::read_text(catalog);
    CHECK(error_of([&] { dataset::publish(test::measured(), options); })
          == unlisted("other-cpu-v1.json"));
    CHECK(test::read_text(catalog) == before);
    CHECK_FALSE(std::filesystem::exists(dir / "datasets/test-cpu-v2.json"));
  }
  SUBCASE("the same publish again completes one that stopped before writing the catalog")
  {
    const auto before = test::read_text(catalog);
    const auto written = dataset::publish(test::measured(), options);
    const auto bytes = test::read_text(dir / written.path);
    test::write_text(catalog, before); // as if it had stopped between the file and the catalog
    REQUIRE(dataset::validate_file(catalog).size() == 1);
    const auto again = dataset::publish(test::measured(), options);
    CHECK(again.version == written.version);
    CHECK(again.sha256 == written.sha256);
    CHECK(test::read_text(dir / again.path) == bytes);
    CHECK(dataset::validate_file(catalog).empty());
  }
  SUBCASE("a left-over file with other bytes where publish would write is refused, and kept")
  {
    test::write_text(dir / "datasets/test-cpu-v2.json", "someone else's");
    CHECK(error_of([&] { dataset::publish(test::measured(), options); })
          == unlisted("test-cpu-v2.json") + "; this publish would write other bytes");
    CHECK(test::read_text(dir / "datasets/test-cpu-v2.json") == "someone else's");
  }
}
