// SPDX-License-Identifier: MIT
// Seed 001's questions about whole models (issue 38): each answer's condition, both ways, on hand-made
// model datasets. The numbers are test inputs, not measurements.
#include "site/model_answers.hpp"

#include "site/reference_beside.hpp"
#include "site/scaling_section.hpp"
#include "site/view_common.hpp"

#include "test_dataset_fixture.hpp"
#include "test_site_sites.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using layerbench::site::Data;
namespace dataset = layerbench::dataset;
namespace site = layerbench::site;
namespace test = layerbench::test;

namespace {

dataset::Axes axes_of(const std::string& mode, const std::string& precision, const std::string& compiled = "eager")
{
  dataset::Axes axes;
  dataset::set_axis(axes, "mode", mode);
  dataset::set_axis(axes, "precision", precision);
  dataset::set_axis(axes, "compiled", compiled);
  return axes;
}

// A measured dataset of one whole model with no cells yet.
dataset::Dataset models(const std::string& id, const std::string& device, const std::string& torch, bool cuda = false)
{
  auto d = test::measured({"ResNet50"}, {8});
  d.id = id;
  d.results.clear();
  d.layers.front().kind = dataset::LayerKind::model;
  d.layers.front().input_shape = "B x 3 x 224 x 224";
  d.layers.front().params = 25557032;
  d.environment->device.name = device;
  d.environment->device.type = cuda ? "cuda" : "cpu";
  d.environment->torch_version = torch;
  return d;
}

// A timed cell of median `ms` and interquartile range [p25, p75].
void add(dataset::Dataset& d, int batch, const dataset::Axes& axes, double ms, double p25, double p75)
{
  auto cell = test::timed_cell(d.layers.front().name, batch, test::quartiles(ms, p25, p75));
  cell.axes = axes;
  d.results.push_back(cell);
}

// A transcribed reference: medians only, as the DLE files are.
dataset::Dataset reference(const std::string& precision, int batch, double ms)
{
  auto d = models("dle-test-reference", "", "");
  d.kind = dataset::Kind::published_reference;
  d.environment.reset();
  d.provenance.source = dataset::Source{"DLE README", "https://example.org/readme", "", "", "", "A100 80GB", "", "", {}};
  dataset::Stats stats;
  stats.median_ms = ms;
  auto cell = test::timed_cell("ResNet50", batch, stats);
  cell.axes = axes_of("train", precision);
  d.results.push_back(cell);
  return d;
}

const std::string k_one_run = "faster, within one run (the spread between processes was not measured)";

std::string text(const Data& view, const std::string& key) { return view.get(key)->string_value(); }

const Data& first_row(const Data& view) { return view.get("rows")->list_value().front(); }

} // namespace

