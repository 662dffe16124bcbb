// SPDX-License-Identifier: MIT
// The view model's text for what the numbers are: noise-target marks, the reference batch, speed classes,
// and the pages built from hand-made datasets (the numbers are test inputs, not measurements).
#include "site/view_common.hpp"
#include "site/view_model.hpp"
#include "site/view_pages.hpp"

#include "test_dataset_fixture.hpp"
#include "test_site_fixture.hpp"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

using layerbench::site::Data;
namespace dataset = layerbench::dataset;
namespace site = layerbench::site;
namespace test = layerbench::test;

namespace {

// A dataset that records verdicts: 5% target, at least 5 samples.
dataset::Dataset judged(std::vector<std::string> layers = {"Linear", "Dropout"}, std::vector<int> batches = {1, 8})
{
  dataset::Dataset d = test::measured(std::move(layers), std::move(batches));
  d.methodology->noise_target = 0.05;
  d.methodology->min_samples = 5;
  d.methodology->max_samples = 100;
  for (auto& cell : d.results) {
    cell.stats->noise = 0.02;
    cell.stats->noise_target_met = true;
  }
  return d;
}

site::SiteData site_of(dataset::Dataset d)
{
  site::SiteData data;
  site::SiteDataset entry;
  entry.slug = d.id + "-v1";
  entry.data = std::move(d);
  data.datasets.push_back(std::move(entry));
  return data;
}

const site::PageSpec& page(const std::vector<site::PageSpec>& pages, const std::string& path)
{
  for (const auto& spec : pages) {
    if (spec.path == path) {
      return spec;
    }
  }
  FAIL("no page " << path);
  return pages.front();
}

} // namespace

TEST_CASE("site::noise_miss_reason")
{
  dataset::Dataset d = judged();
  SUBCASE("a cell that met its target has no reason")
  {
    CHECK(site::noise_miss_reason(d, &test::cell_of(d, "Linear", 1)).empty());
  }
  SUBCASE("noise above the target after enough samples")
  {
    auto& cell = test::cell_of(d, "Linear", 1);
    cell.stats->noise = 0.072;
    cell.stats->samples = 100;
    cell.stats->noise_target_met = false;
    const std::string reason = site::noise_miss_reason(d, &cell);
    CHECK(reason.find("noise above the target") != std::string::npos);
    CHECK(reason.find("7.2%") != std::string::npos);
    CHECK(reason.find("the 5% noise target") != std::string::npos);
  }
  SUBCASE("too few samples before the budget ran out")
  {
    auto& cell = test::cell_of(d, "Linear", 1);
    cell.stats->samples = 3;
    cell.stats->noise_target_met = false;
    const std::string reason = site::noise_miss_reason(d, &cell);
    CHECK(reason.find("too few samples, 3 of the 5 asked for") != std::string::npos);
  }
  SUBCASE("a dataset without verdicts shows no mark")
  {
    auto& cell = test::cell_of(d, "Linear", 1);
    cell.stats->noise_target_met.reset();
    CHECK(site::noise_miss_reason(d, &cell).empty());
    CHECK(site::noise_miss_note(d, "").is_false());
  }
}

TEST_CASE("site::noise_miss_note")
{
  dataset::Dataset d = judged();
  SUBCASE("every cell met the target: no note")
  {
    CHECK(site::noise_miss_note(d, "").is_false());
  }
  SUBCASE("counts the missed cells of the whole dataset or of one layer")
  {
    test::cell_of(d, "Linear", 8).stats->noise_target_met = false;
    CHECK(test::string_at(site::noise_miss_note(d, ""), "text").rfind("1 of 4 cells missed the 5% noise target", 0) == 0);
    CHECK(test::string_at(site::noise_miss_note(d, "Linear"), "text").rfind("1 of 2 cells", 0) == 0);
    CHECK(site::noise_miss_note(d, "Dropout").is_false());
  }
  SUBCASE("the time cell carries the mark and the reason")
  {
    test::cell_of(d, "Linear", 8).stats->noise_target_met = false;
    const Data cell = site::time_cell(d, &test::cell_of(d, "Linear", 8));
    REQUIRE(cell.get("missed")->is_object());
    CHECK(test::string_at(*cell.get("missed"), "reason").find("missed the 5% noise target") != std::string::npos);
    CHECK(site::time_cell(d, &test::cell_of(d, "Linear", 1)).get("missed")->is_false());
  }
}

