// SPDX-License-Identifier: MIT
// Whole models on the site: the one split that keeps them from the layer pages, the models pages'
// figures and sentences on the fixture (tests/fixtures/site/make_model_fixtures.py), and a models page
// without a measured model.
#include "site/view_pages.hpp"

#include "site/render.hpp"
#include "site/site_data.hpp"
#include "util/error.hpp"
#include "util/file.hpp"

#include "test_text.hpp"
#include "test_site_fixture.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace site = layerbench::site;
namespace test = layerbench::test;
using site::Data;

namespace {

using test::k_source;
using test::k_site_fixture_data;
const char* const k_models = "fixture-models";
const char* const k_model_reference = "fixture-models-reference";

fs::path models_scratch(const std::string& name)
{
  const fs::path path = fs::temp_directory_path() / ("layerbench-test-models-" + name);
  fs::remove_all(path);
  fs::create_directories(path);
  return path;
}

// A copy of the fixture's data folder without the datasets `dropped` (ids), in the catalog and on disk.
fs::path fixture_without(const std::vector<std::string>& dropped, const std::string& name)
{
  const fs::path data = models_scratch(name) / "data";
  fs::copy(k_site_fixture_data, data, fs::copy_options::recursive);
  auto catalog = nlohmann::ordered_json::parse(test::read_text(data / "catalog.json"));
  auto& entries = catalog["datasets"];
  for (auto it = entries.begin(); it != entries.end();) {
    if (std::find(dropped.begin(), dropped.end(), (*it)["id"].get<std::string>()) == dropped.end()) {
      ++it;
      continue;
    }
    fs::remove(data / (*it)["path"].get<std::string>());
    it = entries.erase(it);
  }
  const auto& first = entries.front();
  const std::string featured = catalog["featured"].get<std::string>();
  if (std::find(dropped.begin(), dropped.end(), featured.substr(0, featured.find('@'))) != dropped.end()) {
    catalog["featured"] = first["id"].get<std::string>() + "@" + std::to_string(first["version"].get<int>());
  }
  std::ofstream(data / "catalog.json", std::ios::binary) << catalog.dump(2) << "\n";
  return data;
}

fs::path render_into(const fs::path& data, const std::string& name)
{
  site::RenderOptions options;
  options.data_dir = data;
  options.templates_dir = k_source / "templates";
  options.out_dir = models_scratch(name) / "site";
  site::render(options);
  return options.out_dir;
}

std::map<std::string, std::string> pages_of(const fs::path& root)
{
  std::map<std::string, std::string> pages;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && entry.path().extension() == ".html") {
      pages[fs::relative(entry.path(), root).generic_string()] = test::read_text(entry.path());
    }
  }
  return pages;
}

// A page less its menu's link to the models pages, the only line a layer page gains from a model.
std::string without_models_link(std::string page)
{
  for (const std::string root : {"", "../"}) {
    const std::string line = "<li><a href=\"" + root + "models.html\">Models</a></li>\n";
    for (size_t at = page.find(line); at != std::string::npos; at = page.find(line)) {
      page.erase(at, line.size());
    }
  }
  return page;
}

site::SiteData fixture_site(const fs::path& data = k_site_fixture_data)
{
  site::RenderOptions options;
  options.data_dir = data;
  return site::load_site_data(options);
}

Data page_of(const site::SiteData& data, const std::string& path)
{
  for (auto& page : site::build_pages(data)) {
    if (page.path == path) {
      return page.view;
    }
  }
  FAIL("no page " << path);
  return Data(false);
}

const Data& list_of(const Data& view, const std::string& key)
{
  const Data* value = view.get(key);
  REQUIRE(value != nullptr);
  REQUIRE(value->is_list());
  return *value;
}

std::vector<std::string> strings_of(const Data& list)
{
  std::vector<std::string> found;
  for (const auto& item : list.list_value()) {
    found.push_back(item.string_value());
  }
  return found;
}

bool contains(const std::vector<std::string>& texts, const std::string& text)
{
  return std::find(texts.begin(), texts.end(), text) != texts.end();
}

} // namespace

