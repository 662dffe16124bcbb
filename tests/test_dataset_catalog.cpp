// SPDX-License-Identifier: MIT
#include "dataset/catalog.hpp"

#include "dataset/io.hpp"
#include "dataset/rounds.hpp"
#include "dataset/validate.hpp"
#include "test_dataset_fixture.hpp"
#include "test_text.hpp"
#include "util/error.hpp"
#include "util/file.hpp"
#include "util/sha256.hpp"

#include <atomic>
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <thread>

using namespace layerbench;
using test::error_of;

namespace {

} // namespace

TEST_CASE("dataset::publish")
{
  test::TempFolder folder;
  dataset::PublishOptions options;
  options.data_dir = folder.path();
  options.forced = "test fixture: one round, built outside a checkout";
  const auto first = dataset::publish(test::measured(), options);

  SUBCASE("the first version: file, sha256 and catalog entry")
  {
    CHECK(first.version == 1);
    CHECK(first.path == "datasets/test-cpu-v1.json");
    CHECK(first.sha256 == util::sha256_hex(test::read_text(folder.path() / first.path)));
    CHECK(first.device == "Test CPU");
    CHECK(first.torch_version == "2.11.0");
    CHECK(first.cells == 4);
    const auto catalog = dataset::load_catalog(folder.path() / "catalog.json");
    REQUIRE(catalog.datasets.size() == 1);
    CHECK(catalog.featured == "test-cpu@1");
    CHECK(dataset::load(folder.path() / first.path).version == 1);
    CHECK(dataset::validate_file(folder.path() / first.path).empty());
    CHECK(dataset::validate_file(folder.path() / "catalog.json").empty());
  }
  SUBCASE("the next version replaces the latest and takes over as featured")
  {
    const auto second = dataset::publish(test::measured(), options);
    CHECK(second.version == 2);
    CHECK(second.replaces == "test-cpu@1");
    CHECK(dataset::load_catalog(folder.path() / "catalog.json").featured == "test-cpu@2");
  }
  SUBCASE("another id keeps the featured one unless asked")
  {
    options.id = "other-cpu";
    dataset::publish(test::measured(), options);
    CHECK(dataset::load_catalog(folder.path() / "catalog.json").featured == "test-cpu@1");
    options.feature = dataset::PublishOptions::Feature::make_featured;
    dataset::publish(test::measured(), options);
    CHECK(dataset::load_catalog(folder.path() / "catalog.json").featured == "other-cpu@2");
  }
  SUBCASE("never overwrites a file, and the catalog stays as it was")
  {
    test::write_text(folder.path() / "datasets/test-cpu-v2.json", "someone else's");
    const auto before = test::read_text(folder.path() / "catalog.json");
    CHECK(error_of([&] { dataset::publish(test::measured(), options); }).find("test-cpu-v2.json") != std::string::npos);
    CHECK(test::read_text(folder.path() / "datasets/test-cpu-v2.json") == "someone else's");
    CHECK(test::read_text(folder.path() / "catalog.json") == before);
  }
  SUBCASE("an invalid run is refused and nothing is written")
  {
    auto run = test::measured();
    run.results.pop_back();
    const auto message = error_of([&] { dataset::publish(run, options); });
    CHECK(message.find("not publishable") != std::string::npos);
    CHECK(message.find("Dropout at batch size 8") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(folder.path() / "datasets/test-cpu-v2.json"));
  }
  SUBCASE("bad options, named as the dataset layer knows them, never as command-line options")
  {
    options.id = "Not An Id";
    CHECK(error_of([&] { dataset::publish(test::measured(), options); }).rfind("\"Not An Id\" is not a dataset id", 0) == 0);
    options.id = "";
    options.replaces = "test-cpu@7";
    CHECK(error_of([&] { dataset::publish(test::measured(), options); }).rfind("it replaces test-cpu@7, which is not in", 0) == 0);
    options.replaces = "test-cpu";
    CHECK(error_of([&] { dataset::publish(test::measured(), options); }).rfind("replaces: ", 0) == 0);
    options.replaces = "";
    options.label = std::string(41, 'x');
    CHECK(error_of([&] { dataset::publish(test::measured(), options); })
          == "label \"" + std::string(41, 'x') + "\": a label is 1 to 40 characters, found 41");
  }
  SUBCASE("a title, a creator or a label the readers would refuse is refused before anything is written")
  {
    const auto before = test::read_text(folder.path() / "catalog.json");
    options.title = std::string(4097, 't');
    CHECK(error_of([&] { dataset::publish(test::measured(), options); })
          == "title: string of 4097 bytes exceeds the 4096-byte limit");
    options.title = "";
    options.creators = {{"Ada \xff", ""}};
    CHECK(error_of([&] { dataset::publish(test::measured(), options); }) == "creator \"Ada \xff\": not valid UTF-8");
    options.creators = {};
    options.label = "A100 \xc3";
    CHECK(error_of([&] { dataset::publish(test::measured(), options); }) == "label \"A100 \xc3\": not valid UTF-8");
    CHECK_FALSE(std::filesystem::exists(folder.path() / "datasets/test-cpu-v2.json"));
    CHECK(test::read_text(folder.path() / "catalog.json") == before);
    // The folder stays readable, and a retry with good text is version 2.
    options.label = "A100";
    options.title = std::string(4096, 't');
    CHECK(dataset::publish(test::measured(), options).version == 2);
    CHECK(dataset::validate_file(folder.path() / "catalog.json").empty());
  }
  SUBCASE("an id whose versions are of another device or kind is refused, naming the field")
  {
    auto epyc = test::measured();
    epyc.environment->device.name = "AMD EPYC 7B13";
    CHECK(error_of([&] { dataset::publish(epyc, options); })
          == "\"test-cpu\" continues test-cpu@1, whose device is \"Test CPU\" where this dataset's is \"AMD EPYC "
             "7B13\"; publish it under an id of its own (--id)");
    options.id = "epyc";
    dataset::publish(test::measured(), options);
    options.replaces = "epyc@1";
    options.id = "test-cpu";
    CHECK(error_of([&] { dataset::publish(epyc, options); }).rfind("\"test-cpu\" continues test-cpu@1, whose device", 0) == 0);
    options.id = "epyc-2";
    const auto moved = dataset::publish(test::measured(), options);
    CHECK(moved.replaces == "epyc@1");
    CHECK_FALSE(std::filesystem::exists(folder.path() / "datasets/test-cpu-v2.json"));
  }
  SUBCASE("the label: chosen, or derived from the device")
  {
    CHECK(first.label == "Test, 2 threads");
    options.label = "My laptop";
    const auto second = dataset::publish(test::measured(), options);
    CHECK(second.label == "My laptop");
    const auto catalog = dataset::load_catalog(folder.path() / "catalog.json");
    CHECK(catalog.datasets[1].label == "My laptop");
    CHECK(dataset::validate_file(folder.path() / "catalog.json").empty());
  }
  SUBCASE("validate catches an edit of a published file")
  {
    auto text = test::read_text(folder.path() / first.path);
    text.replace(text.find("Hand-made"), 9, "Hand-edit");
    test::write_text(folder.path() / first.path, text);
    const auto lines = dataset::validate_file(folder.path() / first.path);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].find("differs from the catalog's " + first.sha256) != std::string::npos);
    CHECK(lines[1].find("does not describe this file") != std::string::npos);
    // The catalog stands for the whole folder: the same lines.
    CHECK(dataset::validate_file(folder.path() / "catalog.json") == lines);
  }
}

