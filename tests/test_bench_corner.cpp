// SPDX-License-Identifier: MIT
#include "bench/detail/corner.hpp"

#include "bench/cpu_backend.hpp"
#include "bench/measure.hpp"

#include <ATen/autocast_mode.h>
#include <doctest/doctest.h>

using namespace layerbench;
using dataset::Axes;

namespace {

// Short, so the tests are quick; values are checked for presence and sense, never for speed.
bench::MeasureSettings quick_corner()
{
  bench::MeasureSettings settings;
  settings.warmup_seconds = 0;
  settings.warmup_min_iterations = 1;
  settings.block_target_seconds = 0.001;
  settings.stopping = {0.5, 3, 5, 0.05};
  return settings;
}

dataset::Cell measure(const std::string& layer, const Axes& axes)
{
  auto backend = bench::make_cpu_backend();
  std::atomic<bool> interrupted{false};
  auto cell = bench::measure_cell(bench::find_layer(layer), 1, axes, quick_corner(), *backend, interrupted);
  REQUIRE(cell);
  return *cell;
}

Axes train()
{
  Axes axes;
  axes.set(dataset::k_mode, dataset::GradMode::train);
  return axes;
}

} // namespace

TEST_CASE("bench::detail::AutocastScope")
{
  SUBCASE("enables autocast with the dtype, and restores both on leaving")
  {
    REQUIRE(!at::autocast::is_autocast_enabled(c10::DeviceType::CPU));
    const auto before = at::autocast::get_autocast_dtype(c10::DeviceType::CPU);
    {
      bench::detail::AutocastScope outer(c10::DeviceType::CPU, c10::ScalarType::BFloat16);
      CHECK(at::autocast::is_autocast_enabled(c10::DeviceType::CPU));
      // ScalarType has no doctest printer: compare as a bool.
      CHECK(bool(at::autocast::get_autocast_dtype(c10::DeviceType::CPU) == c10::ScalarType::BFloat16));
      const auto a = torch::randn({4, 4});
      CHECK(bool(torch::mm(a, a).scalar_type() == c10::ScalarType::BFloat16));
    }
    CHECK(!at::autocast::is_autocast_enabled(c10::DeviceType::CPU));
    CHECK(bool(at::autocast::get_autocast_dtype(c10::DeviceType::CPU) == before));
  }
}

TEST_CASE("bench::detail::to_channels_last")
{
  auto instance = bench::detail::instantiate(bench::find_layer("Conv2d"), 1, torch::kCPU);
  bench::detail::to_channels_last(instance);
  CHECK(instance.input.is_contiguous(at::MemoryFormat::ChannelsLast));
  for (const auto& parameter : instance.module->parameters()) {
    if (parameter.dim() == 4) {
      CHECK(parameter.is_contiguous(at::MemoryFormat::ChannelsLast));
    }
  }
  CHECK(instance.forward().is_contiguous(at::MemoryFormat::ChannelsLast));
}

TEST_CASE("bench::measure_cell axes")
{
  SUBCASE("the reference corner has no train parts and keeps the reference axes")
  {
    const auto cell = measure("LayerNorm", Axes{});
    CHECK(cell.status == dataset::CellStatus::ok);
    CHECK(cell.axes.is_reference());
    CHECK(!cell.train);
    CHECK(cell.achieved_flop_per_s);
  }
  SUBCASE("train: both gradients timed apart, and their sum")
  {
    const auto cell = measure("LayerNorm", train());
    REQUIRE(cell.status == dataset::CellStatus::ok);
    REQUIRE(cell.train);
    REQUIRE(cell.train->backward_input);
    REQUIRE(cell.train->backward_weight);
    CHECK(cell.train->sum_ms == doctest::Approx(cell.train->forward.median_ms + cell.train->backward_input->median_ms
                                                + cell.train->backward_weight->median_ms));
    CHECK(!cell.achieved_flop_per_s); // the FLOP formulas count a forward only
  }
  SUBCASE("train: a layer without parameters has no weight gradient")
  {
    const auto cell = measure("Dropout", train());
    REQUIRE(cell.train);
    CHECK(cell.train->backward_input);
    CHECK(!cell.train->backward_weight);
  }
  SUBCASE("train: integer indices have no input gradient")
  {
    const auto cell = measure("Embedding", train());
    REQUIRE(cell.train);
    CHECK(!cell.train->backward_input);
    CHECK(cell.train->backward_weight);
  }
  SUBCASE("bf16 autocast, no_grad and channels_last run")
  {
    Axes axes;
    axes.set(dataset::k_precision, dataset::Precision::bf16);
    axes.set(dataset::k_mode, dataset::GradMode::no_grad);
    axes.set(dataset::k_memory_format, dataset::MemoryFormat::channels_last);
    const auto cell = measure("BatchNorm2d", axes);
    CHECK(cell.status == dataset::CellStatus::ok);
    CHECK(cell.axes == axes);
  }
}

TEST_CASE("bench::detail::describe_axes")
{
  SUBCASE("every axis of the table, in its order")
  {
    const auto text = bench::detail::describe_axes();
    size_t previous = 0;
    for (const auto& info : dataset::axis_table()) {
      CAPTURE(info.name);
      const auto at = text.find(info.name + ": ");
      REQUIRE(at != std::string::npos);
      CHECK(at >= previous);
      previous = at;
    }
  }
  SUBCASE("an axis bench does not apply is named, not described as nothing")
  {
    const dataset::ScopedAxis fake({"fake", {"a", "b"}, "a test-only axis"});
    CHECK_THROWS_WITH(bench::detail::describe_axes(), doctest::Contains("axis fake: "));
  }
}
