#include "bench/detail/measurers.hpp"

#include "catalog/catalog.hpp"
#include "bench/cpu_backend.hpp"

#include <doctest/doctest.h>

using namespace layerbench;
using namespace layerbench::bench::detail;

namespace {

// Short, so the test is quick; the figures are checked for shape, never for speed.
bench::MeasureSettings quick_measurer()
{
  bench::MeasureSettings settings;
  settings.warmup_seconds = 0.0;
  settings.block_target_seconds = 0.0005;
  settings.stopping = {0.5, 3, 5, 0.2};
  return settings;
}

dataset::Axes train_corner()
{
  dataset::Axes axes;
  axes.set(dataset::k_mode, dataset::GradMode::train);
  return axes;
}

} // namespace

TEST_CASE("bench::detail::measure_eager")
{
  auto backend = bench::make_cpu_backend();
  std::atomic<bool> interrupted{false};
  const GradScope grad(dataset::GradMode::inference_mode);
  // 64 MiB held by someone else, as the canary holds its buffers while a cell is measured.
  const auto held_elsewhere = torch::ones({16 * 1024 * 1024});
  const auto live_before = backend->live_memory_bytes();
  const CellBody cell_body(bench::find_layer("LayerNorm"), 2, dataset::Axes{}, *backend, {});
  bench::ClockLog clocks(backend->default_clock_mhz());
  SUBCASE("the first call, the samples the stopping rule asked for, and the memory peak")
  {
    const auto eager = measure_eager(cell_body, *backend, quick_measurer(), Clock::now(), clocks, interrupted, live_before);
    REQUIRE(eager);
    CHECK(eager->first_call_ms > 0);
    const auto samples = eager->timed.sampling.device_ms.size();
    CHECK(samples >= 3);
    CHECK(samples <= 5);
    CHECK(eager->timed.sampling.host_ms.size() == samples);
    CHECK(eager->timed.iterations >= 1);
    REQUIRE(eager->peak_memory_bytes);
    // LayerNorm(512) on 2 x 512 x 512 floats: its input and output (2 MiB each) and its weight and bias,
    // counted above what was live before the cell; the 64 MiB held elsewhere are not the cell's.
    const int64_t held = 2 * (2 * 512 * 512 * 4) + 2 * 512 * 4;
    CHECK(*eager->peak_memory_bytes >= held);
    CHECK(*eager->peak_memory_bytes < 2 * held);
  }
  SUBCASE("without the bytes live before the cell there is no figure")
  {
    const auto eager = measure_eager(cell_body, *backend, quick_measurer(), Clock::now(), clocks, interrupted, std::nullopt);
    REQUIRE(eager);
    CHECK(!eager->peak_memory_bytes);
  }
  SUBCASE("interrupted: no timing")
  {
    interrupted = true;
    CHECK(!measure_eager(cell_body, *backend, quick_measurer(), Clock::now(), clocks, interrupted, live_before));
  }
}

TEST_CASE("bench::detail::measure_variant")
{
  auto backend = bench::make_cpu_backend();
  std::atomic<bool> interrupted{false};
  bench::ClockLog clocks(backend->default_clock_mhz());
  dataset::CudaCell record;
  SUBCASE("a device without the variant's timer: the reason, no figures")
  {
    const auto outcome = measure_variant(bench::Variant::cold, [] {}, quick_measurer(), *backend, clocks, record, interrupted);
    REQUIRE(outcome);
    REQUIRE(!*outcome);
    CHECK(outcome->error() == "measured on CUDA devices only");
  }
  SUBCASE("the CUDA record keeps every variant's reason and the clocks' absence")
  {
    const auto cuda = measure_cuda_variants([] {}, 1.0, quick_measurer(), *backend, clocks, interrupted);
    REQUIRE(cuda);
    CHECK(cuda->graph_skip_reason == "measured on CUDA devices only");
    CHECK(cuda->cold_skip_reason == "measured on CUDA devices only");
    CHECK(!cuda->graph);
    CHECK(!cuda->cold);
  }
}

TEST_CASE("bench::detail::measure_train_parts")
{
  auto backend = bench::make_cpu_backend();
  std::atomic<bool> interrupted{false};
  const GradScope grad(dataset::GradMode::train);
  SUBCASE("a layer with weights: the forward and both backward parts, summed")
  {
    const CellBody cell_body(bench::find_layer("LayerNorm"), 2, train_corner(), *backend, {});
    const auto parts = measure_train_parts(cell_body, *backend, quick_measurer(), interrupted);
    REQUIRE(parts);
    REQUIRE(parts->backward_input);
    REQUIRE(parts->backward_weight);
    CHECK(parts->sum_ms
          == doctest::Approx(parts->forward.median_ms + parts->backward_input->median_ms
                             + parts->backward_weight->median_ms));
  }
  SUBCASE("a layer without weights has no weight gradient to time")
  {
    const CellBody cell_body(bench::find_layer("Dropout"), 2, train_corner(), *backend, {});
    const auto parts = measure_train_parts(cell_body, *backend, quick_measurer(), interrupted);
    REQUIRE(parts);
    CHECK(parts->backward_input);
    CHECK(!parts->backward_weight);
  }
}
