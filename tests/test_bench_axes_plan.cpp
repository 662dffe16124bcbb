// SPDX-License-Identifier: MIT
#include "bench/axes_plan.hpp"

#include "util/error.hpp"

#include <doctest/doctest.h>

using namespace layerbench;
using bench::InputRank;
using bench::DeviceKind;
using dataset::Axes;

namespace {

const bench::LayerTraits k_conv{"Conv2d", InputRank::four_d};
const bench::LayerTraits k_linear{"Linear", InputRank::other};

Axes with(const std::string& axis, const std::string& value)
{
  Axes axes;
  dataset::set_axis(axes, axis, value);
  return axes;
}

} // namespace

TEST_CASE("bench::unsupported")
{
  SUBCASE("the reference corner runs everywhere")
  {
    CHECK(!bench::unsupported(Axes{}, DeviceKind::cpu, k_linear));
    CHECK(!bench::unsupported(Axes{}, DeviceKind::cuda, k_conv));
  }
  SUBCASE("fp16, tf32 and cudnn.benchmark are skipped on the CPU, with the reason, and run on CUDA")
  {
    for (const auto& [axis, value] : {std::make_pair("precision", "fp16"), std::make_pair("precision", "tf32"),
                                      std::make_pair("cudnn_benchmark", "on")}) {
      CAPTURE(value);
      const auto reason = bench::unsupported(with(axis, value), DeviceKind::cpu, k_conv);
      REQUIRE(reason);
      CHECK(reason->find(std::string(axis) + "=" + value) == 0);
      CHECK(!bench::unsupported(with(axis, value), DeviceKind::cuda, k_conv));
    }
  }
  SUBCASE("bf16 autocast and every mode run on the CPU")
  {
    CHECK(!bench::unsupported(with("precision", "bf16"), DeviceKind::cpu, k_linear));
    CHECK(!bench::unsupported(with("mode", "train"), DeviceKind::cpu, k_linear));
    CHECK(!bench::unsupported(with("mode", "no_grad"), DeviceKind::cpu, k_linear));
  }
  SUBCASE("channels_last only for 4-D layers, naming the layer")
  {
    const auto channels_last = with("memory_format", "channels_last");
    CHECK(!bench::unsupported(channels_last, DeviceKind::cpu, k_conv));
    const auto reason = bench::unsupported(channels_last, DeviceKind::cuda, k_linear);
    REQUIRE(reason);
    CHECK(reason->find("Linear takes no 4-D input") != std::string::npos);
  }
  SUBCASE("aot_inductor runs fp32 contiguous inference_mode and no_grad, on both devices")
  {
    auto axes = with("compiled", "aot_inductor");
    CHECK(!bench::unsupported(axes, DeviceKind::cpu, k_linear));
    CHECK(!bench::unsupported(axes, DeviceKind::cuda, k_conv));
    axes.set(dataset::k_mode, dataset::GradMode::no_grad);
    CHECK(!bench::unsupported(axes, DeviceKind::cpu, k_conv));
  }
  SUBCASE("aot_inductor with train, autocast, channels_last or cudnn.benchmark is skipped, naming the axis")
  {
    for (const auto& [axis, value] : {std::make_pair("mode", "train"), std::make_pair("precision", "bf16"),
                                      std::make_pair("precision", "tf32"), std::make_pair("memory_format", "channels_last"),
                                      std::make_pair("cudnn_benchmark", "on")}) {
      CAPTURE(value);
      auto axes = with("compiled", "aot_inductor");
      dataset::set_axis(axes, axis, value);
      const auto reason = bench::unsupported(axes, DeviceKind::cuda, k_conv);
      REQUIRE(reason);
      CHECK(reason->find("forward-only fp32 contiguous") != std::string::npos);
      CHECK(reason->find(std::string(axis) + "=" + value) != std::string::npos);
      CHECK(!bench::unsupported(with(axis, value), DeviceKind::cuda, k_conv)); // eager runs it
    }
  }
}

