// SPDX-License-Identifier: MIT
#include "bench/detail/models/optim.hpp"

#include "bench/detail/torch_compat.hpp"

#include <cmath>

namespace layerbench::bench::models {

bool python_takes_foreach(const std::vector<torch::Tensor>& parameters)
{
  for (const auto& parameter : parameters) {
    if (!parameter.is_cuda()) {
      return false;
    }
  }
  return !parameters.empty();
}

Optimizer::Optimizer(std::vector<torch::Tensor> parameters)
  : m_parameters(std::move(parameters))
  , m_foreach(python_takes_foreach(m_parameters))
{
}

void Optimizer::zero_grad()
{
  for (auto& parameter : m_parameters) {
    parameter.mutable_grad().reset();
  }
}

Sgd::Sgd(std::vector<torch::Tensor> parameters, const SgdOptions& options)
  : Optimizer(std::move(parameters))
  , m_options(options)
  , m_momentum(m_parameters.size())
{
}

void Sgd::step()
{
  torch::NoGradGuard no_grad;
  if (m_foreach) {
    foreach_step();
  } else {
    single_tensor_step();
  }
}

// _single_tensor_sgd: grad.add(param, alpha=wd); the buffer a clone at first, then mul_ and add_;
// param.add_(buf, alpha=-lr).
void Sgd::single_tensor_step()
{
  for (size_t i = 0; i < m_parameters.size(); ++i) {
    auto& parameter = m_parameters[i];
    if (!parameter.grad().defined()) {
      continue;
    }
    auto grad = parameter.grad();
    if (m_options.weight_decay != 0) {
      grad = grad.add(parameter, m_options.weight_decay);
    }
    auto& buffer = m_momentum[i];
    if (!buffer.defined()) {
      buffer = grad.detach().clone();
    } else {
      buffer.mul_(m_options.momentum).add_(grad, 1.0);
    }
    parameter.add_(buffer, -m_options.lr);
  }
}

// _multi_tensor_sgd: the same arithmetic with one foreach call per operation over every parameter.
void Sgd::foreach_step()
{
  std::vector<torch::Tensor> params;
  std::vector<torch::Tensor> grads;
  std::vector<size_t> indices;
  for (size_t i = 0; i < m_parameters.size(); ++i) {
    if (m_parameters[i].grad().defined()) {
      params.push_back(m_parameters[i]);
      grads.push_back(m_parameters[i].grad());
      indices.push_back(i);
    }
  }
  if (m_options.weight_decay != 0) {
    grads = at::_foreach_add(grads, params, m_options.weight_decay);
  }
  const bool first = !m_momentum[indices.front()].defined();
  std::vector<torch::Tensor> buffers;
  for (size_t k = 0; k < indices.size(); ++k) {
    auto& buffer = m_momentum[indices[k]];
    if (first) {
      buffer = grads[k].detach().clone();
    }
    buffers.push_back(buffer);
  }
  if (!first) {
    at::_foreach_mul_(buffers, m_options.momentum);
    at::_foreach_add_(buffers, grads, 1.0);
  }
  at::_foreach_add_(params, buffers, -m_options.lr);
}

AdamW::AdamW(std::vector<torch::Tensor> parameters, const AdamWOptions& options)
  : Optimizer(std::move(parameters))
  , m_options(options)
{
}

void AdamW::init_state()
{
  for (const auto& parameter : m_parameters) {
    m_exp_avg.push_back(torch::zeros_like(parameter, torch::MemoryFormat::Preserve));
    m_exp_avg_sq.push_back(torch::zeros_like(parameter, torch::MemoryFormat::Preserve));
    m_steps.push_back(torch::tensor(0.0F));
  }
}

void AdamW::step()
{
  torch::NoGradGuard no_grad;
  if (m_exp_avg.empty()) {
    init_state();
  }
  if (m_foreach) {
    foreach_step();
  } else {
    single_tensor_step();
  }
}

// _single_tensor_adam with decoupled weight decay: param.mul_(1 - lr*wd); exp_avg.lerp_(grad, 1 - beta1);
// exp_avg_sq.mul_(beta2).addcmul_(grad, grad, 1 - beta2); denom = (sqrt(exp_avg_sq) / sqrt(bc2)).add_(eps);
// param.addcdiv_(exp_avg, denom, -lr/bc1), the step count read back from its CPU tensor.
void AdamW::single_tensor_step()
{
  const auto& o = m_options;
  for (size_t i = 0; i < m_parameters.size(); ++i) {
    auto& parameter = m_parameters[i];
    if (!parameter.grad().defined()) {
      continue;
    }
    const auto& grad = parameter.grad();
    m_steps[i].add_(1);
    parameter.mul_(1 - o.lr * o.weight_decay);
    m_exp_avg[i].lerp_(grad, 1 - o.beta1);
    m_exp_avg_sq[i].mul_(o.beta2).addcmul_(grad, grad, 1 - o.beta2);
    const double step = m_steps[i].item<double>();
    const double bias_correction1 = 1 - std::pow(o.beta1, step);
    const double bias_correction2_sqrt = std::sqrt(1 - std::pow(o.beta2, step));
    const auto denom = (m_exp_avg_sq[i].sqrt() / bias_correction2_sqrt).add_(o.eps);
    parameter.addcdiv_(m_exp_avg[i], denom, -o.lr / bias_correction1);
  }
}

// _multi_tensor_adam, not capturable: the same arithmetic as foreach calls, the bias corrections as
// one scalar per parameter.
void AdamW::foreach_step()
{
  const auto& o = m_options;
  std::vector<torch::Tensor> params, grads, exp_avgs, exp_avg_sqs, steps;
  for (size_t i = 0; i < m_parameters.size(); ++i) {
    if (m_parameters[i].grad().defined()) {
      params.push_back(m_parameters[i]);
      grads.push_back(m_parameters[i].grad());
      exp_avgs.push_back(m_exp_avg[i]);
      exp_avg_sqs.push_back(m_exp_avg_sq[i]);
      steps.push_back(m_steps[i]);
    }
  }
  at::_foreach_add_(steps, 1);
  at::_foreach_mul_(params, 1 - o.lr * o.weight_decay);
  detail::foreach_lerp_(exp_avgs, grads, 1 - o.beta1);
  at::_foreach_mul_(exp_avg_sqs, o.beta2);
  at::_foreach_addcmul_(exp_avg_sqs, grads, grads, 1 - o.beta2);
  std::vector<c10::Scalar> step_sizes;
  std::vector<c10::Scalar> bias_corrections2_sqrt;
  for (const auto& step_tensor : steps) {
    const double step = step_tensor.item<double>();
    step_sizes.emplace_back(-o.lr / (1 - std::pow(o.beta1, step)));
    bias_corrections2_sqrt.emplace_back(std::sqrt(1 - std::pow(o.beta2, step)));
  }
  auto denoms = at::_foreach_sqrt(exp_avg_sqs);
  at::_foreach_div_(denoms, bias_corrections2_sqrt);
  at::_foreach_add_(denoms, o.eps);
  at::_foreach_addcdiv_(params, exp_avgs, denoms, step_sizes);
}

} // namespace layerbench::bench::models