TEST_CASE("dataset::publish concurrent")
{
  test::TempFolder folder;
  dataset::PublishOptions options;
  options.data_dir = folder.path();
  options.forced = "test fixture: one round, built outside a checkout";
  dataset::publish(test::measured(), options);
  SUBCASE("publishes from many threads at once all reach the catalog")
  {
    constexpr int k_threads = 12;
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int i = 0; i < k_threads; ++i) {
      threads.emplace_back([&, i] {
        auto mine = options;
        mine.id = "test-thread-" + std::to_string(i);
        try {
          dataset::publish(test::measured(), mine);
        } catch (const Error&) {
          ++failures;
        }
      });
    }
    for (auto& thread : threads) {
      thread.join();
    }
    CHECK(failures == 0);
    const auto catalog = dataset::load_catalog(folder.path() / "catalog.json");
    CHECK(catalog.datasets.size() == k_threads + 1);
    for (int i = 0; i < k_threads; ++i) {
      CHECK_MESSAGE(dataset::find_entry(catalog, "test-thread-" + std::to_string(i), 1), i);
    }
  }
}

TEST_CASE("dataset::publish_warnings")
{
  SUBCASE("a full, quiet run gives none")
  {
    const auto run = test::measured();
    CHECK(dataset::publish_warnings(run, &run).empty());
    CHECK(dataset::publish_warnings(run, nullptr).empty());
  }
  SUBCASE("a shard, skipped cells, missed noise targets and a smaller matrix are each named")
  {
    const auto featured = test::measured({"Linear", "Dropout"}, {1, 8, 32});
    auto run = test::measured({"Linear"}, {1, 8});
    run.methodology->shard = "1/2";
    run.results[0] = test::skipped_cell("Linear", 1, "out of memory");
    run.results[1].stats->noise_target_met = false;
    const auto warnings = dataset::publish_warnings(run, &featured);
    REQUIRE(warnings.size() == 4);
    CHECK(warnings[0] == "it measured shard 1/2 of its matrix only (join the shards with 'layerbench merge' first)");
    CHECK(warnings[1] == "1 of its 2 cells were skipped");
    CHECK(warnings[2] == "1 of its 1 timed cells missed their noise target (marked on the site)");
    CHECK(warnings[3].find("its matrix is partial: 1 layers x 2 batch sizes, where the featured dataset") == 0);
    CHECK(warnings[3].find("has 2 x 3") != std::string::npos);
  }
  SUBCASE("a dataset of whole models only is not called a partial matrix of layers")
  {
    const auto featured = test::measured({"Linear", "Dropout"}, {1, 8, 32});
    auto run = test::measured({"Linear"}, {1, 8});
    run.layers[0].kind = dataset::LayerKind::model;
    CHECK(dataset::publish_warnings(run, &featured).empty());
  }
}