TEST_CASE("bench::preset")
{
  SUBCASE("reference: today's matrix, one corner")
  {
    const auto p = bench::preset(bench::PresetName::reference, DeviceKind::cpu);
    CHECK(p.grid.is_reference());
    CHECK(p.batch_sizes == std::vector<int>{1, 8, 32, 128});
    CHECK(!p.cell_budget_seconds);
  }
  SUBCASE("cube on the CPU: every value the CPU supports, nothing it does not")
  {
    const auto p = bench::preset(bench::PresetName::cube, DeviceKind::cpu);
    CHECK(dataset::grid_values(p.grid, "precision") == std::vector<std::string>{"fp32", "bf16"});
    CHECK(dataset::grid_values(p.grid, "memory_format") == std::vector<std::string>{"contiguous", "channels_last"});
    CHECK(dataset::grid_values(p.grid, "cudnn_benchmark") == std::vector<std::string>{"off"});
    CHECK(dataset::grid_values(p.grid, "mode") == std::vector<std::string>{"inference_mode", "no_grad", "train"});
    CHECK(dataset::grid_values(p.grid, "compiled") == std::vector<std::string>{"eager"});
    CHECK(p.batch_sizes == std::vector<int>{1, 8});
    CHECK(p.cell_budget_seconds);
  }
  SUBCASE("cube on CUDA: all four precisions, cudnn.benchmark and aot_inductor")
  {
    const auto p = bench::preset(bench::PresetName::cube, DeviceKind::cuda);
    CHECK(dataset::corners(p.grid).size() == 4 * 2 * 2 * 3 * 2);
    CHECK(dataset::grid_values(p.grid, "compiled") == std::vector<std::string>{"eager", "aot_inductor"});
  }
  SUBCASE("models: eager, and an AOTInductor package for the fp32 inference corner only")
  {
    const bench::LayerTraits model{"ResNet50", bench::InputRank::four_d, true};
    for (const auto device : {DeviceKind::cpu, DeviceKind::cuda}) {
      const auto p = bench::preset(bench::PresetName::models, device);
      CHECK(dataset::grid_values(p.grid, "compiled") == std::vector<std::string>{"eager", "aot_inductor"});
      int packaged = 0;
      for (const auto& corner : dataset::corners(p.grid)) {
        if (corner[dataset::k_compiled] == dataset::Compiled::aot_inductor && !bench::unsupported(corner, device, model)) {
          CHECK(corner[dataset::k_precision] == dataset::Precision::fp32);
          CHECK(corner[dataset::k_mode] == dataset::GradMode::inference_mode);
          ++packaged;
        }
      }
      CHECK(packaged == 1);
    }
  }
  SUBCASE("an unknown preset names --preset") { CHECK_THROWS_AS(bench::parse_preset("fast"), UsageError); }
}

TEST_CASE("bench::estimate")
{
  bench::StoppingRule rule;
  rule.budget_seconds = 1.0;
  dataset::AxisGrid grid;
  dataset::apply_axes_argument(grid, "memory_format=contiguous,channels_last");
  dataset::apply_axes_argument(grid, "mode=inference_mode,train");
  const auto e = bench::estimate({k_conv, k_linear}, 2, dataset::corners(grid), DeviceKind::cpu, 0.0, rule);
  SUBCASE("cells, skipped and train cells are counted")
  {
    CHECK(e.cells == 2 * 2 * 4);
    CHECK(e.skipped == 2 * 2); // Linear in channels_last, both modes, both batch sizes
    CHECK(e.train == 2 * 3);   // Conv2d both layouts, Linear contiguous
  }
  SUBCASE("a train cell costs its parts")
  {
    const double part = rule.budget_seconds + bench::k_cell_overhead_seconds;
    CHECK(e.seconds == doctest::Approx(part * (6 + 6 * bench::k_train_parts)));
  }
  SUBCASE("a CUDA forward cell costs its three variants' budgets (eager, graph, cold), a train cell its parts")
  {
    const auto cuda = bench::estimate({k_conv, k_linear}, 2, dataset::corners(grid), DeviceKind::cuda, 0.0, rule);
    const double part = rule.budget_seconds + bench::k_cell_overhead_seconds;
    CHECK(cuda.seconds == doctest::Approx(part * (6 * bench::k_cuda_forward_budgets + 6 * bench::k_train_parts)));
    CHECK(bench::k_cuda_forward_budgets == 3);
  }
}

TEST_CASE("bench::estimate of aot_inductor corners")
{
  bench::StoppingRule rule;
  rule.budget_seconds = 1.0;
  dataset::AxisGrid grid;
  dataset::apply_axes_argument(grid, "compiled=eager,aot_inductor");
  const auto corners = dataset::corners(grid);
  SUBCASE("a layer without a cached package pays one compile, whatever its batch sizes")
  {
    const auto e = bench::estimate({k_conv, k_linear}, 3, corners, DeviceKind::cpu, 0.0, rule);
    CHECK(e.compiles == 2);
    const double part = rule.budget_seconds + bench::k_cell_overhead_seconds;
    CHECK(e.seconds == doctest::Approx(2 * 3 * 2 * part + 2 * bench::k_aoti_compile_seconds));
  }
  SUBCASE("a cached package costs nothing to compile")
  {
    const auto e = bench::estimate({k_conv, k_linear}, 3, corners, DeviceKind::cpu, 0.0, rule, {"Linear"});
    CHECK(e.compiles == 1);
  }
  SUBCASE("skipped aot_inductor corners compile nothing")
  {
    dataset::apply_axes_argument(grid, "mode=train");
    const auto e = bench::estimate({k_conv}, 1, dataset::corners(grid), DeviceKind::cpu, 0.0, rule);
    CHECK(e.compiles == 0);
    CHECK(e.skipped == 1);
  }
}
