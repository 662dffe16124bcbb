// SPDX-License-Identifier: MIT
// Shapes from the user (catalog/user_shapes.hpp) and suite files (catalog/suite.hpp).
#include "catalog/catalog.hpp"
#include "catalog/suite.hpp"
#include "catalog/user_shapes.hpp"
#include "bench/detail/builder.hpp"
#include "util/error.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace layerbench;
using namespace layerbench::bench;

namespace {

using Names = std::vector<std::string>;

// The message of the UsageError `call` throws, or "" where it throws none.
template<typename Call>
std::string usage_error(Call call)
{
  try {
    call();
  } catch (const UsageError& error) {
    return error.what();
  } catch (const Error& error) {
    return std::string("Error, not UsageError: ") + error.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::filesystem::path write_suite(const std::string& name, const std::string& text)
{
  const auto path = std::filesystem::temp_directory_path() / ("layerbench-suite-" + name + ".json");
  std::ofstream(path) << text;
  return path;
}

} // namespace

TEST_CASE("bench::expand_layer_list")
{
  SUBCASE("the issue's example: parameters, then an axis crossed")
  {
    CHECK(expand_layer_list("Linear(in=4096,out=11008)@seq=2048,8192", "--layers")
          == Names{"Linear(out=11008,seq=2048)", "Linear(out=11008,seq=8192)"});
  }
  SUBCASE("catalog names, models and shapes in one list; after an axis a name starts the next item")
  {
    CHECK(expand_layer_list("Conv2d, LayerNorm@seq=128,256, ResNet50", "--layers")
          == Names{"Conv2d", "LayerNorm(seq=128)", "LayerNorm(seq=256)", "ResNet50"});
  }
  SUBCASE("two axes cross, the first outermost; a default value gives the catalog's own name")
  {
    CHECK(expand_layer_list("MultiheadAttention@seq=256,512@heads=4,8", "--layers")
          == Names{"MultiheadAttention(heads=4,seq=256)", "MultiheadAttention(seq=256)", "MultiheadAttention(heads=4)",
                   "MultiheadAttention"});
  }
  SUBCASE("the canonical name lists the parameters in the table's order, whatever order they were given in")
  {
    CHECK(expand_layer_list("Conv2d(w=64,h=48,in=3)", "--layers") == Names{"Conv2d(in=3,h=48,w=64)"});
    CHECK(expand_layer_list("Dropout(p=0.1)", "--layers") == Names{"Dropout(p=0.1)"});
  }
  SUBCASE("bad input names the option, the layer and the parameter")
  {
    CHECK(contains(usage_error([] { expand_layer_list("Linear(in=4096,width=3)", "--layers"); }),
                   "Linear has no parameter 'width' (it has in, out, seq)"));
    CHECK(contains(usage_error([] { expand_layer_list("Linaer(in=4096)", "--layers"); }), "did you mean 'Linear'?"));
    CHECK(contains(usage_error([] { expand_layer_list("Conv2d(k=40)", "--layers"); }),
                   "Conv2d cannot be built: its kernel (k=40) is larger than its input (h, w)"));
    CHECK(contains(usage_error([] { expand_layer_list("MultiheadAttention(heads=5)", "--layers"); }),
                   "heads (5) must divide d (512)"));
    CHECK(contains(usage_error([] { expand_layer_list("Linear(in=40.5)", "--layers"); }), "in=40.5 is not a whole number"));
    CHECK(contains(usage_error([] { expand_layer_list("Linear(in=0)", "--layers"); }), "at least 1"));
    CHECK(contains(usage_error([] { expand_layer_list("Dropout(p=1)", "--layers"); }), "p must be below 1"));
    CHECK(contains(usage_error([] { expand_layer_list("Linear(in=4096", "--layers"); }), "expected ')'"));
    CHECK(contains(usage_error([] { expand_layer_list("Linear@seq=", "--layers"); }), "expected a number"));
    CHECK(contains(usage_error([] { expand_layer_list("Linear(seq=8)@seq=16", "--layers"); }), "given twice"));
    CHECK(contains(usage_error([] { expand_layer_list("LayerNorm@seq=8,8", "--layers"); }), "'LayerNorm(seq=8)' is given twice"));
    CHECK(contains(usage_error([] { expand_layer_list("ResNet50(depth=3)", "--layers"); }),
                   "'ResNet50' is not a layer whose parameters can be given"));
    CHECK(contains(usage_error([] { expand_layer_list("Linear(in=16777216,out=16777216,seq=16777216)", "--layers"); }),
                   "too large"));
    CHECK(contains(usage_error([] { expand_layer_list("GroupedQueryAttention(kv_heads=3)", "--layers"); }),
                   "kv_heads (3) must divide heads (8)"));
    CHECK(contains(usage_error([] { expand_layer_list("Conv3d(groups=3)", "--layers"); }), "groups (3) must divide in (64)"));
    CHECK(contains(usage_error([] { expand_layer_list("", "--layers"); }), "--layers: the list is empty"));
    CHECK(contains(usage_error([] { expand_layer_list("Conv2d,,Linear", "--layers"); }), "has an empty item"));
    CHECK(contains(usage_error([] { expand_layer_list("Conv2d,", "--layers"); }), "has an empty item"));
    CHECK(contains(usage_error([] { expand_layer_list("Linear(in=\x1b[31m)", "--layers"); }), "\\x1b"));
  }
}

TEST_CASE("bench::find_layer with parameters")
{
  SUBCASE("the entry is the layer's at those parameters, named canonically, made once")
  {
    const auto& linear = find_layer("Linear(in=4096,out=11008,seq=2048)");
    CHECK(linear.name == "Linear(out=11008,seq=2048)");
    CHECK(linear.config == "Linear(4096,11008) seq=2048");
    CHECK(linear.input_dims(2) == shapes::Dims{2, 2048, 4096});
    CHECK(linear.params() == 4096 * 11008 + 11008);
    CHECK(linear.matmul_flops() == 2.0 * 4096 * 11008 * 2048);
    CHECK(&find_layer("Linear(out=11008,seq=2048)") == &find_layer("Linear(out=11008,seq=2048)"));
    CHECK(find_entry("Linear(width=3)") == nullptr); // a reader of a dataset gets nothing, not a throw
  }
  SUBCASE("describe records the catalog layer and every parameter")
  {
    const auto layer = describe(find_layer("Conv2d(in=3,k=7,h=64,w=64)"));
    REQUIRE(layer.shape);
    CHECK(layer.shape->layer == "Conv2d");
    CHECK(layer.shape->values
          == std::vector<std::pair<std::string, double>>{{"h", 64}, {"in", 3}, {"k", 7}, {"out", 128}, {"w", 64}});
    CHECK(describe(find_layer("Dropout")).shape->value("p") == 0.5);
    CHECK_FALSE(describe(find_layer("ResNet50")).shape);
  }
  SUBCASE("a remark that sets the layer against another is the reference configuration's")
  {
    CHECK(find_layer("GRU").note.compare_to == "LSTM");
    CHECK(find_layer("GRU(directions=2)").note.compare_to.empty());
    CHECK_FALSE(contains(find_layer("GRU(directions=2)").note.text, "the GRU is not"));
  }
  SUBCASE("the builder builds what the entry describes")
  {
    for (const auto* name : {"Linear(in=64,out=96,seq=16)", "MultiheadAttention(d=64,heads=4,seq=40)", "Dropout(d=10,p=0.1)"}) {
      CAPTURE(name);
      const auto& spec = find_layer(name);
      const auto instance = layerbench::bench::detail::instantiate(spec, 3, torch::kCPU);
      CHECK(layerbench::bench::detail::count_parameters(*instance.module) == spec.params());
      CHECK(instance.input.sizes().vec() == spec.input_dims(3));
    }
  }
  SUBCASE("every layer, the reference's and today's, has a table of parameters, and its defaults give its entry")
  {
    std::vector<LayerSpec> all = catalog();
    all.insert(all.end(), todays_layers().begin(), todays_layers().end());
    for (const auto& spec : all) {
      CAPTURE(spec.name);
      std::vector<NamedValue> defaults;
      for (const auto& info : parameters_of(spec.name)) {
        defaults.push_back({info.name, info.default_value});
      }
      CHECK_FALSE(defaults.empty());
      CHECK(shaped_name(spec.name, defaults) == spec.name);
    }
  }
}

TEST_CASE("bench::suite_layers")
{
  SUBCASE("the built-in suite 'today' is today's layers, and built-in suites take no tags")
  {
    CHECK(suite_layers(k_today_suite, {}).size() == todays_layers().size());
    CHECK_THROWS_WITH_AS(suite_layers(k_reference_suite, {"short"}), doctest::Contains("a built-in suite has no tags"), Error);
  }
  SUBCASE("the built-in suite is the reference matrix")
  {
    const auto names = suite_layers(k_reference_suite, {});
    REQUIRE(names.size() == catalog().size());
    CHECK(names.front() == "Conv2d");
    CHECK(names.back() == "Dropout");
  }
  SUBCASE("cross products, in the order written, selected by tags")
  {
    const auto path = write_suite("ok", R"({"format": "layerbench-suite", "version": "1.0.0",
      "entries": [
        {"layer": "Linear", "parameters": {"in": 4096, "out": [4096, 11008], "seq": [2048, 8192]}, "tags": ["long"]},
        {"layer": "LayerNorm", "tags": ["short"]},
        {"layer": "MultiheadAttention", "parameters": {"seq": [128, 256]}, "tags": ["short", "attention"]}]})");
    CHECK(suite_layers(path.string(), {})
          == Names{"Linear(seq=2048)", "Linear(seq=8192)", "Linear(out=11008,seq=2048)", "Linear(out=11008,seq=8192)",
                   "LayerNorm", "MultiheadAttention(seq=128)", "MultiheadAttention(seq=256)"});
    CHECK(suite_layers(path.string(), {"short"}) == Names{"LayerNorm", "MultiheadAttention(seq=128)", "MultiheadAttention(seq=256)"});
    CHECK_THROWS_WITH_AS(suite_layers(path.string(), {"huge"}), doctest::Contains("its tags: attention, long, short"), Error);
    std::filesystem::remove(path);
  }
  SUBCASE("a bad suite names the file, the entry and what is wrong")
  {
    const auto bad = write_suite("bad", R"({"format": "layerbench-suite", "version": "1.0.0",
      "entries": [{"layer": "Linear"}, {"layer": "Linear", "parameters": {"seq": [16, "long"]}}]})");
    CHECK_THROWS_WITH_AS(suite_layers(bad.string(), {}), doctest::Contains("/entries/1/parameters/seq: expected a number"), Error);
    const auto twice = write_suite("twice", R"({"format": "layerbench-suite", "version": "1.0.0",
      "entries": [{"layer": "Linear"}, {"layer": "Linear", "parameters": {"in": 4096}}]})");
    CHECK_THROWS_WITH_AS(suite_layers(twice.string(), {}), doctest::Contains("/entries/1: 'Linear' is in the suite twice"), Error);
    const auto unknown = write_suite("unknown", R"({"format": "layerbench-suite", "version": "1.0.0",
      "entries": [{"layer": "Linear", "parameters": {"depth": 3}}]})");
    CHECK_THROWS_WITH_AS(suite_layers(unknown.string(), {}), doctest::Contains("/entries/0: Linear has no parameter 'depth'"), Error);
    const auto other = write_suite("other", R"({"format": "something"})");
    CHECK_THROWS_WITH_AS(suite_layers(other.string(), {}), doctest::Contains("not a suite file"), Error);
    CHECK_THROWS_WITH_AS(suite_layers("/nonexistent/suite.json", {}), doctest::Contains("cannot be read"), Error);
    for (const auto& path : {bad, twice, unknown, other}) {
      std::filesystem::remove(path);
    }
  }
  SUBCASE("the suites in bench/suites/ expand")
  {
    for (const auto& entry : std::filesystem::directory_iterator(std::string(LAYERBENCH_SOURCE_DIR) + "/bench/suites")) {
      CAPTURE(entry.path().string());
      CHECK_FALSE(suite_layers(entry.path().string(), {}).empty());
    }
  }
}