TEST_CASE("site::load_site_data splits models from layers")
{
  SUBCASE("datasets of models alone stay out of the layer datasets")
  {
    const auto data = fixture_site();
    std::vector<std::string> layer_ids;
    for (const auto& entry : data.datasets) {
      layer_ids.push_back(entry.data.id);
      for (const auto& layer : entry.data.layers) {
        CHECK(layer.kind == layerbench::dataset::LayerKind::layer);
      }
    }
    CHECK(layer_ids == std::vector<std::string>{"fixture-reference", "fixture-cpu"});
    REQUIRE(data.models.size() == 2);
    CHECK(data.models[0].data.id == k_model_reference);
    CHECK(data.models[1].data.id == k_models);
    CHECK(data.datasets[data.featured].data.id == "fixture-cpu");
    CHECK(site::dataset_files(data).size() == 4);
  }
  SUBCASE("a dataset of both keeps its layers in the layer datasets and its models apart, cells with them")
  {
    auto json = nlohmann::ordered_json::parse(test::read_text(k_site_fixture_data / "datasets/fixture-cpu-v1.json"));
    const auto models = nlohmann::ordered_json::parse(test::read_text(k_site_fixture_data / "datasets/fixture-models-v1.json"));
    json["schema_version"] = "1.5.0";
    json["layers"].push_back(models["layers"][0]);
    for (const auto& cell : models["results"]) {
      if (cell["layer"] == "ResNetTiny" && cell["axes"]["mode"] == "inference_mode" && cell["axes"]["precision"] == "fp32") {
        auto reference_corner = cell;
        reference_corner.erase("rounds");
        reference_corner.erase("round_spread");
        json["results"].push_back(reference_corner);
      }
    }
    for (const int batch : {32, 128}) { // the layers' batch sizes, which the model's cells declare too
      json["results"].push_back({{"layer", "ResNetTiny"}, {"batch_size", batch}, {"status", "skipped"}, {"skip_reason", "out of memory"}});
    }
    json["methodology"]["layers"].push_back("ResNetTiny");
    const fs::path file = models_scratch("mixed") / "mixed.json";
    std::ofstream(file, std::ios::binary) << json.dump(2);
    site::RenderOptions options;
    options.data_dir = k_site_fixture_data;
    options.extra_datasets.push_back(file);
    const auto data = site::load_site_data(options);
    const auto& local = data.datasets.back();
    CHECK(local.origin == site::DatasetOrigin::local);
    CHECK(local.data.layers.size() == 3);
    CHECK(layerbench::dataset::find_layer(local.data, "ResNetTiny") == nullptr);
    CHECK(local.data.results.size() == 12);
    CHECK(local.data.methodology->layers == std::vector<std::string>{"Conv2d", "TransformerEncoder", "Dropout"});
    const auto& split = data.models.back();
    CHECK(split.slug == local.slug);
    REQUIRE(split.data.layers.size() == 1);
    CHECK(split.data.layers[0].name == "ResNetTiny");
    CHECK(split.data.results.size() == 4);
    CHECK(site::dataset_files(data).size() == 5); // the mixed file is downloaded once
    CHECK(local.file == split.file);              // the whole file, for the download
    CHECK(local.file->results.size() == 16);
  }
  SUBCASE("a data folder of models alone is refused, naming the folder")
  {
    const fs::path data = fixture_without({"fixture-cpu", "fixture-reference"}, "models-only");
    fs::remove_all(data / "reference");  // of the layer reference, gone
    fs::remove_all(data / "validation"); // likewise
    CHECK_THROWS_WITH_AS(fixture_site(data), doctest::Contains("every dataset holds whole models only"), layerbench::Error);
  }
}

TEST_CASE("site::render keeps every layer page as it was when models are added")
{
  const auto without = pages_of(render_into(fixture_without({k_models, k_model_reference}, "no-models"), "no-models-out"));
  const auto with = pages_of(render_into(k_site_fixture_data, "with-models-out"));
  CHECK(without.count("models.html") == 0);
  CHECK(without.at("index.html").find("models.html") == std::string::npos);
  for (const auto& [path, page] : without) {
    if (path == "datasets.html") {
      continue; // lists every dataset file, the models' too
    }
    if (path == "faq.html") {
      // Answers seed 001's questions about whole models where the site has any (site/model_answers.hpp).
      CHECK(with.at(path).find("id=\"answer-compile\"") != std::string::npos);
      CHECK(page.find("id=\"answer-compile\"") == std::string::npos);
      continue;
    }
    CAPTURE(path);
    REQUIRE(with.count(path) == 1);
    CHECK(without_models_link(with.at(path)) == page);
  }
  CHECK(with.count("models.html") == 1);
  CHECK(with.count("models/ResNetTiny.html") == 1);
  CHECK(with.count("models/BertTiny.html") == 1);
  CHECK(with.at("datasets.html").find("id=\"fixture-models-v1\"") != std::string::npos);
}

