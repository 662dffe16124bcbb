#include "bench/detail/attention.hpp"

#include <doctest/doctest.h>

using namespace layerbench;
namespace nn = torch::nn;

TEST_CASE("bench::detail::self_attention_like_python")
{
  torch::manual_seed(0);
  c10::InferenceMode inference;
  nn::MultiheadAttention attention(nn::MultiheadAttentionOptions(64, 4));
  attention->eval();
  const auto x = torch::randn({10, 3, 64});
  const auto expected = std::get<0>(attention->forward(x, x, x));

  SUBCASE("with the weights, it computes what LibTorch's module computes")
  {
    CHECK(torch::allclose(bench::detail::self_attention_like_python(*attention, x, bench::detail::NeedWeights::yes), expected, 1e-5, 1e-5));
  }
  SUBCASE("without the weights (scaled_dot_product_attention), the same output")
  {
    CHECK(torch::allclose(bench::detail::self_attention_like_python(*attention, x, bench::detail::NeedWeights::no), expected, 1e-5, 1e-5));
  }
}

TEST_CASE("bench::detail::encoder_layer_like_python")
{
  torch::manual_seed(0);
  c10::InferenceMode inference;
  nn::TransformerEncoderLayer layer(nn::TransformerEncoderLayerOptions(64, 4).dim_feedforward(128));
  layer->eval();
  const auto x = torch::randn({10, 3, 64});
  CHECK(torch::allclose(bench::detail::encoder_layer_like_python(*layer, x), layer->forward(x), 1e-5, 1e-5));
}
