// The CUDA measuring method on a real GPU (CTest device/cuda_method, built with
// -DLAYERBENCH_DEVICE_TESTS=ON; skipped with the reason where there is no GPU). Never asserts a timing,
// only that each part ran and recorded what it should.
#include "catalog/catalog.hpp"
#include "bench/cuda_backend.hpp"
#include "bench/cuda_variants.hpp"
#include "bench/measure.hpp"

#include <cuda_runtime_api.h>
#include <doctest/doctest.h>
#include <torch/torch.h>

using namespace layerbench;

namespace {

bench::MeasureSettings quick()
{
  bench::MeasureSettings settings;
  settings.warmup_seconds = 0.05;
  settings.block_target_seconds = 0.001;
  settings.stopping = {0.05, 5, 50, 0.5};
  return settings;
}

double graph_ms(const dataset::Cell& cell)
{
  return cell.cuda && cell.cuda->graph ? cell.cuda->graph->median_ms : -1.0;
}

} // namespace

TEST_CASE("bench::make_graph_timer")
{
  REQUIRE(torch::cuda::is_available());
  auto backend = bench::make_cuda_backend(0);
  c10::InferenceMode inference;
  auto linear = torch::nn::Linear(256, 256);
  linear->to(torch::kCUDA);
  const auto x = torch::randn({8, 256}, torch::kCUDA);
  SUBCASE("a capturable forward: replays, per-graph forwards recorded")
  {
    const auto timer = backend->variant_timer(bench::Variant::graph, [&] { linear->forward(x); });
    REQUIRE_MESSAGE(timer, timer.error());
    CHECK((*timer)->forwards_per_iteration() == bench::k_forwards_per_graph);
    CHECK((*timer)->time_block(3).device_seconds > 0);
    dataset::CudaCell record;
    (*timer)->describe(record);
    CHECK(record.graph_forwards_per_replay == bench::k_forwards_per_graph);
  }
  SUBCASE("a forward that synchronises cannot be captured: a reason, and CUDA still works after")
  {
    const auto timer = backend->variant_timer(bench::Variant::graph, [&] { (void)linear->forward(x).sum().item<float>(); });
    REQUIRE(!timer);
    CHECK(!timer.error().empty());
    MESSAGE("capture refused: " << timer.error());
    CHECK(linear->forward(x).sum().item<float>() == linear->forward(x).sum().item<float>());
    // The device's generator is out of capture mode again: a random draw works (it threw before).
    CHECK_NOTHROW((void)torch::dropout(x, 0.5, /*train=*/true).sum().item<float>());
  }
}

TEST_CASE("bench::make_cold_timer")
{
  REQUIRE(torch::cuda::is_available());
  auto backend = bench::make_cuda_backend(0);
  c10::InferenceMode inference;
  const auto a = torch::randn({512, 512}, torch::kCUDA);
  const auto timer = backend->variant_timer(bench::Variant::cold, [&] { torch::mm(a, a); });
  REQUIRE_MESSAGE(timer, timer.error());
  dataset::CudaCell record;
  (*timer)->describe(record);
  int l2 = 0;
  REQUIRE(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0) == cudaSuccess);
  REQUIRE(record.l2_flush_bytes);
  CHECK(*record.l2_flush_bytes >= 2 * static_cast<int64_t>(l2));
  CHECK((*timer)->time_block(4).device_seconds > 0);
}

TEST_CASE("bench::measure_cell")
{
  REQUIRE(torch::cuda::is_available());
  auto backend = bench::make_cuda_backend(0);
  std::atomic<bool> interrupted{false};
  const auto cell = bench::measure_cell(bench::find_layer("Linear"), 1, quick(), *backend, interrupted);
  REQUIRE(cell);
  REQUIRE_MESSAGE(cell->status == dataset::CellStatus::ok, cell->skip_reason);
  REQUIRE(cell->cuda);
  const auto& cuda = *cell->cuda;
  CHECK_MESSAGE(cuda.graph, cuda.graph_skip_reason);
  CHECK(cuda.graph_over_eager.value_or(0) > 0);
  CHECK_MESSAGE(cuda.cold, cuda.cold_skip_reason);
  CHECK(cuda.cold_over_hot.value_or(0) > 0);
  // The GPU machine has the driver, so NVML is read.
  CHECK_MESSAGE(cuda.clocks.unavailable_reason.empty(), cuda.clocks.unavailable_reason);
  CHECK(cuda.clocks.sm_mean_mhz.value_or(0) > 0);
  MESSAGE("Linear@1: eager " << cell->stats->median_ms << " ms, graph/eager " << cuda.graph_over_eager.value_or(-1)
                             << ", cold/hot " << cuda.cold_over_hot.value_or(-1) << ", SM "
                             << cuda.clocks.sm_mean_mhz.value_or(-1) << " MHz of default "
                             << cuda.clocks.sm_default_mhz.value_or(-1) << ", dropped " << cuda.clocks.dropped_samples);
}

// A profile leaves CUPTI attached to the process in torch 2.11 (unless TEARDOWN_CUPTI=1), which upstream
// reports slows later kernels by 10-20%: the run therefore profiles after all its timings. This reports
// the same small cell timed before and after one profile, so the effect is seen on this GPU; it asserts
// no timing.
TEST_CASE("bench::profile_cell")
{
  REQUIRE(torch::cuda::is_available());
  auto backend = bench::make_cuda_backend(0);
  std::atomic<bool> interrupted{false};
  auto settings = quick();
  settings.stopping = {0.01, 20, 2000, 1.0};
  const auto& spec = bench::find_layer("LayerNorm");
  const auto before = bench::measure_cell(spec, 1, settings, *backend, interrupted);
  REQUIRE(before);
  REQUIRE_MESSAGE(before->status == dataset::CellStatus::ok, before->skip_reason);
  const auto profile = bench::profile_cell(spec, 1, dataset::Axes{}, *backend);
  REQUIRE_MESSAGE(profile, profile.error());
  CHECK(!profile->kernels.empty());
  const auto after = bench::measure_cell(spec, 1, settings, *backend, interrupted);
  REQUIRE(after);
  REQUIRE_MESSAGE(after->status == dataset::CellStatus::ok, after->skip_reason);
  MESSAGE("LayerNorm@1 eager median: " << before->stats->median_ms << " ms before a profile, " << after->stats->median_ms
                                       << " ms after it (after/before " << after->stats->median_ms / before->stats->median_ms
                                       << "); graph replay " << graph_ms(*before) << " -> " << graph_ms(*after) << " ms");
}