TEST_CASE("site::featured_facts")
{
  SUBCASE("a run without batch 32 takes its largest batch size")
  {
    dataset::Dataset d = judged({"Linear", "Dropout"}, {1, 8});
    test::cell_of(d, "Linear", 8).stats->median_ms = 4.0;
    const Data facts = site::featured_facts(d);
    REQUIRE(facts.get("extremes")->is_object());
    CHECK(test::string_at(*facts.get("extremes"), "batch") == "8");
    CHECK(test::string_at(*facts.get("extremes"), "slowest") == "Linear");
  }
  SUBCASE("a single layer has no fastest and slowest")
  {
    CHECK(site::featured_facts(judged({"Linear"}, {1, 8})).get("extremes")->is_false());
  }
}

TEST_CASE("site::featured_facts(params_mislead)")
{
  dataset::Dataset d = test::measured({"Embedding", "TransformerEncoder"}, {32});
  d.layers[0].params = 1000;
  d.layers[1].params = 10;
  test::cell_of(d, "TransformerEncoder", 32).stats = test::quartiles(50.0, 49.0, 51.0);
  SUBCASE("said when the layer with the most parameters is not the slowest")
  {
    const Data facts = site::featured_facts(d);
    const Data* mislead = facts.get("params_mislead");
    REQUIRE(mislead->is_object());
    CHECK(test::string_at(*mislead, "many") == "Embedding");
    CHECK(test::string_at(*mislead, "slow") == "TransformerEncoder");
  }
  SUBCASE("left out when the layer with the most parameters is also the slowest")
  {
    d.layers[0].params = 1;
    const Data facts = site::featured_facts(d);
    CHECK(facts.get("params_mislead")->is_false());
  }
}

TEST_CASE("site::settings_page")
{
  SUBCASE("the skip reasons are on the page, counted, not only in the cells' hover text")
  {
    dataset::Dataset d = test::measured({"Linear", "Dropout"}, {1, 8});
    for (int batch : {1, 8}) {
      test::cell_of(d, "Linear", batch) = test::skipped_cell("Linear", batch, "Linear takes no 4-D input");
    }
    site::SiteDataset entry;
    entry.slug = "test-cpu-v1";
    entry.data = d;
    const auto spec = site::settings_page(entry, site::object());
    const Data* reasons = spec.view.get("skip_reasons");
    REQUIRE(reasons->is_object());
    const auto& items = reasons->get("reasons")->list_value();
    REQUIRE(items.size() == 1);
    CHECK(test::string_at(items.front(), "label") == "Linear takes no 4-D input");
    CHECK(test::string_at(items.front(), "value") == "2 cells");
  }
}

TEST_CASE("site::speed_class_for_ms")
{
  CHECK(site::speed_class_for_ms(0.012) == "Very Fast");
  CHECK(site::speed_class_for_ms(0.1) == "Fast");
  CHECK(site::speed_class_for_ms(0.999) == "Fast");
  CHECK(site::speed_class_for_ms(1.0) == "Medium");
  CHECK(site::speed_class_for_ms(9.99) == "Medium");
  CHECK(site::speed_class_for_ms(10.0) == "Slow");
  CHECK(site::speed_class_for_ms(100.0) == "Very Slow");
}