TEST_CASE("dataset::parse_catalog")
{
  dataset::Catalog catalog;
  catalog.datasets.push_back(dataset::describe(test::measured(), std::string(64, 'a')));
  catalog.datasets[0].version = 1;
  catalog.datasets[0].path = "datasets/test-cpu-v1.json";
  catalog.featured = "test-cpu@1";
  const auto good = dataset::serialize(catalog);
  SUBCASE("round trip")
  {
    CHECK(dataset::serialize(dataset::parse_catalog(good, "catalog.json")) == good);
  }
  SUBCASE("errors name the pointer")
  {
    auto twice = catalog;
    twice.datasets.push_back(twice.datasets[0]);
    CHECK(error_of([&] { dataset::parse_catalog(dataset::serialize(twice), "c.json"); })
          == "c.json: /datasets/1: test-cpu@1 is listed twice");
    auto unknown = catalog;
    unknown.featured = "test-cpu@2";
    CHECK(error_of([&] { dataset::parse_catalog(dataset::serialize(unknown), "c.json"); })
          == "c.json: /featured: test-cpu@2 is not in the catalog");
    auto digest = catalog;
    digest.datasets[0].sha256 = "abc";
    CHECK(error_of([&] { dataset::parse_catalog(dataset::serialize(digest), "c.json"); })
          == "c.json: /datasets/0/sha256: expected 64 lowercase hex digits");
    auto path = catalog;
    path.datasets[0].path = "../elsewhere.json";
    CHECK(error_of([&] { dataset::parse_catalog(dataset::serialize(path), "c.json"); })
          == "c.json: /datasets/0/path: expected \"datasets/test-cpu-v1.json\"");
    CHECK(error_of([&] { dataset::parse_catalog("{\"schema_version\": \"1.0.0\"}", "c.json"); })
          == "c.json: not a layerbench catalog (no \"datasets\" at the top level)");
  }
  SUBCASE("the label round-trips, and a bad one is refused with its pointer")
  {
    auto labelled = catalog;
    labelled.datasets[0].label = "H100 SXM";
    const auto text = dataset::serialize(labelled);
    CHECK(text.find("\"label\": \"H100 SXM\"") != std::string::npos);
    CHECK(dataset::parse_catalog(text, "c.json").datasets[0].label == "H100 SXM");
    labelled.datasets[0].label = "";
    CHECK(error_of([&] { dataset::parse_catalog(dataset::serialize(labelled), "c.json"); })
          == "c.json: /datasets/0/label: a label is 1 to 40 characters, found 0");
    labelled.datasets[0].label = "two\nlines";
    CHECK(error_of([&] { dataset::parse_catalog(dataset::serialize(labelled), "c.json"); })
          == "c.json: /datasets/0/label: a label is one line without control characters");
  }
  SUBCASE("a 1.0.0 catalog, without labels, reads with labels derived from each device")
  {
    auto json = nlohmann::json::parse(good);
    json["schema_version"] = "1.0.0";
    json["datasets"][0].erase("label");
    json["datasets"][0]["device"] = "Intel(R) Xeon(R) Processor @ 2.20GHz";
    const auto read = dataset::parse_catalog(json.dump(), "c.json");
    CHECK(read.datasets[0].label == "Xeon");
    // Written back in the current form, with the derived label.
    CHECK(dataset::serialize(read).find("\"schema_version\": \"1.3.0\"") != std::string::npos);
    json["schema_version"] = "1.4.0";
    CHECK(error_of([&] { dataset::parse_catalog(json.dump(), "c.json"); })
          == "c.json: /schema_version: schema version 1.4.0 is too new; this layerbench reads 1.0.0 to 1.3.0 (upgrade layerbench)");
  }
  SUBCASE("a duplicate key is refused with its pointer")
  {
    auto text = good;
    text.replace(text.find("\"featured\""), 10, "\"featured\": \"test-cpu@1\", \"featured\"");
    CHECK(error_of([&] { dataset::parse_catalog(text, "c.json"); }) == "c.json: /featured: duplicate key \"featured\"");
  }
}