TEST_CASE("site::verdict_of")
{
  auto d = models("m", "CPU", "2.11.0");
  add(d, 8, axes_of("train", "fp32"), 10, 9, 11);
  add(d, 8, axes_of("train", "bf16"), 5, 4.5, 5.5);
  add(d, 8, axes_of("inference_mode", "fp32"), 10.5, 10, 12);
  const auto& fp32 = d.results[0];
  const auto& bf16 = d.results[1];
  const auto& overlapping = d.results[2];

  SUBCASE("ranges apart")
  {
    CHECK(site::verdict_of(bf16, fp32) == site::Verdict::faster);
    CHECK(site::verdict_of(fp32, bf16) == site::Verdict::slower);
    CHECK(site::verdict_text(site::Verdict::faster, bf16, fp32) == k_one_run);
  }
  SUBCASE("ranges apart in cells measured in rounds: no caveat")
  {
    auto a = bf16;
    auto b = fp32;
    a.round_spread = dataset::RoundSpread{3, 4.6, 5.4, 4.6, 5.4};
    b.round_spread = dataset::RoundSpread{3, 9.2, 10.8, 9.2, 10.8};
    CHECK(site::verdict_text(site::verdict_of(a, b), a, b) == "faster");
    CHECK(site::verdict_text(site::verdict_of(b, a), b, a) == "slower");
  }
  SUBCASE("in rounds, the 95% intervals decide: quartiles apart, intervals overlapping, no verdict")
  {
    // 2% apart with quartiles of 1%, as a training step of two releases: the round medians of each
    // spread wider than that, and a second run need not repeat it.
    auto a = fp32;
    auto b = fp32;
    a.stats = dataset::Stats{};
    a.stats->median_ms = 10.0;
    a.stats->p25_ms = 9.9;
    a.stats->p75_ms = 10.1;
    b.stats = a.stats;
    b.stats->median_ms = 10.25;
    b.stats->p25_ms = 10.15;
    b.stats->p75_ms = 10.35;
    a.round_spread = dataset::RoundSpread{3, 9.6, 10.4, 9.6, 10.4};
    b.round_spread = dataset::RoundSpread{3, 9.9, 10.6, 9.9, 10.6};
    CHECK(site::verdict_of(a, b) == site::Verdict::unclear);
    CHECK(site::verdict_text(site::Verdict::unclear, a, b) == "no clear difference (their 95% intervals over rounds overlap)");
    a.round_spread.reset();
    CHECK(site::verdict_of(a, b) == site::Verdict::faster); // one run: its quartiles, with the caveat
    CHECK(site::verdict_text(site::Verdict::faster, a, b) == k_one_run);
  }
  SUBCASE("ranges overlap")
  {
    CHECK(site::verdict_of(overlapping, fp32) == site::Verdict::unclear);
    CHECK(site::verdict_text(site::Verdict::unclear, overlapping, fp32) == "no clear difference (their interquartile ranges overlap)");
  }
  SUBCASE("a cell without quartiles")
  {
    auto bare = bf16;
    bare.stats->p25_ms.reset();
    CHECK(site::verdict_of(bare, fp32) == site::Verdict::unclear);
    CHECK(site::verdict_text(site::Verdict::unclear, bare, fp32) == "no verdict (a cell has no interquartile range)");
  }
}

TEST_CASE("site::compile_answer")
{
  SUBCASE("a compiled cell beside its eager twin, ranges apart: faster, with the ratio")
  {
    auto d = models("gpu-models", "Test GPU", "2.11.0", true);
    add(d, 512, axes_of("train", "fp32"), 550, 549, 551);
    add(d, 512, axes_of("train", "fp32", "torch_compile"), 500, 499, 501);
    const Data answer = site::compile_answer(test::model_site({d}), "");
    REQUIRE(answer.is_object());
    CHECK(text(answer, "pairs") == "1 pair");
    CHECK(text(answer, "faster") == "1");
    const Data& row = first_row(answer);
    CHECK(text(row, "ratio") == "1.1×");
    CHECK(text(row, "verdict") == k_one_run);
    CHECK(text(row, "batch") == "512");
    CHECK(text(row, "device") == "Test GPU");
  }
  SUBCASE("overlapping ranges: no clear difference, whichever median is larger")
  {
    auto d = models("cpu-models", "Test CPU", "2.11.0");
    add(d, 8, axes_of("train", "fp32"), 10, 9, 11);
    add(d, 8, axes_of("train", "fp32", "torch_compile"), 10.5, 10, 11.5);
    const Data answer = site::compile_answer(test::model_site({d}), "");
    CHECK(text(answer, "unclear") == "1");
    CHECK(text(first_row(answer), "verdict") == "no clear difference (their interquartile ranges overlap)");
  }
  SUBCASE("the twin in another dataset, or another batch size, pairs nothing")
  {
    auto eager = models("eager", "Test CPU", "2.11.0");
    auto compiled = models("compiled", "Test CPU", "2.11.0");
    add(eager, 8, axes_of("train", "fp32"), 10, 9, 11);
    add(compiled, 8, axes_of("train", "fp32", "torch_compile"), 5, 4, 6);
    add(compiled, 1, axes_of("train", "fp32"), 5, 4, 6);
    CHECK(site::compile_answer(test::model_site({eager, compiled}), "").is_false());
  }
  SUBCASE("a model page asks of its own model only")
  {
    auto d = models("m", "Test CPU", "2.11.0");
    add(d, 8, axes_of("train", "fp32"), 10, 9, 11);
    add(d, 8, axes_of("train", "fp32", "torch_compile"), 5, 4, 6);
    CHECK(site::compile_answer(test::model_site({d}), "BertBase").is_false());
    CHECK(site::compile_answer(test::model_site({d}), "ResNet50").is_object());
  }
}

