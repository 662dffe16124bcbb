// SPDX-License-Identifier: MIT
// A model against the sum of its layers on its page: the figures of the layer-sum fixture
// (tests/fixtures/site/make_layer_sum_fixture.py, chosen so that every answer is exact), and no such
// section where no layer-sum dataset is loaded.
#include "site/view_pages.hpp"

#include "test_site_fixture.hpp"
#include "test_text.hpp"

#include "site/render.hpp"
#include "site/site_data.hpp"
#include "util/file.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;
namespace site = layerbench::site;
namespace test = layerbench::test;
using site::Data;

namespace {

using test::k_source;
using test::k_site_fixture_data;
const fs::path k_layer_sum = k_source / "tests/fixtures/site/layer-sum/fixture-layer-sum.json";

site::SiteData fixture_site(bool with_layer_sum)
{
  site::RenderOptions options;
  options.data_dir = k_site_fixture_data;
  if (with_layer_sum) {
    options.extra_datasets.push_back(k_layer_sum);
  }
  return site::load_site_data(options);
}

const std::vector<Data>& items(const Data& view, const std::string& key)
{
  const Data* value = view.get(key);
  REQUIRE(value != nullptr);
  REQUIRE(value->is_list());
  return value->list_value();
}

// The rows of the one block, in order: inference at 1 and 8, then train at 1 and 8.
std::vector<Data> rows()
{
  const auto blocks = site::layer_sum_blocks(fixture_site(true), "ResNetTiny");
  REQUIRE(blocks.list_value().size() == 1);
  return items(blocks.list_value().front(), "rows");
}

} // namespace

TEST_CASE("site::layer_sum_blocks")
{
  SUBCASE("the model's median beside count x median summed, the ratio and its range from the quartiles")
  {
    const auto found = rows();
    REQUIRE(found.size() == 4);
    const auto& row = found[0];
    CHECK(test::string_at(row, "setting") == "inference mode, fp32");
    CHECK(test::string_at(row, "batch") == "1");
    // 4 x 2 + 4 x 0.25 + 1 x 0.5 = 9.5 ms against 10 ms; (10 - 0.5) / 9.975 and (10 + 0.5) / 9.025.
    CHECK(test::string_at(row, "sum") == "9.5 ms");
    CHECK(test::string_at(row, "ratio") == "1.05×");
    CHECK(test::string_at(row, "range") == "0.952×–1.16×");
    CHECK(test::string_at(row, "gap") == "0.5 ms more");
  }
  SUBCASE("the layers that dominate the sum, most first")
  {
    const auto dominant = items(rows()[0], "dominant");
    REQUIRE(dominant.size() == 3);
    CHECK(test::string_at(dominant[0], "label") == "Conv2d(64,64,3) 8x8 ×4");
    CHECK(test::string_at(dominant[0], "value") == "8 ms, 84.2% of the sum");
    CHECK(test::string_at(dominant[2], "label") == "Linear(2048,10) ×1");
  }
  SUBCASE("the gap's operator calls, from the profiles")
  {
    const auto conditions = items(rows()[0], "conditions");
    REQUIRE(conditions.size() == 3);
    CHECK(conditions[0].string_value() == "Operator calls (profiles): the model makes 22, its layers 9 summed.");
    CHECK(conditions[1].string_value()
          == "Calls the model makes beyond its layers: aten::view ×10, aten::relu_ ×3; at the model's own mean time per "
             "call of each, 15% of its profiled host time, about 1.5 ms.");
    CHECK(conditions[2].string_value()
          == "Fusion: none; every operator call of the layers appears in the model's profile as often.");
  }
  SUBCASE("calls the layers make beyond the model's leave fusion not established")
  {
    auto data = fixture_site(true);
    auto& results = data.layer_sums.front().data.results;
    const auto cell = std::find_if(results.begin(), results.end(), [](const auto& c) {
      return c.layer == "ResNetTiny/1" && c.batch_size == 1 && !c.operators.empty();
    });
    REQUIRE(cell != results.end());
    cell->operators.push_back({"aten::select", 3, 0.1, std::nullopt});
    const auto blocks = site::layer_sum_blocks(data, "ResNetTiny");
    const auto conditions = items(items(blocks.list_value().front(), "rows")[0], "conditions");
    REQUIRE(conditions.size() == 3);
    // BatchNorm2d runs 4 times per forward: 4 x 3 calls.
    CHECK(conditions[2].string_value().rfind("Calls the layers make beyond the model's: aten::select ×12; fusion: not established", 0) == 0);
  }
  SUBCASE("without profiles the calls are not established")
  {
    const auto conditions = items(rows()[2], "conditions");
    REQUIRE(conditions.size() == 1);
    CHECK(conditions[0].string_value().rfind("Operator calls: not established", 0) == 0);
  }
  SUBCASE("a sum with a layer untimed is not given")
  {
    const auto found = rows();
    const auto& row = found[1];
    CHECK(test::string_at(row, "batch") == "8");
    CHECK(row.get("complete")->is_false());
    CHECK(test::string_at(row, "missing") == "1 layer of 3 not timed");
  }
  SUBCASE("no block where no layer-sum dataset is loaded")
  {
    CHECK(site::layer_sum_blocks(fixture_site(false), "ResNetTiny").list_value().empty());
  }
}

TEST_CASE("site::render of a model page with its layer sum")
{
  const fs::path out = fs::temp_directory_path() / "layerbench-test-layer-sum";
  fs::remove_all(out);
  site::RenderOptions options;
  options.data_dir = k_site_fixture_data;
  options.templates_dir = k_source / "templates";
  options.out_dir = out;
  options.extra_datasets.push_back(k_layer_sum);
  site::render(options);
  const auto page = *layerbench::util::read_file(out / "models/ResNetTiny.html");
  CHECK(page.find("Measured against the sum of its layers") != std::string::npos);
  CHECK(page.find("<strong>1.05×</strong>") != std::string::npos);
  // The model's layers stay off the layer pages.
  CHECK_FALSE(fs::exists(out / "layers/ResNetTiny/0.html"));
  CHECK(fs::exists(out / "index.html"));
}

TEST_CASE("site::layer_sum_extremes")
{
  SUBCASE("the smallest and largest model-over-sum ratio over every complete row, with where each is")
  {
    auto data = fixture_site(true);
    // The fixture's three complete rows are all 1.05x (10 / 9.5, 30 / 28.5, 240 / 228); make the train
    // step at batch 8 the largest: 300 / 228.
    auto& results = data.layer_sums.front().data.results;
    const auto cell = std::find_if(results.begin(), results.end(), [](const auto& c) {
      return c.layer == "ResNetTiny" && c.batch_size == 8 && c.axes[layerbench::dataset::k_mode] == layerbench::dataset::GradMode::train;
    });
    REQUIRE(cell != results.end());
    cell->stats->median_ms = 300;
    const auto facts = site::layer_sum_extremes(data);
    CHECK(test::string_at(facts, "low") == "1.05×");
    CHECK(test::string_at(facts, "low_where") == "ResNetTiny, inference mode, fp32 at batch 1");
    CHECK(test::string_at(facts, "high") == "1.32×");
    CHECK(test::string_at(facts, "high_where") == "ResNetTiny, training, fp32 at batch 8");
    CHECK(test::string_at(facts, "href") == "models/ResNetTiny.html#layer-sum");
  }
  SUBCASE("false where no layer-sum dataset is loaded")
  {
    CHECK(site::layer_sum_extremes(fixture_site(false)).is_false());
  }
}
