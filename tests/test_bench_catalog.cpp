#include "bench/catalog.hpp"

#include "util/error.hpp"

#include <doctest/doctest.h>
#include <map>

using namespace layerbench::bench;

TEST_CASE("bench::catalog")
{
  SUBCASE("the fourteen layers of the reference table, in its order")
  {
    std::vector<std::string> names;
    for (const auto& spec : catalog()) {
      names.push_back(spec.name);
    }
    CHECK(names == std::vector<std::string>{"Conv2d", "Conv1d", "ConvTranspose2d", "Linear", "LSTM", "GRU",
                                            "TransformerEncoder", "MultiheadAttention", "BatchNorm2d", "LayerNorm",
                                            "Embedding", "MaxPool2d", "AvgPool2d", "Dropout"});
  }
  SUBCASE("every parameter formula equals the count of the built module")
  {
    for (const auto& spec : catalog()) {
      CAPTURE(spec.name);
      const auto instance = spec.instantiate(1, torch::kCPU);
      CHECK(count_parameters(*instance.module) == spec.params());
    }
  }
  SUBCASE("parameter counts match PyTorch, not the reference page, for LSTM and GRU")
  {
    // Two bias vectors per gate: the page's 2,365,440 and 1,183,232 are not what PyTorch builds.
    CHECK(find_layer("LSTM").params() == 3153920);
    CHECK(find_layer("GRU").params() == 986112);
    CHECK(find_layer("TransformerEncoder").params() == 3152384);
  }
  SUBCASE("every layer runs a forward pass on its input at batch 2")
  {
    torch::InferenceMode guard;
    for (const auto& spec : catalog()) {
      CAPTURE(spec.name);
      auto instance = spec.instantiate(2, torch::kCPU);
      const auto output = instance.forward();
      CHECK(output.defined());
      CHECK(output.numel() > 0);
    }
  }
  SUBCASE("unknown names are usage errors with a hint")
  {
    CHECK_THROWS_WITH_AS(find_layer("conv2D"), doctest::Contains("did you mean 'Conv2d'"), layerbench::UsageError);
    CHECK_THROWS_AS(find_layer("Softmax"), layerbench::UsageError);
  }
}

TEST_CASE("bench::LayerSpec::matmul_flops")
{
  // Hand-computed, 2 FLOPs per multiply-accumulate.
  const std::map<std::string, double> expected = {
    {"Conv2d", 2.0 * 64 * 128 * 3 * 3 * 30 * 30},         // 132,710,400
    {"Conv1d", 2.0 * 256 * 512 * 5 * 96},                 // 125,829,120
    {"ConvTranspose2d", 2.0 * 128 * 64 * 4 * 4 * 16 * 16}, // 67,108,864
    {"Linear", 2.0 * 4096 * 4096},                        // 33,554,432
    // Per step and direction 2*4*256*(in+256); layer 1 in=512, layer 2 in=512 (both directions of layer 1).
    {"LSTM", 2 * (2.0 * 2 * 4 * 256 * (512 + 256) * 100)}, // 629,145,600
    // Layer 1 in=512, layer 2 in=256.
    {"GRU", 2.0 * 3 * 256 * (512 + 256) * 100 + 2.0 * 3 * 256 * (256 + 256) * 100}, // 196,608,000
    // Q, K, V, out projections 4 * 2*512*512*512; QK^T and AV 2 * 2*512*512*512.
    {"MultiheadAttention", 1610612736.0},
    {"TransformerEncoder", 1610612736.0 + 2 * 2.0 * 512 * 2048 * 512},
    {"BatchNorm2d", 0}, {"LayerNorm", 0}, {"Embedding", 0}, {"MaxPool2d", 0}, {"AvgPool2d", 0}, {"Dropout", 0},
  };
  for (const auto& spec : catalog()) {
    CAPTURE(spec.name);
    CHECK(spec.matmul_flops() == expected.at(spec.name));
  }
}

TEST_CASE("bench::LayerSpec::elementwise_flops")
{
  const std::map<std::string, double> expected = {
    {"Conv2d", 128.0 * 30 * 30},            // bias
    {"Conv1d", 512.0 * 96},
    {"ConvTranspose2d", 64.0 * 34 * 34},
    {"Linear", 4096},
    {"LSTM", 16.0 * 256 * 100 * 2 * 2},     // 16 per hidden unit per step, 2 layers, 2 directions
    {"GRU", 14.0 * 256 * 100 * 2},
    // biases 4*d*S + q scaling d*S + softmax 4*h*S^2
    {"MultiheadAttention", 4.0 * 512 * 512 + 512.0 * 512 + 4.0 * 8 * 512 * 512},
    {"TransformerEncoder", 4.0 * 512 * 512 + 512.0 * 512 + 4.0 * 8 * 512 * 512 + (2048.0 + 512) * 512 + 2048.0 * 512
                             + 2.0 * 512 * 512 + 14.0 * 512 * 512},
    {"BatchNorm2d", 2.0 * 256 * 32 * 32},
    {"LayerNorm", 7.0 * 512 * 512},
    {"Embedding", 0},
    {"MaxPool2d", 3.0 * 128 * 16 * 16},
    {"AvgPool2d", 4.0 * 128 * 16 * 16},
    {"Dropout", 512},
  };
  for (const auto& spec : catalog()) {
    CAPTURE(spec.name);
    CHECK(spec.elementwise_flops() == expected.at(spec.name));
    CHECK(spec.flops() == spec.matmul_flops() + spec.elementwise_flops());
  }
}

TEST_CASE("bench::describe")
{
  const auto layer = describe(find_layer("Dropout"));
  CHECK(layer.mode == layerbench::dataset::LayerMode::train); // measured in training mode, as the page did
  CHECK(layer.config == "Dropout(0.5) 512-dim");
  // The formula, then the same with this configuration's numbers put in.
  CHECK(layer.flops_formula == "1*dim (scaling by the mask; generating the mask is not counted); with values: 512");
  CHECK(describe(find_layer("Conv2d")).params_formula == "C_in*C_out*K*K + C_out; with values: 64*128*3*3 + 128");
  CHECK(*layer.params == 0);
  CHECK(!layer.params_counted); // needs the module; filled by the run
}