TEST_CASE("site::precision_answer")
{
  auto gpu = models("gpu-models", "Test GPU", "2.11.0", true);
  add(gpu, 256, axes_of("inference_mode", "fp32"), 70, 69, 71);
  add(gpu, 256, axes_of("inference_mode", "bf16"), 25, 24, 26);
  auto cpu = models("cpu-models", "Test CPU", "2.11.0");
  add(cpu, 8, axes_of("train", "fp32"), 700, 690, 710);
  add(cpu, 8, axes_of("train", "bf16"), 690, 680, 705);

  SUBCASE("the CPU's group first, then the GPU's, each with its own verdicts")
  {
    const Data answer = site::precision_answer(test::model_site({gpu, cpu}), "");
    const auto& groups = answer.get("groups")->list_value();
    REQUIRE(groups.size() == 2);
    CHECK(text(groups[0], "device") == "Test CPU");
    CHECK(groups[0].get("gpu")->is_false());
    CHECK(text(first_row(groups[0]), "verdict") == "no clear difference (their interquartile ranges overlap)");
    CHECK(text(groups[1], "device") == "Test GPU");
    CHECK(groups[1].get("gpu")->is_true());
    CHECK(text(first_row(groups[1]), "ratio") == "2.8×");
    CHECK(text(first_row(groups[1]), "verdict") == k_one_run);
  }
  SUBCASE("no fp32 twin: no answer")
  {
    auto alone = models("bf16-only", "Test CPU", "2.11.0");
    add(alone, 8, axes_of("train", "bf16"), 5, 4, 6);
    CHECK(site::precision_answer(test::model_site({alone}), "").is_false());
  }
}

