// SPDX-License-Identifier: MIT
#include "catalog/models/layer_sum.hpp"

#include "bench/cpu_backend.hpp"
#include "bench/detail/models/uses.hpp"
#include "bench/measure.hpp"
#include "catalog/models/entries.hpp"
#include "bench/runner.hpp"
#include "util/error.hpp"

#include <doctest/doctest.h>

using namespace layerbench;
using namespace layerbench::bench;

namespace {

// The fewest samples of short blocks: each cell only has to build and run.
MeasureSettings quick_sum()
{
  auto settings = default_settings(DeviceKind::cpu);
  settings.block_target_seconds = 0.0005;
  settings.stopping = {0.5, 3, 3, 0.1};
  return settings;
}

dataset::Axes mode_corner(dataset::GradMode mode)
{
  dataset::Axes axes;
  axes.set(dataset::k_mode, mode);
  return axes;
}

} // namespace

TEST_CASE("bench::models::model_uses")
{
  SUBCASE("the built form holds the published inventory, text, count and FLOPs, in its order")
  {
    for (const auto& model : model_catalog()) {
      CAPTURE(model.name);
      const auto uses = models::layer_uses(models::model_uses(model.name));
      REQUIRE(uses.size() == model.contains.size());
      for (size_t i = 0; i < uses.size(); ++i) {
        CHECK(uses[i].config == model.contains[i].config);
        CHECK(uses[i].count == model.contains[i].count);
        CHECK(uses[i].matmul_flops_per_sample == model.contains[i].matmul_flops_per_sample);
      }
    }
  }
  SUBCASE("an unknown model has no inventory")
  {
    CHECK_THROWS_AS(models::model_uses("Conv2d"), Error);
  }
}

TEST_CASE("bench::models::build_use")
{
  // Every parameter of a model belongs to exactly one use, so count x parameters summed over the uses is
  // the model's own count: each use is built with the model's options. BertLarge is left out for memory.
  for (const std::string name : {"ResNetTiny", "BertTiny", "ResNet50", "BertBase"}) {
    CAPTURE(name);
    const auto uses = models::model_uses(name);
    int64_t sum = 0;
    for (const auto& use : uses) {
      CAPTURE(use.use.config);
      const auto built = models::build_use(use.shape, 1, torch::kCPU);
      const auto counted = layerbench::bench::detail::count_parameters(*built.module);
      CHECK(counted == models::use_params(use.shape));
      sum += use.use.count * counted;
    }
    CHECK(sum == find_layer(name).params());
  }
  SUBCASE("the input has the batch in front, except a lookup the model makes once per forward")
  {
    const auto uses = models::model_uses("BertTiny");
    const auto words = models::build_use(uses[0].shape, 4, torch::kCPU);
    CHECK(words.input.sizes() == torch::IntArrayRef({4, 128}));
    CHECK((words.input.scalar_type() == torch::kInt64));
    const auto positions = models::build_use(uses[1].shape, 4, torch::kCPU);
    CHECK(positions.input.sizes() == torch::IntArrayRef({1, 128}));
  }
  SUBCASE("ResNet's ReLU runs in place as torchvision's does, out of place where the input needs its gradient")
  {
    const auto uses = models::model_uses("ResNetTiny");
    const auto relu = std::find_if(uses.begin(), uses.end(), [](const auto& use) { return use.use.layer == "ReLU"; });
    REQUIRE(relu != uses.end());
    auto built = models::build_use(relu->shape, 2, torch::kCPU);
    {
      torch::NoGradGuard no_grad;
      CHECK(built.forward().data_ptr() == built.input.data_ptr());
    }
    built.input.requires_grad_(true);
    CHECK(built.forward().data_ptr() != built.input.data_ptr());
  }
  SUBCASE("BERT's residual add runs out of place, as transformers' does")
  {
    const auto uses = models::model_uses("BertTiny");
    const auto add = std::find_if(uses.begin(), uses.end(), [](const auto& use) { return use.use.config.rfind("residual add", 0) == 0; });
    REQUIRE(add != uses.end());
    auto built = models::build_use(add->shape, 2, torch::kCPU);
    torch::NoGradGuard no_grad;
    CHECK(built.forward().data_ptr() != built.input.data_ptr());
  }
}

TEST_CASE("bench::models::layer_sum_layers")
{
  SUBCASE("the model, then each use named after its index in the model's contains")
  {
    const auto layers = models::layer_sum_layers("BertTiny");
    REQUIRE(layers.size() == find_layer("BertTiny").contains.size() + 1);
    CHECK(layers[0] == "BertTiny");
    CHECK(layers[1] == "BertTiny/0");
    const auto layer = describe(find_layer("BertTiny/3"));
    CHECK(layer.kind == dataset::LayerKind::model_layer);
    REQUIRE(layer.part_of);
    CHECK(layer.part_of->model == "BertTiny");
    CHECK(layer.part_of->use == 3);
    CHECK(layer.config == find_layer("BertTiny").contains[3].config);
    CHECK(layer.part_of->count == find_layer("BertTiny").contains[3].count);
    CHECK_FALSE(layer.bytes_fixed.has_value());
  }
  SUBCASE("an unknown model gets the closest name")
  {
    CHECK_THROWS_WITH_AS(models::layer_sum_layers("ResNet5O"), doctest::Contains("did you mean 'ResNet50'"), UsageError);
    CHECK_THROWS_WITH_AS(models::layer_sum_layers("Conv2d"), doctest::Contains("'Conv2d' is not a model"), UsageError);
  }
  SUBCASE("a use that does not exist is an unknown layer")
  {
    CHECK_THROWS_AS(find_layer("BertTiny/999"), UsageError);
  }
}

TEST_CASE("bench::measure_cell of a model's layers")
{
  // Every use of the tiny models builds and runs: a forward in inference, a forward and backward in train
  // (timed as one step; a layer's train parts are not taken for it).
  auto backend = make_cpu_backend();
  const std::atomic<bool> interrupted{false};
  for (const std::string model : {"ResNetTiny", "BertTiny"}) {
    for (const auto& name : models::layer_sum_layers(model)) {
      if (name == model) {
        continue;
      }
      CAPTURE(name);
      for (const auto mode : {dataset::GradMode::inference_mode, dataset::GradMode::train}) {
        const auto cell = measure_cell(find_layer(name), 2, mode_corner(mode), quick_sum(), *backend, interrupted);
        REQUIRE(cell);
        CHECK_MESSAGE(cell->status == dataset::CellStatus::ok, cell->skip_reason);
        CHECK_FALSE(cell->train.has_value());
      }
    }
  }
}
