#include "bench/measure.hpp"

#include "catalog/catalog.hpp"
#include "bench/cpu_backend.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace layerbench;

namespace {

dataset::VariantStats figures(double median_ms)
{
  dataset::VariantStats stats;
  stats.median_ms = median_ms;
  stats.p25_ms = median_ms * 0.99;
  stats.p75_ms = median_ms * 1.01;
  stats.samples = 10;
  stats.iterations_per_sample = 4;
  stats.noise = 0.02;
  return stats;
}

} // namespace

TEST_CASE("bench::record_variant")
{
  dataset::CudaCell record;
  SUBCASE("graph: its figures and their ratio to the eager median")
  {
    bench::record_variant(record, bench::Variant::graph, figures(0.03), 0.12);
    REQUIRE(record.graph);
    CHECK(record.graph->median_ms == doctest::Approx(0.03));
    REQUIRE(record.graph_over_eager);
    CHECK(*record.graph_over_eager == doctest::Approx(0.25));
    CHECK(record.graph_skip_reason.empty());
    CHECK(!record.cold); // the other variant untouched
  }
  SUBCASE("cold: its ratio to the hot (eager) median")
  {
    bench::record_variant(record, bench::Variant::cold, figures(0.15), 0.12);
    REQUIRE(record.cold_over_hot);
    CHECK(*record.cold_over_hot == doctest::Approx(1.25));
    CHECK(!record.graph_over_eager);
  }
  SUBCASE("a forward that cannot be captured: the reason, no figures and no ratio")
  {
    bench::record_variant(record, bench::Variant::graph, figures(0.03), 0.12);
    bench::record_variant(record, bench::Variant::graph,
                          util::Expected<dataset::VariantStats>::failure("operation not permitted when stream is capturing"),
                          0.12);
    CHECK(!record.graph);
    CHECK(!record.graph_over_eager);
    CHECK(record.graph_skip_reason == "operation not permitted when stream is capturing");
  }
  SUBCASE("an empty reason still says there is none")
  {
    bench::record_variant(record, bench::Variant::cold, util::Expected<dataset::VariantStats>::failure(""), 0.12);
    CHECK(record.cold_skip_reason == "no reason given");
  }
}

TEST_CASE("bench::variant_stats")
{
  const auto summary = bench::summarize({1.0, 2.0, 3.0, 4.0});
  const auto stats = bench::variant_stats(summary, 16);
  CHECK(stats.median_ms == doctest::Approx(2.5));
  CHECK(stats.p25_ms == doctest::Approx(1.75));
  CHECK(stats.p75_ms == doctest::Approx(3.25));
  CHECK(stats.samples == 4);
  CHECK(stats.iterations_per_sample == 16);
  CHECK(stats.noise == doctest::Approx(1.5 / 2.5));
}

TEST_CASE("bench::profile_cell")
{
  auto backend = bench::make_cpu_backend();
  SUBCASE("the operators of one forward of the rebuilt cell")
  {
    const auto profile = bench::profile_cell(bench::find_layer("LayerNorm"), 1, dataset::Axes{}, *backend);
    REQUIRE(profile);
    const auto& ops = profile->operators;
    CHECK(std::any_of(ops.begin(), ops.end(), [](const auto& op) { return op.name == "aten::layer_norm"; }));
    CHECK(profile->kernels.empty()); // no CUDA activity on the CPU
  }
  SUBCASE("a train corner profiles the step: the forward and its backward")
  {
    dataset::Axes train;
    train.set(dataset::k_mode, dataset::GradMode::train);
    const auto profile = bench::profile_cell(bench::find_layer("LayerNorm"), 1, train, *backend);
    REQUIRE(profile);
    const auto& ops = profile->operators;
    CHECK(std::any_of(ops.begin(), ops.end(), [](const auto& op) { return op.name == "aten::native_layer_norm_backward"; }));
  }
  SUBCASE("a cell that cannot be built is a failure with torch's reason, not an exception")
  {
    dataset::Axes compiled;
    compiled.set(dataset::k_compiled, dataset::Compiled::aot_inductor);
    const auto missing = bench::profile_cell(bench::find_layer("LayerNorm"), 1, compiled, *backend, "/no/such/package.pt2");
    REQUIRE(!missing);
    CHECK(!missing.error().empty());
  }
}

TEST_CASE("bench::measure_cell")
{
  SUBCASE("on the CPU there is no CUDA record: no graph, no cold variant, no clocks")
  {
    auto backend = bench::make_cpu_backend();
    bench::MeasureSettings settings;
    settings.warmup_seconds = 0.0;
    settings.block_target_seconds = 0.0005;
    settings.stopping = {0.5, 3, 5, 0.2};
    std::atomic<bool> interrupted{false};
    const auto cell = bench::measure_cell(bench::find_layer("Dropout"), 1, settings, *backend, interrupted);
    REQUIRE(cell);
    CHECK(cell->status == dataset::CellStatus::ok);
    CHECK(!cell->cuda);
    // The profile is taken apart, after every timing of the run (bench::profile_cell).
    CHECK(cell->operators.empty());
  }
  SUBCASE("the CPU backend offers no variant timer, and says so")
  {
    auto backend = bench::make_cpu_backend();
    const auto timer = backend->variant_timer(bench::Variant::graph, [] {});
    REQUIRE(!timer);
    CHECK(timer.error() == "measured on CUDA devices only");
    CHECK(!backend->read_clock());
  }
}