TEST_CASE("site::releases_answer")
{
  SUBCASE("one release per device: says so, computed, and links the layers' history where there is one")
  {
    auto cpu = models("cpu-models", "Test CPU", "2.11.0");
    add(cpu, 8, axes_of("train", "fp32"), 10, 9, 11);
    auto gpu = models("gpu-models", "Test GPU", "2.11.0", true);
    add(gpu, 8, axes_of("train", "fp32"), 1, 0.9, 1.1);
    const Data answer = site::releases_answer(test::model_site({cpu, gpu}), "");
    CHECK(answer.get("compared")->is_false());
    const Data& none = *answer.get("no_series");
    CHECK(text(none, "devices") == "Test CPU with 2 threads: torch 2.11.0; Test GPU: torch 2.11.0");
    CHECK(none.get("versions_href")->is_false()); // the site has no layer datasets of two releases
  }
  SUBCASE("a 1.x and a 2.x release on one device: the newest of each compared, training only")
  {
    auto old = models("old", "Test CPU", "1.13.1");
    auto older = models("older", "Test CPU", "1.12.1");
    auto now = models("now", "Test CPU", "2.11.0");
    add(old, 8, axes_of("train", "fp32"), 20, 19, 21);
    add(older, 8, axes_of("train", "fp32"), 40, 39, 41);
    add(now, 8, axes_of("train", "fp32"), 10, 9, 11);
    add(old, 8, axes_of("inference_mode", "fp32"), 20, 19, 21);
    add(now, 8, axes_of("inference_mode", "fp32"), 10, 9, 11);
    const Data answer = site::releases_answer(test::model_site({older, old, now}), "");
    REQUIRE(answer.get("compared")->is_true());
    CHECK(answer.get("no_series")->is_false());
    const Data& series = answer.get("series")->list_value().front();
    CHECK(text(series, "older") == "1.13.1");
    CHECK(text(series, "newer") == "2.11.0");
    CHECK(series.get("missing_major")->is_false());
    REQUIRE(series.get("rows")->list_value().size() == 1);
    const Data& row = first_row(series);
    CHECK(text(row, "ratio") == "2×");
    CHECK(text(row, "verdict") == k_one_run);
    // Measured in rounds: the ratio at the figures both spreads support, with the range of their intervals.
    old.results[0].round_spread = dataset::RoundSpread{3, 18, 22, 18, 22};
    now.results[0].round_spread = dataset::RoundSpread{3, 9.5, 10.5, 9.5, 10.5};
    const Data in_rounds = site::releases_answer(test::model_site({older, old, now}), "");
    const Data& round_row = first_row(in_rounds.get("series")->list_value().front());
    CHECK(text(round_row, "ratio") == "2× (1.7–2.3×)");
    CHECK(text(round_row, "verdict") == "faster");
    CHECK(text(row, "setting") == "training, fp32");
  }
  SUBCASE("two 2.x releases: oldest against newest, saying no 1.x was measured")
  {
    auto a = models("a", "Test CPU", "2.0.1");
    auto b = models("b", "Test CPU", "2.11.0");
    add(a, 8, axes_of("train", "fp32"), 10, 9, 11);
    add(b, 8, axes_of("train", "fp32"), 10.2, 9.5, 11);
    const Data answer = site::releases_answer(test::model_site({b, a}), "");
    const Data& series = answer.get("series")->list_value().front();
    CHECK(text(series, "missing_major") == "1");
    CHECK(text(series, "older") == "2.0.1");
    CHECK(text(first_row(series), "verdict") == "no clear difference (their interquartile ranges overlap)");
  }
}

TEST_CASE("site::reference_beside")
{
  auto gpu = models("gpu-models", "Test GPU", "2.11.0", true);
  add(gpu, 512, axes_of("train", "fp32"), 500, 499, 501); // 1,024 images/s
  add(gpu, 256, axes_of("train", "fp32"), 260, 259, 261);
  add(gpu, 256, axes_of("inference_mode", "fp32"), 50, 49, 51);

  SUBCASE("the same kind of precision: the reference's batch preferred, the ratio, and what differs")
  {
    const Data view = site::reference_beside(test::model_site({gpu, reference("tf32", 256, 256)}), ""); // 1,000 images/s
    REQUIRE(view.is_object());
    REQUIRE(view.get("rows")->list_value().size() == 1);
    const Data& row = first_row(view);
    CHECK(text(row, "batch") == "256");
    CHECK(text(row, "reference_batch") == "256");
    CHECK(text(row, "ratio") == "0.985×");
    CHECK(text(row, "differences") == "precision: fp32 with TF32 off against TF32");
    CHECK(row.get("batches_differ")->is_false());
    const Data& source = view.get("sources")->list_value().front();
    CHECK(text(source, "url") == "https://example.org/readme");
  }
  SUBCASE("at another batch size, the row says so")
  {
    gpu.results.erase(gpu.results.begin() + 1);
    const Data view = site::reference_beside(test::model_site({gpu, reference("tf32", 256, 256)}), "");
    const Data& row = first_row(view);
    CHECK(text(row, "batch") == "512");
    CHECK(text(row, "ratio") == "1.02×");
    CHECK(text(row, "differences").rfind("different batch sizes: 512 against 256", 0) == 0);
    CHECK(row.get("batches_differ")->is_true());
  }
  SUBCASE("two datasets of one device: one row, the cell of the same precision preferred")
  {
    auto tf32 = models("gpu-tf32", "Test GPU", "2.11.0", true);
    add(tf32, 64, axes_of("train", "tf32"), 64, 63, 65); // 1,000 images/s
    const Data view = site::reference_beside(test::model_site({gpu, tf32, reference("tf32", 256, 256)}), "");
    REQUIRE(view.get("rows")->list_value().size() == 1);
    const Data& row = first_row(view);
    CHECK(text(row, "dataset") == "gpu-tf32");
    CHECK(text(row, "ratio") == "1×");
    CHECK(text(row, "differences") == "different batch sizes: 64 against 256");
  }
  SUBCASE("mixed precision in the reference, none of ours: nothing shown")
  {
    CHECK(site::reference_beside(test::model_site({gpu, reference("fp16", 256, 100)}), "").is_false());
  }
  SUBCASE("another model's page: nothing shown")
  {
    CHECK(site::reference_beside(test::model_site({gpu, reference("tf32", 256, 256)}), "BertLarge").is_false());
  }
}