TEST_CASE("site::speed_class_text")
{
  SUBCASE("a layer keeps its class when only the fastest layer moves")
  {
    // Issue 35: Conv2d 8.59 ms beside Dropout at 0.012 ms, and 9.02 ms beside Dropout at 0.147 ms, were
    // "Slow" and "Medium" by their ratio to the fastest layer. The file's stored classes are that rule's.
    dataset::Dataset a = judged({"Conv2d", "Dropout"}, {32});
    test::cell_of(a, "Conv2d", 32).stats = test::quartiles(8.59, 8.5, 8.7);
    test::cell_of(a, "Dropout", 32).stats = test::quartiles(0.012, 0.0118, 0.0122);
    a.layers[0].speed_class = "Slow";
    dataset::Dataset b = judged({"Conv2d", "Dropout"}, {32});
    test::cell_of(b, "Conv2d", 32).stats = test::quartiles(9.02, 8.9, 9.1);
    test::cell_of(b, "Dropout", 32).stats = test::quartiles(0.147, 0.145, 0.149);
    b.layers[0].speed_class = "Medium";
    CHECK(site::speed_class_text(a, a.layers[0]) == "Medium");
    CHECK(site::speed_class_text(b, b.layers[0]) == "Medium");
    CHECK(site::speed_class_text(a, a.layers[1]) == "Very Fast");
    CHECK(site::speed_class_text(b, b.layers[1]) == "Fast");
  }
  SUBCASE("a lone layer has its class, and a layer without a median at the reference batch has none")
  {
    dataset::Dataset d = judged({"Linear"}, {32});
    CHECK(site::speed_class_text(d, d.layers[0]) == "Medium"); // 1 ms
    test::cell_of(d, "Linear", 32) = test::skipped_cell("Linear", 32, "out of memory");
    CHECK(site::speed_class_text(d, d.layers[0]) == "—");
  }
  SUBCASE("a reference's label is marked as the page's own")
  {
    dataset::Dataset d = judged({"Linear", "Dropout"}, {1});
    d.kind = dataset::Kind::published_reference;
    d.layers[0].speed_class = "Fast";
    CHECK(site::speed_class_text(d, d.layers[0]) == "Fast (the source page's label, not LayerBench's rule)");
  }
  SUBCASE("the home page states the fixed thresholds under the table, and the layer page under its own")
  {
    const auto pages = site::build_pages(site_of(judged({"Linear", "Dropout"}, {1, 32})));
    const Data& section = page(pages, "index.html").view.get("results")->list_value().front();
    const std::string rule = test::string_at(section, "speed_rule");
    CHECK(rule.find("the median at batch size 32") != std::string::npos);
    CHECK(rule.find("under 1 ms Fast, under 10 ms Medium, under 100 ms Slow, else Very Slow") != std::string::npos);
    CHECK(test::string_at(page(pages, "layers/Linear.html").view, "speed_rule") == rule);
    CHECK(test::string_at(section.get("rows")->list_value().front(), "speed") == "Medium");
  }
}