TEST_CASE("site::model_page")
{
  const auto data = fixture_site();
  const Data view = page_of(data, "models/ResNetTiny.html");
  const auto& measured = list_of(view, "measured").list_value();
  REQUIRE(measured.size() == 1);
  const Data& block = measured.front();
  SUBCASE("throughput by setting: images/s, batch sizes as rows, the corners as columns")
  {
    CHECK(test::string_at(block, "unit") == "images/s");
    CHECK(strings_of(list_of(block, "headers")) == std::vector<std::string>{"inference mode, fp32", "inference mode, bf16", "training, fp32", "training, bf16"});
    const auto& rows = list_of(block, "rows").list_value();
    REQUIRE(rows.size() == 2);
    CHECK(test::string_at(rows[0], "batch") == "1");
    const Data& first = list_of(rows[0], "cells").list_value().front();
    CHECK(test::string_at(first, "throughput") == "250"); // 1 image over 4.0 ms, 3 figures for a 9% interval
    CHECK(test::string_at(first, "median") == "4 ms per forward");
    const Data& train = list_of(rows[0], "cells").list_value()[2];
    CHECK(test::string_at(train, "median") == "12 ms per step");
  }
  SUBCASE("a chart of each setting's throughput at the largest batch size, with quartile whiskers")
  {
    const std::string chart = test::string_at(block, "chart");
    CHECK(chart.find("throughput of each setting at batch size 8</title>") != std::string::npos);
    CHECK(layerbench::test::count_of(chart, "<rect class=\"bar\"") == 4);
    CHECK(layerbench::test::count_of(chart, "<path class=\"whisker\"") == 4);
    CHECK(chart.find(">training, bf16</text>") != std::string::npos);
    CHECK(chart.find(">Whiskers: 25th to 75th percentile</text>") != std::string::npos);
  }
  SUBCASE("each cell's spread over its rounds and its peak memory")
  {
    const Data& first = list_of(block, "details").list_value().front();
    CHECK(test::string_at(first, "label") == "inference mode, fp32 at batch 1");
    CHECK(test::string_at(first, "spread") == "95% interval 3.84–4.2 ms over 3 rounds (round medians 3.84 to 4.2 ms)");
    CHECK(test::string_at(first, "memory") == "977 KiB"); // 1e6 bytes
  }
  SUBCASE("a cell the Python worker measured says what ran it")
  {
    auto changed = data;
    changed.models.back().data.results.front().runtime = layerbench::dataset::WorkerRuntime{"3.11.2", "2.11.0", 41.26};
    const Data changed_view = page_of(changed, "models/ResNetTiny.html");
    const Data& first = list_of(list_of(changed_view, "measured").list_value().front(), "details").list_value().front();
    CHECK(test::string_at(first, "runtime")
          == "measured by LayerBench's Python worker (Python 3.11.2, PyTorch 2.11.0; compiling took 41.3 s, outside the timed steps)");
    CHECK(list_of(block, "details").list_value().front().get("runtime")->is_false());
  }
  SUBCASE("a comparison only where both cells are timed, with its condition and its range over the rounds")
  {
    const auto sentences = strings_of(list_of(block, "comparisons"));
    CHECK(contains(sentences, "bf16 is 2× (1.83–2.19×) the fp32 throughput for inference at batch 1 (inference mode, fp32 against inference mode, bf16)."));
    CHECK(sentences.size() == 4); // bf16 against fp32, inference and training, at batches 1 and 8
    const Data bert = page_of(data, "models/BertTiny.html");
    const Data& bert_block = list_of(bert, "measured").list_value().front();
    const auto bert_sentences = strings_of(list_of(bert_block, "comparisons"));
    CHECK(bert_sentences.size() == 3); // training at batch 8 was skipped in bf16
    for (const auto& sentence : bert_sentences) {
      CHECK(sentence.find("for training at batch 8") == std::string::npos);
    }
    const auto skipped = list_of(bert_block, "skipped_cells").list_value();
    REQUIRE(skipped.size() == 1);
    CHECK(test::string_at(skipped.front(), "label") == "training, bf16 at batch 8");
    CHECK(test::string_at(skipped.front(), "value") == "out of memory: tried to allocate 2.00 GiB");
    CHECK(test::string_at(bert_block, "unit") == "sequences/s");
  }
  SUBCASE("the operators that dominate, most first, in the profiled cells only")
  {
    const auto& profiles = list_of(block, "profiles").list_value();
    REQUIRE(profiles.size() == 4); // batch 1 of each setting
    const auto& operators = list_of(profiles.front(), "operators").list_value();
    REQUIRE(operators.size() == 3);
    CHECK(test::string_at(operators[0], "label") == "aten::mkldnn_convolution");
    CHECK(test::string_at(operators[0], "value") == "4 calls, 50% of host time");
  }
  SUBCASE("the inventory's shares of the model's FLOPs, and the train step")
  {
    const Data* inventory = view.get("inventory");
    REQUIRE(inventory != nullptr);
    const Data& conv = list_of(*inventory, "rows").list_value().front();
    CHECK(test::string_at(conv, "count") == "4");
    CHECK(test::string_at(conv, "share") == "98.7%"); // 4 x 150 M of 608.04 M
    CHECK(test::string_at(view, "train_step").find("SGD step with momentum") != std::string::npos);
  }
  SUBCASE("published figures stand apart, labelled with their source")
  {
    const auto& references = list_of(view, "references").list_value();
    REQUIRE(references.size() == 1);
    CHECK(test::string_at(references.front(), "source_title") == "Fixture model page");
    CHECK(test::string_at(references.front(), "source_device") == "Fixture GPU");
    const auto& rows = list_of(references.front(), "rows").list_value();
    REQUIRE(rows.size() == 3);
    CHECK(test::string_at(rows[0], "setting") == "inference mode, fp32");
    CHECK(test::string_at(rows[0], "throughput") == "not published: the page gives training figures only");
    CHECK(test::string_at(rows[1], "setting") == "training, fp32");
    CHECK(test::string_at(rows[1], "throughput") == "938"); // from the median the page's figure implies
    CHECK(test::string_at(rows[2], "throughput") == "2,470");
    for (const auto& row : list_of(block, "rows").list_value()) {
      CHECK(test::string_at(row, "batch") != "256");
    }
  }
}

