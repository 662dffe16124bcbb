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
  SUBCASE("as 1.13's Python (chunked projection, bmm and softmax without the weights too), the same output")
  {
    for (const auto need_weights : {bench::detail::NeedWeights::yes, bench::detail::NeedWeights::no}) {
      CHECK(torch::allclose(bench::detail::self_attention_like_python(*attention, x, need_weights, {1, 13}), expected, 1e-5, 1e-5));
    }
  }
  SUBCASE("as 2.2's Python (q divided by sqrt(E)), the same output")
  {
    CHECK(torch::allclose(bench::detail::self_attention_like_python(*attention, x, bench::detail::NeedWeights::yes, {2, 2}), expected, 1e-5, 1e-5));
  }
}

TEST_CASE("bench::detail::encoder_layer_like_python")
{
  torch::manual_seed(0);
  c10::InferenceMode inference;
  nn::TransformerEncoderLayer layer(nn::TransformerEncoderLayerOptions(64, 4).dim_feedforward(128));
  layer->eval();
  const auto x = torch::randn({10, 3, 64});
  const auto expected = layer->forward(x);
  SUBCASE("as this release's Python, what LibTorch's layer computes")
  {
    CHECK(torch::allclose(bench::detail::encoder_layer_like_python(*layer, x), expected, 1e-5, 1e-5));
  }
  SUBCASE("as 1.13's Python (attention through bmm and softmax), the same output")
  {
    CHECK(torch::allclose(bench::detail::encoder_layer_like_python(*layer, x, {1, 13}), expected, 1e-5, 1e-5));
  }
}