TEST_CASE("site::build_pages")
{
  SUBCASE("the 404 page links relatively without --base-url, and from the address's path with one")
  {
    const auto site_data = site_of(judged({"Linear", "Dropout"}, {1, 8}));
    CHECK(test::string_at(page(site::build_pages(site_data), "404.html").view, "root") == "");
    CHECK(test::string_at(page(site::build_pages(site_data, "https://example.org/some/sub/path"), "404.html").view, "root") == "/some/sub/path/");
    CHECK(test::string_at(page(site::build_pages(site_data, "https://example.org"), "404.html").view, "root") == "/");
    // A served path (the preview's "/") wins over the address's.
    CHECK(test::string_at(page(site::build_pages(site_data, "https://example.org/x/", "/"), "404.html").view, "root") == "/");
    // Every other page climbs relatively, whatever the address.
    CHECK(test::string_at(page(site::build_pages(site_data, "https://example.org/x/"), "layers/Linear.html").view, "root") == "../");
  }
  SUBCASE("every page has a description of its own, naming its subject")
  {
    const auto pages = site::build_pages(site_of(judged({"Linear", "Dropout"}, {1, 8})));
    std::set<std::string> seen;
    for (const auto& spec : pages) {
      const std::string description = test::string_at(spec.view, "description");
      CHECK_MESSAGE(description.size() > 40, spec.path);
      CHECK_MESSAGE(seen.insert(description).second, spec.path << " repeats another page's description");
    }
    CHECK(test::string_at(page(pages, "layers/Linear.html").view, "description").rfind("nn.Linear: ", 0) == 0);
    CHECK(test::string_at(page(pages, "index.html").view, "description").find("2 PyTorch layers at batch sizes 1 to 8") != std::string::npos);
  }
  SUBCASE("the FAQ gives the samples the cells took, not the configured range")
  {
    dataset::Dataset d = judged({"Linear", "Dropout"}, {1, 8});
    test::cell_of(d, "Linear", 1).stats->samples = 7;
    test::cell_of(d, "Linear", 8).stats->samples = 40;
    test::cell_of(d, "Dropout", 1).stats->samples = 12;
    test::cell_of(d, "Dropout", 8).stats->samples = 20;
    const auto pages = site::build_pages(site_of(d));
    const Data* samples = page(pages, "faq.html").view.get("method")->get("samples");
    REQUIRE(samples->is_object());
    CHECK(test::string_at(*samples, "min") == "7");
    CHECK(test::string_at(*samples, "median") == "16");
    CHECK(test::string_at(*samples, "max") == "40");
  }
  SUBCASE("the FAQ's highest rate looks at every batch size")
  {
    dataset::Dataset d = judged({"Linear", "Dropout"}, {1, 8});
    test::cell_of(d, "Dropout", 1).stats->median_ms = 0.001; // 20 FLOP in 1 us: the highest rate
    const auto pages = site::build_pages(site_of(d));
    const Data* flops = page(pages, "faq.html").view.get("flops");
    CHECK(test::string_at(*flops, "layer") == "Dropout");
    CHECK(test::string_at(*flops, "batch") == "1");
  }
  SUBCASE("the layer page lists the operators, page faults and dispatch of 1.2.0 cells")
  {
    dataset::Dataset d = judged({"Linear", "Dropout"}, {1, 8});
    d.layers[0].dispatch = "the C++ module nn::Linear";
    auto& cell = test::cell_of(d, "Linear", 1);
    cell.operators.push_back({"aten::addmm", 1, 0.9, std::nullopt});
    cell.page_faults_per_iteration = 250.0;
    const auto pages = site::build_pages(site_of(d));
    const Data* blocks = page(pages, "layers/Linear.html").view.get("operator_blocks");
    REQUIRE(blocks->is_non_empty_list());
    const Data& block = blocks->list_value().front();
    CHECK(test::string_at(block, "dispatch") == "the C++ module nn::Linear");
    CHECK(block.get("has_page_faults")->is_true());
    const Data& row = block.get("cells")->list_value().front();
    CHECK(test::string_at(row, "page_faults") == "250");
    CHECK(test::string_at(row.get("operators")->list_value().front(), "value") == "1 call, 90% of host time");
    CHECK(page(pages, "layers/Dropout.html").view.get("operator_blocks")->is_empty_list());
    CHECK(!block.get("has_cuda")->is_true());
  }
  SUBCASE("the layer page shows a CUDA cell's graph and cold ratios and its clock (1.3.0)")
  {
    dataset::Dataset d = judged({"Linear", "Dropout"}, {1, 8});
    auto& cell = test::cell_of(d, "Linear", 1);
    cell.operators.push_back({"aten::addmm", 1, 0.9, std::nullopt});
    dataset::CudaCell cuda;
    cuda.graph_over_eager = 0.3126;
    cuda.cold_skip_reason = "the device reports no L2 cache size";
    cuda.clocks.sm_mean_mhz = 1975.4;
    cuda.clocks.sm_default_mhz = 1980;
    cuda.clocks.dropped_samples = 2;
    cuda.clocks.event_reasons = {"sw_power_cap"};
    cell.cuda = cuda;
    const auto pages = site::build_pages(site_of(d));
    const Data& block = page(pages, "layers/Linear.html").view.get("operator_blocks")->list_value().front();
    CHECK(block.get("has_cuda")->is_true());
    const Data& row = block.get("cells")->list_value().front();
    CHECK(test::string_at(row, "graph") == "0.313×");
    CHECK(test::string_at(row, "cold") == "none: the device reports no L2 cache size");
    CHECK(test::string_at(row, "clock") == "1,975 MHz of 1,980, 2 slow samples dropped, sw_power_cap");
  }
  SUBCASE("the compare page counts a change only beyond both runs' noise, as diff does")
  {
    site::SiteData data = site_of(test::measured());
    dataset::Dataset other = test::measured();
    other.id = "test-other";
    test::cell_of(other, "Linear", 1).stats = test::quartiles(0.97, 0.92, 1.02); // inside the noise
    test::cell_of(other, "Dropout", 1).stats = test::quartiles(0.5, 0.48, 0.52);  // clearly faster
    site::SiteDataset entry;
    entry.slug = "test-other-v1";
    entry.data = other;
    data.datasets.push_back(entry);
    const auto pages = site::build_pages(data);
    const Data* totals = page(pages, "compare/test-cpu-v1--test-other-v1.html").view.get("totals");
    CHECK(test::string_at(*totals, "other_faster") == "1");
    CHECK(test::string_at(*totals, "unchanged") == "3");
  }
  SUBCASE("the home page has one table per device: the featured one, a local run as \"your run\", no replaced version")
  {
    site::SiteData data = site_of(test::measured());
    const auto add = [&data](const std::string& id, int version, const std::string& replaces, site::DatasetOrigin origin,
                             const std::string& device) {
      site::SiteDataset entry;
      entry.data = test::measured();
      entry.data.id = id;
      entry.data.version = version;
      entry.data.replaces = replaces;
      entry.data.environment->device.name = device;
      entry.slug = id + "-v" + std::to_string(version);
      entry.origin = origin;
      data.datasets.push_back(entry);
    };
    add("old", 1, "", site::DatasetOrigin::published, "Other CPU");
    add("old", 2, "old@1", site::DatasetOrigin::published, "Other CPU");
    add("same-device", 1, "", site::DatasetOrigin::published, "Test CPU"); // the featured dataset's device
    add("mine", 1, "", site::DatasetOrigin::local, "Test CPU");
    const auto pages = site::build_pages(data);
    const auto& sections = page(pages, "index.html").view.get("switch")->list_value();
    REQUIRE(sections.size() == 3);
    CHECK(test::string_at(sections[0], "anchor") == "results");
    CHECK(test::string_at(sections[1], "anchor") == "results-mine-v1");
    CHECK(test::string_at(sections[1], "label") == "your run");
    CHECK(test::string_at(sections[2], "anchor") == "results-old-v2");
    // Written with the featured table last, so that CSS can hide it when another is targeted.
    const auto& written = page(pages, "index.html").view.get("results")->list_value();
    CHECK(test::string_at(written.back(), "anchor") == "results");
  }
  SUBCASE("the layer page's memory and throughput name the batch size of a dataset that did not measure the headed one")
  {
    dataset::Dataset featured = judged({"Linear", "Dropout"}, {1, 8, 32});
    dataset::Dataset small = judged({"Linear", "Dropout"}, {1, 8});
    small.id = "test-small";
    for (auto* d : {&featured, &small}) {
      for (auto& cell : d->results) {
        cell.peak_memory_bytes = 2048;
        cell.throughput_samples_per_s = 1000.0;
      }
    }
    site::SiteData data = site_of(featured);
    site::SiteDataset entry;
    entry.slug = "test-small-v1";
    entry.data = small;
    data.datasets.push_back(entry);
    const auto pages = site::build_pages(data);
    const auto& rows = page(pages, "layers/Linear.html").view.get("rows")->list_value();
    REQUIRE(rows.size() == 2);
    CHECK(test::string_at(rows[0], "memory").find("BS=") == std::string::npos);
    CHECK(test::string_at(rows[1], "memory").find(" at BS=8") != std::string::npos);
    CHECK(test::string_at(rows[1], "throughput").find(" at BS=8") != std::string::npos);
  }
  SUBCASE("the formulas page notes a layer against the one its note names, from the data")
  {
    dataset::Dataset d = test::measured({"Conv2d", "Conv1d"}, {32});
    d.layers[0].params = 100;
    d.layers[1].params = 50;
    d.layers[0].flops_per_sample = 1e6;
    test::cell_of(d, "Conv2d", 32).stats = test::quartiles(2.0, 1.9, 2.1);
    test::cell_of(d, "Conv1d", 32).stats = test::quartiles(1.0, 0.9, 1.1);
    const auto pages = site::build_pages(site_of(d));
    const auto& rows = page(pages, "formulas.html").view.get("rows")->list_value();
    REQUIRE(rows.size() == 2);
    // Conv2d: 32 samples of 1 MFLOP in 2 ms.
    CHECK(test::string_at(rows[0], "computed") == "At batch size 32: 2 ms, 16.0 GFLOP/s.");
    CHECK(test::string_at(rows[1], "computed").find("0.5× Conv2d's time, with 50% of its parameters") != std::string::npos);
    CHECK(test::string_at(rows[1], "note").find("aten::convolution") != std::string::npos);
  }
}

