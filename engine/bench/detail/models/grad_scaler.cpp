// SPDX-License-Identifier: MIT
#include "bench/detail/models/grad_scaler.hpp"

namespace layerbench::bench::models {

namespace {

constexpr double k_init_scale = 65536.0;
constexpr double k_growth_factor = 2.0;
constexpr double k_backoff_factor = 0.5;
constexpr int64_t k_growth_interval = 2000;

} // namespace

torch::Tensor GradScaler::scale(const torch::Tensor& loss)
{
  if (!m_scale.defined()) {
    const auto on = torch::TensorOptions().device(loss.device());
    m_scale = torch::full({}, k_init_scale, on.dtype(torch::kFloat32));
    m_growth_tracker = torch::full({}, 0, on.dtype(torch::kInt32));
  }
  return loss * m_scale;
}

bool GradScaler::step_and_update(const std::vector<torch::Tensor>& parameters, const std::function<void()>& step)
{
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> grads;
  for (const auto& parameter : parameters) {
    if (parameter.grad().defined()) {
      grads.push_back(parameter.grad());
    }
  }
  const auto inv_scale = m_scale.to(torch::kFloat64).reciprocal().to(torch::kFloat32);
  auto found_inf = torch::zeros({}, m_scale.options());
  at::_amp_foreach_non_finite_check_and_unscale_(grads, found_inf, inv_scale);
  const bool finite = found_inf.item<float>() == 0.0F;
  if (finite) {
    step();
  }
  at::_amp_update_scale_(m_scale, m_growth_tracker, found_inf, k_growth_factor, k_backoff_factor, k_growth_interval);
  return finite;
}

} // namespace layerbench::bench::models
