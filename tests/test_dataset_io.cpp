// SPDX-License-Identifier: MIT
#include "dataset/io.hpp"

#include "test_dataset_fixture.hpp"
#include "util/error.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

namespace {

nlohmann::json measured_json() { return nlohmann::json::parse(dataset::serialize(test::measured())); }

// The message of the Error that parsing `text` throws; fails the test when nothing is thrown.
std::string parse_error(const std::string& text)
{
  try {
    dataset::parse(text, "bad.json");
  } catch (const Error& error) {
    return error.what();
  }
  FAIL("parsed without an error: " << text.substr(0, 200));
  return {};
}

std::string mutated_dataset_error(const std::function<void(nlohmann::json&)>& change)
{
  auto json = measured_json();
  change(json);
  return parse_error(json.dump());
}

} // namespace

TEST_CASE("dataset::serialize")
{
  SUBCASE("round trip: write, read, write gives the same bytes")
  {
    auto original = test::measured();
    original.results[1] = test::skipped_cell("Linear", 8, "out of memory");
    original.methodology->shard = "1/2";
    original.layers[0].params_counted = 10;
    original.layers[0].matmul_flops_per_sample = 1.5e9;
    original.results[0].stats->iterations_per_sample = int64_t(1) << 40;
    original.results[0].canary = dataset::CanaryTime{0.5, 3.25};
    original.methodology->canary = "a matmul and a copy";
    original.layers[0].bytes_fixed = 40;
    original.layers[0].bytes_per_sample = 1.25e6;
    original.layers[0].bytes_formula = "4*(in + out)";
    dataset::Peaks peaks;
    peaks.method = "a product and a triad";
    peaks.compute.push_back({"fp32", "1024^3 product", 2.0 * 1024 * 1024 * 1024, 20.0, 1.07e11, 0.01, 7, true});
    peaks.memory = dataset::PeakRate{"triad", "a = b + s*c", 3.0 * 64 * 1024 * 1024, 30.0, 6.7e9, 0.02, 5, false};
    original.environment->peaks = peaks;
    original.layers[1].kind = dataset::LayerKind::model_layer;
    original.layers[1].part_of = dataset::ModelPart{"ResNet50", 3, 16};
    const auto text = dataset::serialize(original);
    // Schema only: a "1/2" shard holding the whole matrix breaks the rules, not the format.
    const auto read = dataset::parse_unchecked(text, "round-trip");
    CHECK(dataset::serialize(read) == text);
    CHECK(read.methodology->shard == "1/2");
    CHECK(read.results[1].status == dataset::CellStatus::skipped);
    CHECK(read.results[1].skip_reason == "out of memory");
    CHECK(*read.results[0].stats->iterations_per_sample == int64_t(1) << 40);
    CHECK(*read.layers[0].matmul_flops_per_sample == 1.5e9);
    REQUIRE(read.results[0].canary);
    CHECK(read.results[0].canary->copy_ms == 3.25);
    CHECK(!read.results[2].canary);
    CHECK(read.methodology->canary == "a matmul and a copy");
    CHECK(*read.layers[0].bytes_per_sample == 1.25e6);
    CHECK(read.layers[0].bytes_formula == "4*(in + out)");
    CHECK(!read.layers[1].bytes_fixed);
    REQUIRE(read.environment->peaks);
    REQUIRE(read.environment->peaks->compute.size() == 1);
    CHECK(read.environment->peaks->compute[0].rate == 1.07e11);
    CHECK(read.environment->peaks->memory->name == "triad");
    CHECK(read.layers[1].kind == dataset::LayerKind::model_layer);
    REQUIRE(read.layers[1].part_of);
    CHECK(read.layers[1].part_of->model == "ResNet50");
    CHECK(read.layers[1].part_of->use == 3);
    CHECK(read.layers[1].part_of->count == 16);
    CHECK(!read.layers[0].part_of);
    CHECK(text.find("\"flop_per_s\": 107000000000.0") != std::string::npos);
    CHECK(text.find("\"bytes_per_s\"") != std::string::npos);
  }
  SUBCASE("round trip of the cache levels' peaks (1.7.0); absent where unmeasured, an unknown level refused")
  {
    auto original = test::measured();
    dataset::Peaks peaks;
    peaks.method = "a product and triads";
    peaks.compute.push_back({"fp32", "product", 2e9, 20.0, 1e11, 0.01, 7, true});
    peaks.memory = dataset::PeakRate{"triad", "128 MiB", 4e8, 10.0, 4e10, 0.02, 5, true};
    original.environment->peaks = peaks;
    CHECK(dataset::serialize(original).find("\"caches\"") == std::string::npos);
    original.environment->peaks->caches.push_back(
      {"L2", 1 << 20, "cpu0/cache/index2: 512K, 1 CPU per instance, x 2 for 2 threads",
       dataset::PeakRate{"triad", "512 KiB", 5.2e5, 0.004, 1.3e11, 0.03, 40, false}});
    const auto text = dataset::serialize(original);
    const auto read = dataset::parse_unchecked(text, "round-trip");
    CHECK(dataset::serialize(read) == text);
    REQUIRE(read.environment->peaks->caches.size() == 1);
    const auto& cache = read.environment->peaks->caches[0];
    CHECK(cache.level == "L2");
    CHECK(cache.size_bytes == 1 << 20);
    CHECK(cache.triad.rate == 1.3e11);
    CHECK(*cache.triad.noise_target_met == false);
    CHECK(!cache.triad.best_ms);
    auto bad = text;
    bad.replace(bad.find("\"L2\""), 4, "\"L9\"");
    CHECK(test::error_of([&] { dataset::parse_unchecked(bad, "bad"); })
          == "bad: /environment/peaks/caches/0/level: \"L9\" is not one of L1, L2, L3, L4");
  }
  SUBCASE("round trip of a CUDA cell's graph, cold and clock record (1.3.0)")
  {
    auto original = test::measured();
    dataset::CudaCell cuda;
    cuda.graph = dataset::VariantStats{0.031, 0.0305, 0.0312, 40, 64, 0.0226};
    cuda.graph_forwards_per_replay = 8;
    cuda.graph_over_eager = 0.258;
    cuda.cold_skip_reason = "the device reports no L2 cache size";
    cuda.clocks.sm_mean_mhz = 1975.5;
    cuda.clocks.sm_default_mhz = 1980;
    cuda.clocks.event_reasons = {"sw_power_cap"};
    cuda.clocks.dropped_samples = 3;
    cuda.clocks.kept_below_threshold = 1;
    original.results[0].cuda = cuda;
    dataset::CudaCell no_nvml;
    no_nvml.graph_skip_reason = "operation not permitted when stream is capturing";
    no_nvml.cold = dataset::VariantStats{0.2, 0.19, 0.21, 10, 12, 0.1};
    no_nvml.l2_flush_bytes = int64_t(100) << 20;
    no_nvml.cold_over_hot = 1.4;
    no_nvml.clocks.unavailable_reason = "cannot load libnvidia-ml.so.1";
    original.results[2].cuda = no_nvml;
    original.methodology->cuda_method = "graph, cold and clocks";
    const auto text = dataset::serialize(original);
    const auto read = dataset::parse(text, "round-trip");
    CHECK(dataset::serialize(read) == text);
    REQUIRE(read.results[0].cuda);
    const auto& got = *read.results[0].cuda;
    REQUIRE(got.graph);
    CHECK(got.graph->iterations_per_sample == 64);
    CHECK(got.graph->noise == 0.0226);
    CHECK(got.graph_over_eager == 0.258);
    CHECK(got.graph_forwards_per_replay == 8);
    CHECK(!got.cold);
    CHECK(got.cold_skip_reason == "the device reports no L2 cache size");
    CHECK(got.clocks.sm_default_mhz == 1980);
    CHECK(got.clocks.event_reasons == std::vector<std::string>{"sw_power_cap"});
    CHECK(got.clocks.dropped_samples == 3);
    CHECK(got.clocks.kept_below_threshold == 1);
    CHECK(got.clocks.threshold == 0.75);
    REQUIRE(read.results[2].cuda);
    CHECK(read.results[2].cuda->l2_flush_bytes == int64_t(100) << 20);
    CHECK(read.results[2].cuda->clocks.unavailable_reason == "cannot load libnvidia-ml.so.1");
    CHECK(!read.results[2].cuda->clocks.sm_mean_mhz);
    CHECK(!read.results[1].cuda);
    CHECK(read.methodology->cuda_method == "graph, cold and clocks");
  }
  SUBCASE("round trip of an aot_inductor cell's package record (1.3.0)")
  {
    auto original = test::measured();
    original.results[0].axes.set(dataset::k_compiled, dataset::Compiled::aot_inductor);
    original.results[0].aoti = dataset::AotiRecord{42.5, true};
    const auto text = dataset::serialize(original);
    // Schema only: the fixture's methodology declares the reference corner alone.
    const auto read = dataset::parse_unchecked(text, "round-trip");
    CHECK(dataset::serialize(read) == text);
    REQUIRE(read.results[0].aoti);
    CHECK(read.results[0].aoti->compile_seconds == 42.5);
    CHECK(read.results[0].aoti->cached);
    CHECK(!read.results[1].aoti);
  }
  SUBCASE("a package record on an eager cell is refused with its pointer")
  {
    auto bad = test::measured();
    bad.results[0].aoti = dataset::AotiRecord{42.5, false};
    CHECK(parse_error(dataset::serialize(bad)).find("/results/0/aoti") != std::string::npos);
  }
  SUBCASE("a CUDA record breaking the rules is refused: both graph and its reason, a ratio without figures")
  {
    auto bad = test::measured();
    dataset::CudaCell cuda;
    cuda.graph = dataset::VariantStats{0.031, 0.0305, 0.0312, 40, 64, 0.0226};
    cuda.graph_skip_reason = "cannot capture";
    cuda.cold_over_hot = 1.2;
    bad.results[0].cuda = cuda;
    const auto error = parse_error(dataset::serialize(bad));
    CHECK(error.find("/results/0/cuda/graph_skip_reason") != std::string::npos);
    CHECK(error.find("more problem") != std::string::npos); // /results/0/cuda/cold_over_hot
  }
  SUBCASE("round trip of a published reference with its source")
  {
    auto reference = test::measured();
    reference.kind = dataset::Kind::published_reference;
    reference.environment.reset();
    reference.methodology.reset();
    reference.provenance.source = dataset::Source{"Page", "", "April 11, 2026", "CC BY 4.0", "cite the page",
                                                  "NVIDIA A100 (80GB)", "2.6", "PyTorch 2.6", {"rounded as printed"}};
    const auto text = dataset::serialize(reference);
    // Schema only: the fixture's quartiles are more than a published reference may hold.
    const auto read = dataset::parse_unchecked(text, "round-trip");
    CHECK(dataset::serialize(read) == text);
    REQUIRE(read.provenance.source);
    CHECK(read.provenance.source->notes == std::vector<std::string>{"rounded as printed"});
    CHECK(read.provenance.source->url.empty());
    CHECK(text.find("\"url\"", text.find("\"source\"")) == std::string::npos);
  }
  SUBCASE("the current schema version is written")
  {
    CHECK(measured_json()["schema_version"] == dataset::to_string(dataset::k_schema_version));
  }
}