TEST_CASE("site::ms_text")
{
  SUBCASE("thousands get separators")
  {
    CHECK(site::ms_text(3246.4) == "3,246");
  }
  SUBCASE("small values keep three significant digits")
  {
    CHECK(site::ms_text(0.0244) == "0.0244");
  }
}

TEST_CASE("site::time_cell")
{
  SUBCASE("the detail shows the first call and, on a GPU, the host clock")
  {
    dataset::Dataset d = judged({"Linear"}, {1});
    d.environment->device.type = "cuda";
    auto& cell = test::cell_of(d, "Linear", 1);
    cell.first_call_ms = 3246.0;
    cell.host_wall_median_ms = 1.2;
    const std::string detail = test::string_at(site::time_cell(d, &cell), "detail");
    CHECK(detail.find("first call 3,246 ms") != std::string::npos);
    CHECK(detail.find("host clock 1.2 ms per batch against the device's 1 ms") != std::string::npos);
  }
  SUBCASE("on the CPU the host clock is the timer itself: not repeated")
  {
    dataset::Dataset d = judged({"Linear"}, {1});
    auto& cell = test::cell_of(d, "Linear", 1);
    cell.host_wall_median_ms = 1.2;
    CHECK(test::string_at(site::time_cell(d, &cell), "detail").find("host clock") == std::string::npos);
  }
}