TEST_CASE("site::scaling_section")
{
  SUBCASE("no data-parallel cell and no reference file: no section")
  {
    auto cpu = models("cpu-models", "Test CPU", "2.11.0");
    add(cpu, 8, axes_of("train", "fp32"), 10, 9, 11);
    CHECK(site::scaling_section(test::model_site({cpu})).is_false());
  }
  SUBCASE("a GPU dataset with two ranks and its one-process twin fills the GPU figure")
  {
    auto gpu = models("gpu-models", "Test GPU", "2.11.0", true);
    add(gpu, 8, axes_of("train", "fp32"), 100, 99, 101);
    auto ranks = models("gpu-ranks", "Test GPU", "2.11.0", true);
    add(ranks, 8, axes_of("train", "fp32"), 125, 124, 126);
    ranks.results.back().data_parallel = dataset::DataParallel{2, "nccl", 26214400, {1000}, 5, 4, 6};
    ranks.results.back().throughput_samples_per_s = 2 * 8 / 0.125;
    const Data view = site::scaling_section(test::model_site({gpu, ranks}));
    REQUIRE(view.is_object());
    CHECK(view.get("has_gpu")->is_true());
    const Data& row = view.get("measured")->list_value().front();
    CHECK(text(row, "factor") == "0.8");
    CHECK(row.get("cpu_test")->is_false());
  }
  SUBCASE("the reference file's CPU run is a test of the path on its cores, and no GPU is said to be measured")
  {
    auto site_data = test::model_site({reference("tf32", 256, 272.921109)});
    dataset::ScalingReference file;
    dataset::MeasuredScaling row;
    row.model = "ResNet50";
    row.axes = axes_of("train", "fp32");
    row.batch_per_rank = 8;
    row.world_size = 2;
    row.device = "Test CPU";
    row.device_type = "cpu";
    row.cores = 2;
    row.one_process_samples_per_s = 10.9;
    row.all_ranks_samples_per_s = 9.01;
    row.factor = 0.415;
    row.factor_low = 0.392;
    row.factor_high = 0.433;
    row.all_reduce_ms = 69.3;
    file.measured.push_back(row);
    dataset::AllReduceModel model{"ResNet50", 8, 4, {{"NVLink 3", 600e9, {"datasheet", "", ""}}}};
    file.all_reduce_model = model;
    site_data.scaling_reference = file;
    const Data view = site::scaling_section(site_data);
    CHECK(view.get("has_gpu")->is_false());
    const Data& measured = view.get("measured")->list_value().front();
    CHECK(text(measured, "cpu_test") == "2 cores");
    CHECK(text(measured, "range") == "0.392–0.433");
    // docs/scale.md's model: 25,557,032 x 4 B x 1.75 over 300 GB/s is 0.596 ms; 272.9 / (272.9 + 0.596).
    const Data& link = view.get("model")->get("rows")->list_value().front();
    CHECK(text(link, "time") == "0.596 ms");
    CHECK(link.get("factors")->list_value().front().string_value() == "0.998");
  }
}