TEST_CASE("dataset::parse")
{
  SUBCASE("empty file")
  {
    CHECK(parse_error("") == "bad.json: empty file, not a dataset");
    CHECK(parse_error(" \n\t") == "bad.json: empty file, not a dataset");
  }
  SUBCASE("truncated JSON")
  {
    const auto text = dataset::serialize(test::measured());
    const auto message = parse_error(text.substr(0, text.size() / 2));
    CHECK(message.rfind("bad.json: not valid JSON:", 0) == 0);
  }
  SUBCASE("not a dataset: another JSON document")
  {
    CHECK(parse_error("[1, 2, 3]") == "bad.json: not a layerbench dataset (no \"schema_version\" at the top level)");
    CHECK(parse_error("{\"name\": \"package.json\"}")
          == "bad.json: not a layerbench dataset (no \"schema_version\" at the top level)");
  }
  SUBCASE("NaN is not JSON")
  {
    auto text = dataset::serialize(test::measured());
    text.replace(text.find("\"median_ms\": 1.0"), 16, "\"median_ms\": NaN");
    CHECK(parse_error(text).find("not valid JSON") != std::string::npos);
  }
  SUBCASE("a number beyond double (1e400) is bad JSON, not a crash")
  {
    auto text = dataset::serialize(test::measured());
    text.replace(text.find("\"median_ms\": 1.0"), 16, "\"median_ms\": 1e400");
    CHECK(parse_error(text).find("number overflow") != std::string::npos);
  }
  SUBCASE("an integer beyond int64")
  {
    const auto message = mutated_dataset_error([](auto& j) { j["results"][0]["peak_memory_bytes"] = uint64_t(1) << 63; });
    CHECK(message == "bad.json: /results/0/peak_memory_bytes: integer out of range");
  }
  SUBCASE("an int32 field given a huge integer")
  {
    const auto message = mutated_dataset_error([](auto& j) { j["results"][0]["batch_size"] = int64_t(1) << 40; });
    CHECK(message == "bad.json: /results/0/batch_size: integer out of range");
  }
  SUBCASE("the CPU's identity and the NVIDIA driver's version (1.10.0) round-trip; files without them read")
  {
    auto data = test::measured();
    data.environment->cpu = dataset::CpuIdentity{"AuthenticAMD", 25, 17, 1, {"avx2", "avx512f", "avx512_bf16"}, "AVX512"};
    data.environment->device.kernel_driver = "580.159.04";
    const auto back = dataset::parse(dataset::serialize(data), "x.json");
    REQUIRE(back.environment->cpu);
    CHECK(back.environment->cpu->vendor == "AuthenticAMD");
    CHECK(back.environment->cpu->family == 25);
    CHECK(back.environment->cpu->model == 17);
    CHECK(back.environment->cpu->stepping == 1);
    CHECK(back.environment->cpu->isa == std::vector<std::string>{"avx2", "avx512f", "avx512_bf16"});
    CHECK(back.environment->cpu->aten_capability == "AVX512");
    CHECK(back.environment->device.kernel_driver == "580.159.04");
    const auto old = dataset::parse(dataset::serialize(test::measured()), "x.json");
    CHECK(!old.environment->cpu);
    CHECK(!old.environment->device.kernel_driver);
    CHECK(mutated_dataset_error([](auto& j) { j["environment"]["cpu"] = {{"vendor", "AuthenticAMD"}, {"isa", {"avx2", 3}}}; })
          == "bad.json: /environment/cpu/isa/1: expected a string");
    CHECK(mutated_dataset_error([](auto& j) { j["environment"]["cpu"] = {{"vendor", "AuthenticAMD"}, {"isa", {"avx2", ""}}}; })
          == "bad.json: /environment/cpu/isa/1: expected a flag name, found an empty string");
    CHECK(mutated_dataset_error([](auto& j) { j["environment"]["cpu"] = {{"vendor", "AuthenticAMD"}}; })
          == "bad.json: /environment/cpu/isa: missing required field");
  }
  SUBCASE("wrong types")
  {
    CHECK(mutated_dataset_error([](auto& j) { j["version"] = "1"; }) == "bad.json: /version: expected an integer, found string");
    CHECK(mutated_dataset_error([](auto& j) { j["results"][0]["stats"]["median_ms"] = "1.0"; })
          == "bad.json: /results/0/stats/median_ms: expected a number, found string");
    CHECK(mutated_dataset_error([](auto& j) { j["layers"] = nlohmann::json::object(); })
          == "bad.json: /layers: expected an array, found object");
    CHECK(mutated_dataset_error([](auto& j) { j["results"][1] = 5; }) == "bad.json: /results/1: expected an object, found number");
    CHECK(mutated_dataset_error([](auto& j) { j["environment"]["cudnn_benchmark"] = 0; })
          == "bad.json: /environment/cudnn_benchmark: expected true or false, found number");
  }
  SUBCASE("unknown fields, at the top and nested")
  {
    CHECK(mutated_dataset_error([](auto& j) { j["colour"] = 1; }) == "bad.json: /colour: unknown field");
    CHECK(mutated_dataset_error([](auto& j) { j["results"][0]["stats"]["median_us"] = 1; })
          == "bad.json: /results/0/stats/median_us: unknown field");
  }
  SUBCASE("an unknown field's name is escaped in the pointer (RFC 6901)")
  {
    CHECK(mutated_dataset_error([](auto& j) { j["a/b~c"] = 1; }) == "bad.json: /a~1b~0c: unknown field");
  }
  SUBCASE("deep nesting is an error, not a stack overflow")
  {
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    CHECK(parse_error(deep) == "bad.json: not a layerbench dataset (no \"schema_version\" at the top level)");
    auto text = dataset::serialize(test::measured());
    text.replace(text.find("\"Hand-made test dataset\""), 24, deep);
    CHECK(parse_error(text) == "bad.json: /title: expected a string, found array");
  }
  SUBCASE("a missing required field")
  {
    CHECK(mutated_dataset_error([](auto& j) { j.erase("title"); }) == "bad.json: /title: missing required field");
  }
  SUBCASE("an enum value out of the list")
  {
    CHECK(mutated_dataset_error([](auto& j) { j["kind"] = "simulated"; })
          == "bad.json: /kind: \"simulated\" is not one of \"measured\", \"published-reference\"");
  }
  SUBCASE("an unsupported unit")
  {
    CHECK(mutated_dataset_error([](auto& j) { j["units"]["time"] = "s"; })
          == "bad.json: /units/time: unit \"s\" is not supported; expected \"ms\"");
  }
  SUBCASE("schema versions: too old, too new, an older minor, malformed")
  {
    CHECK(mutated_dataset_error([](auto& j) { j["schema_version"] = "0.9.0"; }).find("is too old") != std::string::npos);
    CHECK(mutated_dataset_error([](auto& j) { j["schema_version"] = "2.0.0"; }).find("is too new") != std::string::npos);
    CHECK(mutated_dataset_error([](auto& j) { j["schema_version"] = "1.12.0"; }).find("is too new") != std::string::npos);
    CHECK(mutated_dataset_error([](auto& j) { j["schema_version"] = "1.x"; })
          == "bad.json: /schema_version: \"1.x\" is not a MAJOR.MINOR.PATCH version");
    auto older = measured_json();
    older["schema_version"] = "1.0.0";
    older["methodology"].erase("shard");
    CHECK(dataset::parse(older.dump(), "old.json").schema_version.minor == 0);
  }
  SUBCASE("a negative median is refused with the file, the pointer and the problem")
  {
    auto broken = test::measured();
    broken.results[3].stats->median_ms = -5;
    const auto message = parse_error(dataset::serialize(broken));
    CHECK(message.rfind("bad.json: /results/3/stats/median_ms: time -5.0 ms is not in (0, 10000000.0]", 0) == 0);
  }
  SUBCASE("a duplicate cell is refused")
  {
    auto broken = test::measured();
    broken.results.push_back(broken.results.front());
    CHECK(parse_error(dataset::serialize(broken)).find("bad.json: /results/4: duplicate cell Linear at batch size 1")
          == 0);
  }
  SUBCASE("a missing cell: refused when complete, accepted when partial (a run's checkpoint)")
  {
    auto partial = test::measured();
    partial.results.pop_back();
    const auto text = dataset::serialize(partial);
    CHECK(parse_error(text).find("cell Dropout at batch size 8 of the declared matrix is missing") != std::string::npos);
    CHECK(dataset::parse(text, "run.json.partial", dataset::Completeness::partial).results.size() == 3);
  }
  SUBCASE("a duplicate key is refused with its pointer, not the last value taken")
  {
    auto text = dataset::serialize(test::measured());
    text.replace(text.find("\"title\""), 7, "\"title\": \"first\", \"title\"");
    CHECK(parse_error(text) == "bad.json: /title: duplicate key \"title\"");
  }
  SUBCASE("a string over 4096 bytes is refused with its pointer")
  {
    CHECK(mutated_dataset_error([](auto& j) { j["title"] = std::string(200000, 't'); })
          == "bad.json: /title: string of 200000 bytes exceeds the 4096-byte limit");
    CHECK(mutated_dataset_error([](auto& j) { j["provenance"]["command_line"] = std::string(4097, 'c'); })
          == "bad.json: /provenance/command_line: string of 4097 bytes exceeds the 4096-byte limit");
  }
}

