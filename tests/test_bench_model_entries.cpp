#include "catalog/catalog.hpp"
#include "bench/cpu_backend.hpp"
#include "bench/measure.hpp"
#include "bench/detail/builder.hpp"
#include "bench/detail/models/bert.hpp"
#include "bench/detail/models/resnet.hpp"
#include "bench/detail/models/weights.hpp"
#include "catalog/models/entries.hpp"
#include "catalog/models/inventory.hpp"

#include "util/error.hpp"

#include <doctest/doctest.h>

using namespace layerbench;
using namespace layerbench::bench;

namespace {

int total(const std::vector<dataset::LayerUse>& uses, const std::string& layer)
{
  int count = 0;
  for (const auto& use : uses) {
    count += use.layer == layer ? use.count : 0;
  }
  return count;
}

MeasureSettings quick_model()
{
  MeasureSettings settings;
  settings.warmup_seconds = 0.0;
  settings.warmup_min_iterations = 1;
  settings.block_target_seconds = 0.0005;
  settings.stopping = {0.5, 3, 5, 0.2};
  return settings;
}

dataset::Axes corner(dataset::GradMode mode, dataset::Precision precision = dataset::Precision::fp32)
{
  dataset::Axes axes;
  axes.set(dataset::k_mode, mode);
  axes.set(dataset::k_precision, precision);
  return axes;
}

} // namespace

TEST_CASE("bench::model_catalog")
{
  SUBCASE("the models are found by name beside the layers, with a hint for a misspelling")
  {
    CHECK(find_layer("ResNet50").kind == dataset::LayerKind::model);
    CHECK(find_layer("BertLarge").kind == dataset::LayerKind::model);
    CHECK(find_layer("Conv2d").kind == dataset::LayerKind::layer);
    CHECK_THROWS_WITH_AS(find_layer("Resnet50"), doctest::Contains("did you mean 'ResNet50'"), UsageError);
  }
  SUBCASE("parameter counts are torchvision's and transformers'")
  {
    CHECK(find_layer("ResNet50").params() == 25557032);
    CHECK(find_layer("BertBase").params() == 108310272); // BertModel of bert-base-cased: 28,996 words
  }
  SUBCASE("each model's parameter formula equals the count of the model built in LibTorch")
  {
    for (const auto& spec : model_catalog()) {
      CAPTURE(spec.name);
      if (const auto* options = models::resnet_options(spec.name)) {
        CHECK(spec.params() == models::count_unique_parameters(*models::ResNet(*options)));
      } else {
        REQUIRE(models::bert_config(spec.name) != nullptr);
        CHECK(spec.params() == models::count_unique_parameters(*models::BertModel(*models::bert_config(spec.name))));
      }
    }
  }
  SUBCASE("a model's description carries its inventory and no minimum traffic")
  {
    const auto layer = describe(find_layer("BertTiny"));
    CHECK(layer.kind == dataset::LayerKind::model);
    CHECK_FALSE(layer.contains.empty());
    CHECK_FALSE(layer.train_step.empty());
    CHECK_FALSE(layer.bytes_fixed.has_value());
    CHECK(layer.params_formula.find("; with values: ") != std::string::npos);
  }
}

TEST_CASE("bench::models::resnet_inventory")
{
  const auto uses = models::resnet_inventory(models::ResNetOptions{}, 224);
  // 1 stem + 16 bottlenecks x 3 + 4 shortcuts; a BatchNorm after each; 16 residual adds; one fc.
  CHECK(total(uses, "Conv2d") == 53);
  CHECK(total(uses, "BatchNorm2d") == 53);
  CHECK(total(uses, "add") == 16);
  CHECK(total(uses, "Linear") == 1);
  // The stem: 7x7, stride 2 on 224x224 gives 112x112: 2*3*64*49*112*112 FLOPs.
  CHECK(uses.front().matmul_flops_per_sample == doctest::Approx(2.0 * 3 * 64 * 49 * 112 * 112));
  // v1.5: the stride of layer2.0 sits on its 3x3 convolution, which runs on 56x56 and gives 28x28.
  bool strided_3x3 = false;
  for (const auto& use : uses) {
    strided_3x3 |= use.config == "Conv2d(128,128,3,stride=2,padding=1,bias=False) on 128x56x56";
  }
  CHECK(strided_3x3);
}

TEST_CASE("bench::models::bert_inventory")
{
  const auto config = models::bert_base_cased();
  const auto uses = models::bert_inventory(config, 128);
  CHECK(total(uses, "Linear") == 12 * 6 + 1);
  CHECK(total(uses, "scaled_dot_product_attention") == 12);
  CHECK(total(uses, "LayerNorm") == 12 * 2 + 1);
  // Each layer's matrix work: six token-wise linears (4 d^2 + 2 d f per token) and attention (4 S^2 d).
  const double d = 768, f = 3072, s = 128;
  const double per_layer = 2 * s * (4 * d * d + 2 * d * f) + 4 * s * s * d;
  CHECK(models::matmul_flops(uses) == doctest::Approx(12 * per_layer + 2 * d * d));
}

TEST_CASE("bench::measure_cell of a whole model")
{
  auto backend = make_cpu_backend();
  const std::atomic<bool> interrupted{false};
  SUBCASE("inference: one forward, FLOP rate from the inventory")
  {
    const auto cell = measure_cell(find_layer("BertTiny"), 2, corner(dataset::GradMode::inference_mode), quick_model(),
                                   *backend, interrupted);
    REQUIRE(cell);
    REQUIRE(cell->status == dataset::CellStatus::ok);
    CHECK(cell->throughput_samples_per_s.has_value());
    CHECK(cell->achieved_flop_per_s.has_value());
  }
  SUBCASE("train: the whole step, timed whole; no FLOP rate, no parts")
  {
    for (const auto precision : {dataset::Precision::fp32, dataset::Precision::bf16}) {
      CAPTURE(dataset::to_string(precision));
      const auto cell = measure_cell(find_layer("BertTiny"), 2, corner(dataset::GradMode::train, precision), quick_model(),
                                     *backend, interrupted);
      REQUIRE(cell);
      REQUIRE(cell->status == dataset::CellStatus::ok);
      CHECK(cell->stats->median_ms > 0);
      CHECK_FALSE(cell->train.has_value());
      CHECK_FALSE(cell->achieved_flop_per_s.has_value());
    }
  }
  SUBCASE("a training step changes the weights and leaves them finite")
  {
    auto instance = layerbench::bench::detail::instantiate(find_layer("ResNetTiny"), 2, torch::kCPU);
    instance.module->train();
    const auto before = instance.module->parameters().front().detach().clone();
    for (int step = 0; step < 2; ++step) {
      instance.training->zero_grad();
      instance.training->loss().backward();
      instance.training->step();
    }
    const auto after = instance.module->parameters().front();
    CHECK_FALSE(torch::equal(before, after));
    CHECK(torch::isfinite(after).all().item<bool>());
  }
}
