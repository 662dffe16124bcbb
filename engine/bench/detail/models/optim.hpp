// SPDX-License-Identifier: MIT
#pragma once

// The optimizer steps of the whole models' training cells, as Python's torch.optim takes them
// (torch/optim/sgd.py and adam.py, torch 2.11): the single-tensor loop where Python takes it (parameters
// off CUDA, foreach=None), the foreach kernels where Python takes those (every parameter on CUDA).
// LibTorch's own torch::optim classes take the single-tensor route everywhere and, for AdamW, other
// operators (mul_ and add_ where Python calls lerp_); on CUDA the foreach route launches a few kernels
// per step instead of several per parameter, which a whole model's step time shows.

#include <torch/torch.h>

#include <vector>

namespace layerbench::bench::models {

// Python's _default_to_fused_or_foreach with foreach=None: foreach when every parameter is on CUDA.
bool python_takes_foreach(const std::vector<torch::Tensor>& parameters);

// torch.optim.SGD(params, lr, momentum, weight_decay), dampening 0, no Nesterov.
struct SgdOptions
{
  double lr = 1e-3;
  double momentum = 0.9;
  double weight_decay = 1e-4;
};

// torch.optim.AdamW(params, lr, betas, eps, weight_decay), no amsgrad.
struct AdamWOptions
{
  double lr = 1e-4;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0.01;
};

class Optimizer
{
public:
  explicit Optimizer(std::vector<torch::Tensor> parameters);
  virtual ~Optimizer() = default;
  // optimizer.zero_grad(): set_to_none, Python's default.
  void zero_grad();
  // optimizer.step() over the parameters that have a gradient.
  virtual void step() = 0;
  // Takes the other route than Python would here (tests compare the two on the CPU).
  void use_foreach(bool foreach) { m_foreach = foreach; }

protected:
  std::vector<torch::Tensor> m_parameters;
  bool m_foreach;
};

class Sgd : public Optimizer
{
public:
  Sgd(std::vector<torch::Tensor> parameters, const SgdOptions& options);
  void step() override;

private:
  void single_tensor_step();
  void foreach_step();
  SgdOptions m_options;
  std::vector<torch::Tensor> m_momentum; // undefined until the first step, as Python's state starts empty
};

class AdamW : public Optimizer
{
public:
  AdamW(std::vector<torch::Tensor> parameters, const AdamWOptions& options);
  void step() override;

private:
  void single_tensor_step();
  void foreach_step();
  void init_state();
  AdamWOptions m_options;
  std::vector<torch::Tensor> m_exp_avg;
  std::vector<torch::Tensor> m_exp_avg_sq;
  std::vector<torch::Tensor> m_steps; // float32 scalars on the CPU, as Python keeps state["step"]
};

} // namespace layerbench::bench::models