TEST_CASE("dataset::parse_unchecked")
{
  SUBCASE("the schema only, for validate to list every problem")
  {
    auto broken = test::measured();
    broken.results[3].stats->median_ms = -5;
    CHECK(dataset::parse_unchecked(dataset::serialize(broken), "bad.json").results[3].stats->median_ms == -5);
  }
}

TEST_CASE("dataset::from_json")
{
  SUBCASE("the 4096-byte string limit applies to a Json built in memory too")
  {
    auto json = measured_json();
    json["title"] = std::string(5000, 't');
    CHECK_THROWS_WITH_AS(dataset::from_json(json, "mem"), "mem: /title: string of 5000 bytes exceeds the 4096-byte limit",
                         Error);
  }
}

TEST_CASE("dataset::load")
{
  test::TempFolder folder;
  SUBCASE("a file that breaks the rules is refused, naming the file")
  {
    auto broken = test::measured();
    broken.results[3].stats->median_ms = -5;
    const auto path = folder.path() / "a.json";
    test::write_text(path, dataset::serialize(broken));
    CHECK_THROWS_WITH_AS(dataset::load(path),
                         doctest::Contains((path.string() + ": /results/3/stats/median_ms: time -5.0 ms is not in").c_str()), Error);
  }
  SUBCASE("a checkpoint loads with partial completeness")
  {
    auto partial = test::measured();
    partial.results.pop_back();
    const auto path = folder.path() / "run.json.partial";
    test::write_text(path, dataset::serialize(partial));
    CHECK_THROWS_AS(dataset::load(path), Error);
    CHECK(dataset::load(path, dataset::Completeness::partial).results.size() == 3);
  }
}

TEST_CASE("dataset::save")
{
  test::TempFolder folder;
  const auto path = folder.path() / "run.json";
  dataset::save(path, test::measured(), util::Overwrite::no);
  CHECK(dataset::serialize(dataset::load(path)) == dataset::serialize(test::measured()));
  SUBCASE("never over an existing file with Overwrite::no")
  {
    auto other = test::measured();
    other.title = "other";
    CHECK_THROWS_AS(dataset::save(path, other, util::Overwrite::no), Error);
    CHECK(dataset::load(path).title == "Hand-made test dataset");
  }
}
