#include "bench/detail/models/grad_scaler.hpp"
#include "bench/detail/models/optim.hpp"

#include <doctest/doctest.h>

using namespace layerbench::bench::models;

namespace {

// Three parameters with fixed gradients, the same in every copy.
std::vector<torch::Tensor> parameters()
{
  torch::manual_seed(7);
  std::vector<torch::Tensor> result;
  for (const auto& shape : std::vector<std::vector<int64_t>>{{4, 3}, {3}, {2, 2, 2}}) {
    result.push_back(torch::randn(shape).requires_grad_(true));
  }
  return result;
}

void set_gradients(std::vector<torch::Tensor>& params, int step)
{
  for (size_t i = 0; i < params.size(); ++i) {
    params[i].mutable_grad() = torch::full_like(params[i], 0.1 * (step + 1)) + params[i].detach() * 0.5;
  }
}

template<typename Ours, typename Reference>
void check_same_after_steps(Ours& ours, std::vector<torch::Tensor>& a, Reference& reference,
                            std::vector<torch::Tensor>& b)
{
  for (int step = 0; step < 3; ++step) {
    set_gradients(a, step);
    set_gradients(b, step);
    ours.step();
    reference.step();
  }
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(torch::allclose(a[i], b[i], 1e-6, 1e-7));
  }
}

} // namespace

TEST_CASE("bench::models::Sgd")
{
  SUBCASE("the single-tensor route equals LibTorch's SGD, which runs Python's arithmetic")
  {
    auto a = parameters();
    auto b = parameters();
    Sgd ours(a, SgdOptions{});
    torch::optim::SGD reference(b, torch::optim::SGDOptions(1e-3).momentum(0.9).weight_decay(1e-4));
    check_same_after_steps(ours, a, reference, b);
  }
  SUBCASE("the foreach route (Python's on CUDA) gives the same weights")
  {
    auto a = parameters();
    auto b = parameters();
    Sgd ours(a, SgdOptions{});
    ours.use_foreach(true);
    Sgd single(b, SgdOptions{});
    check_same_after_steps(ours, a, single, b);
  }
  SUBCASE("zero_grad sets the gradients to none, Python's default")
  {
    auto a = parameters();
    Sgd ours(a, SgdOptions{});
    set_gradients(a, 0);
    ours.zero_grad();
    CHECK_FALSE(a.front().grad().defined());
  }
  SUBCASE("Python takes foreach only when every parameter is on CUDA")
  {
    CHECK_FALSE(python_takes_foreach(parameters()));
  }
}

TEST_CASE("bench::models::AdamW")
{
  SUBCASE("the single-tensor route equals LibTorch's AdamW to float rounding")
  {
    auto a = parameters();
    auto b = parameters();
    AdamW ours(a, AdamWOptions{});
    torch::optim::AdamW reference(b, torch::optim::AdamWOptions(1e-4).weight_decay(0.01));
    check_same_after_steps(ours, a, reference, b);
  }
  SUBCASE("the foreach route gives the same weights")
  {
    auto a = parameters();
    auto b = parameters();
    AdamW ours(a, AdamWOptions{});
    ours.use_foreach(true);
    AdamW single(b, AdamWOptions{});
    check_same_after_steps(ours, a, single, b);
  }
}

TEST_CASE("bench::models::GradScaler")
{
  auto params = parameters();
  GradScaler scaler;
  const auto scaled = scaler.scale(torch::tensor(2.0F));
  CHECK(scaled.item<float>() == 131072.0F);
  SUBCASE("finite gradients are unscaled and the step runs")
  {
    params.front().mutable_grad() = torch::full_like(params.front(), 65536.0F);
    bool stepped = false;
    CHECK(scaler.step_and_update({params.front()}, [&] { stepped = true; }));
    CHECK(stepped);
    CHECK(params.front().grad().eq(1.0F).all().item<bool>());
  }
  SUBCASE("an infinite gradient skips the step and halves the scale")
  {
    params.front().mutable_grad() = torch::full_like(params.front(), std::numeric_limits<float>::infinity());
    bool stepped = false;
    CHECK_FALSE(scaler.step_and_update({params.front()}, [&] { stepped = true; }));
    CHECK_FALSE(stepped);
    CHECK(scaler.scale(torch::tensor(1.0F)).item<float>() == 32768.0F);
  }
}