TEST_CASE("dataset::default_label")
{
  using dataset::Kind;
  SUBCASE("vendor, marks, CPU words, clock and brackets go; at most three words")
  {
    CHECK(dataset::default_label("NVIDIA H100 80GB HBM3", Kind::measured, "x") == "H100 80GB HBM3");
    CHECK(dataset::default_label("NVIDIA A100 (80GB)", Kind::published_reference, "x") == "A100 reference");
    CHECK(dataset::default_label("Intel(R) Xeon(R) Processor", Kind::measured, "x", 2) == "Xeon, 2 threads");
    CHECK(dataset::default_label("AMD EPYC 7B13 64-Core Processor", Kind::measured, "x", 1) == "EPYC 7B13 64-Core, 1 thread");
    CHECK(dataset::default_label("NVIDIA GeForce RTX 4090 Laptop GPU", Kind::measured, "x") == "RTX 4090 Laptop");
  }
  SUBCASE("no device: the id, cut to a label's length")
  {
    CHECK(dataset::default_label("", Kind::measured, "my-run") == "my-run");
    const auto long_id = std::string(60, 'a');
    CHECK(dataset::default_label("", Kind::published_reference, long_id) == std::string(30, 'a') + " reference");
    CHECK(dataset::label_problem(dataset::default_label("", Kind::measured, long_id, 16)).empty());
  }
  SUBCASE("from a dataset: a CPU run counts its threads, a GPU run does not")
  {
    auto run = test::measured();
    CHECK(dataset::default_label(run) == "Test, 2 threads");
    run.environment->device.type = "cuda";
    run.environment->device.name = "NVIDIA H100 80GB HBM3";
    CHECK(dataset::default_label(run) == "H100 80GB HBM3");
  }
}