TEST_CASE("site::models_page")
{
  SUBCASE("each measured model, and the references apart")
  {
    const Data view = page_of(fixture_site(), "models.html");
    const auto& measured = list_of(view, "measured").list_value();
    REQUIRE(measured.size() == 2);
    CHECK(test::string_at(measured[0], "name") == "ResNetTiny");
    CHECK(test::string_at(measured[0], "href") == "models/ResNetTiny.html");
    CHECK(test::string_at(measured[0], "settings") == "inference mode, fp32; inference mode, bf16; training, fp32; training, bf16");
    CHECK(test::string_at(measured[0], "batches") == "1, 8");
    CHECK(list_of(view, "references").list_value().size() == 1);
  }
  SUBCASE("it opens with the numbers: per device, each model and setting at the largest batch size, in samples per second")
  {
    const Data view = page_of(fixture_site(), "models.html");
    const auto& tables = list_of(view, "glance").list_value();
    REQUIRE(!tables.empty());
    const auto& rows = tables[0].get("rows")->list_value();
    REQUIRE(!rows.empty());
    // ResNetTiny's first setting, inference in fp32, at batch 8, the largest the fixture timed.
    CHECK(tables[0].get("headers")->list_value().front().string_value() == "inference mode, fp32");
    CHECK(test::string_at(rows[0], "name") == "ResNetTiny");
    CHECK(test::string_at(rows[0], "unit") == "images/s");
    const auto& first = rows[0].get("cells")->list_value().front();
    CHECK(test::string_at(first, "batch") == "8");
    CHECK(!test::string_at(first, "throughput").empty());
    for (const auto& source : tables[0].get("sources")->list_value()) {
      CHECK(test::string_at(source, "label").find("reference") == std::string::npos); // measured datasets only
      CHECK(!test::string_at(source, "columns").empty());
    }
  }
  SUBCASE("the fixture's reference beside its measured cells, and the scaling section from its reference file")
  {
    const Data view = page_of(fixture_site(), "models.html");
    // ResNetTiny training fp32 and bf16 against the reference's fp32 and bf16 at 256: ours at batch 8.
    const auto& rows = view.get("beside_reference")->get("rows")->list_value();
    REQUIRE(rows.size() == 2);
    CHECK(test::string_at(rows[0], "batch") == "8");
    CHECK(test::string_at(rows[0], "differences") == "different batch sizes: 8 against 256");
    const Data& scaling = *view.get("scaling");
    CHECK(scaling.get("has_gpu")->is_false());
    CHECK(list_of(scaling, "measured").list_value().size() == 2);
    CHECK(list_of(scaling, "published").list_value().size() == 3);
  }
  SUBCASE("with published figures only, it says that no model was measured")
  {
    const fs::path out = render_into(fixture_without({k_models}, "reference-only"), "reference-only-out");
    const std::string page = test::read_text(out / "models.html");
    CHECK(page.find("No model was measured in these datasets") != std::string::npos);
    CHECK(page.find("ResNetTiny") != std::string::npos);
    CHECK(test::read_text(out / "models/ResNetTiny.html").find("No model was measured") != std::string::npos);
    CHECK(test::read_text(out / "index.html").find("href=\"models.html\"") != std::string::npos);
  }
}