TEST_CASE("site::public_command")
{
  SUBCASE("paths outside the repository shrink to their file name")
  {
    CHECK(site::public_command("python3 data/reference/t.py ../shared/seeds/000.txt build/x /tmp/run.json")
          == "python3 data/reference/t.py 000.txt build/x run.json");
  }
  SUBCASE("a plain command is unchanged")
  {
    CHECK(site::public_command("layerbench run --device cpu --out runs/cpu.json") == "layerbench run --device cpu --out runs/cpu.json");
  }
}

TEST_CASE("site::public_commit")
{
  SUBCASE("-dirty never reaches a page")
  {
    CHECK(site::public_commit("ff69ab3-dirty") == "ff69ab3 (plus uncommitted changes)");
  }
  SUBCASE("a clean commit is unchanged")
  {
    CHECK(site::public_commit("478bd37") == "478bd37");
  }
}

TEST_CASE("site::issue_words")
{
  SUBCASE("every kind and field of the reference's inconsistency files is worded for a reader")
  {
    for (const auto& file : std::filesystem::directory_iterator(std::string(LAYERBENCH_SOURCE_DIR) + "/data/reference")) {
      // The data folder's inconsistency files; the folder also holds transcribed datasets and scripts.
      const auto name = file.path().filename().string();
      const std::string suffix = "-inconsistencies.json";
      if (name.size() < suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
        continue;
      }
      std::ifstream in(file.path());
      const auto json = nlohmann::json::parse(in);
      for (const auto& item : json.at("inconsistencies")) {
        std::vector<std::string> keys{item.at("kind").get<std::string>()};
        for (const auto& [key, value] : item.items()) {
          if (key != "kind" && key != "layer") { // the item's heading and its link, not fields
            keys.push_back(key);
          }
        }
        for (const auto& key : keys) {
          CAPTURE(key);
          const std::string words = site::issue_words(key);
          CHECK(words.find('_') == std::string::npos);
          // The fallback only swaps underscores for spaces: a worded key reads differently.
          std::string fallback = key;
          std::replace(fallback.begin(), fallback.end(), '_', ' ');
          CHECK(words != fallback);
        }
      }
    }
  }
  SUBCASE("an unknown key still reads without underscores")
  {
    CHECK(site::issue_words("new_field") == "new field");
  }
}

TEST_CASE("site::median_text")
{
  auto d = test::measured();
  test::cell_of(d, "Linear", 8).stats = test::quartiles(12.34, 12.0, 12.6);
  test::cell_of(d, "Dropout", 8).stats = test::quartiles(0.5678, 0.56, 0.58);
  SUBCASE("one round: two significant figures, a ratio without a range, and the page says the spread is unknown")
  {
    CHECK(site::median_text(d, "Linear", 8) == "12");
    CHECK(site::ratio_text(d, "Linear", 8, "Dropout", 8) == "22×");
    CHECK(site::cell_spread_text(d, dataset::find_cell(d, "Linear", 8))
          == "one round: the spread between processes was not measured");
  }
  SUBCASE("rounds: the figures the interval supports, and the ratio's range from both intervals")
  {
    test::cell_of(d, "Linear", 8).round_spread = dataset::RoundSpread{3, 12.2, 12.5, 12.25, 12.45};
    test::cell_of(d, "Dropout", 8).round_spread = dataset::RoundSpread{3, 0.56, 0.575, 0.565, 0.571};
    CHECK(site::median_text(d, "Linear", 8) == "12.3");
    CHECK(site::ratio_text(d, "Linear", 8, "Dropout", 8) == "21.7× (21.5–22×)");
    CHECK(site::cell_spread_text(d, dataset::find_cell(d, "Linear", 8))
          == "95% interval 12.2–12.4 ms over 3 rounds (round medians 12.2 to 12.5 ms)");
  }
  SUBCASE("a thousand and up keeps its separators and drops unsupported digits")
  {
    test::cell_of(d, "Linear", 8).stats = test::quartiles(2214.0, 2200.0, 2230.0);
    CHECK(site::median_text(d, "Linear", 8) == "2,200");
  }
}