TEST_CASE("dataset::parse_reference")
{
  SUBCASE("id@N")
  {
    const auto reference = dataset::parse_reference("a100-80gb-reference@12", "--replaces");
    CHECK(reference.id == "a100-80gb-reference");
    CHECK(reference.version == 12);
  }
  SUBCASE("malformed")
  {
    for (const char* bad : {"a100", "a100@", "a100@0", "a100@01", "A100@1", "@1", "a--b@1", "a100@1x"}) {
      CAPTURE(bad);
      CHECK_THROWS_AS(dataset::parse_reference(bad, "--replaces"), Error);
    }
  }
}

TEST_CASE("dataset::publish_refusals")
{
  // The fixture as a clean three-round run would leave it.
  const auto clean = [] {
    auto run = dataset::combine_rounds({{{1, "ok", "", 1, "", {}, {}, {}}, test::measured()},
                                        {{2, "ok", "", 2, "", {}, {}, {}}, test::measured()},
                                        {{3, "ok", "", 3, "", {}, {}, {}}, test::measured()}},
                                       7);
    run.provenance.git_commit = "0123456789abcdef0123456789abcdef01234567";
    run.environment->other_cores_busy = 0.05;
    return run;
  };
  SUBCASE("a clean, quiet run of three rounds is published as it is")
  {
    CHECK(dataset::publish_refusals(clean()).empty());
  }
  SUBCASE("a dirty tree, no checkout, a busy machine and a single round are each named")
  {
    auto run = clean();
    run.provenance.git_commit = "0123456789abcdef0123456789abcdef01234567-dirty";
    run.environment->other_cores_busy = 1.1;
    run.rounds.reset();
    for (auto& cell : run.results) {
      cell.rounds.clear();
      cell.round_spread.reset();
    }
    const auto refusals = dataset::publish_refusals(run);
    REQUIRE(refusals.size() == 3);
    CHECK(refusals[0].find("uncommitted changes (0123456789abcdef0123456789abcdef01234567-dirty)") != std::string::npos);
    CHECK(refusals[1] == "the machine was busy: other processes kept 1.10 cores busy on average while it measured");
    CHECK(refusals[2] == "it measured 1 round; publishing wants 3 or more (run --rounds 3)");
    run.provenance.git_commit = "unknown";
    CHECK(dataset::publish_refusals(run)[0] == "it was built outside a git checkout, so its source cannot be named");
  }
  SUBCASE("publish refuses such a run, and --force records its reason with what it overrode")
  {
    test::TempFolder folder;
    dataset::PublishOptions options;
    options.data_dir = folder.path();
    auto run = clean();
    run.environment->other_cores_busy = 0.9;
    const auto error = test::error_of([&] { dataset::publish(run, options); });
    CHECK(error.find("refused: the machine was busy") != std::string::npos);
    CHECK(error.find("--force REASON") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(folder.path() / "catalog.json"));
    options.forced = "the only GPU lease of the month";
    const auto entry = dataset::publish(run, options);
    const auto published = dataset::load(folder.path() / entry.path);
    CHECK(published.provenance.forced
          == "the only GPU lease of the month (overrode: the machine was busy: other processes kept 0.90 cores busy on "
             "average while it measured)");
  }
}
