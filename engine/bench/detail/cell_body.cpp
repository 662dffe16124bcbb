// SPDX-License-Identifier: MIT
#include "bench/detail/cell_body.hpp"

#include "bench/detail/ddp/data_parallel.hpp"
#include "bench/detail/corner.hpp"
#include "bench/detail/placement.hpp"
#include "bench/detail/torch_device.hpp"
#include "util/error.hpp"

namespace layerbench::bench::detail {

namespace {

GradTargets grad_targets(Instance& instance)
{
  GradTargets targets;
  if (instance.input.is_floating_point()) {
    instance.input.requires_grad_(true);
    targets.input.push_back(instance.input);
  }
  for (const auto& parameter : instance.module->parameters()) {
    if (parameter.requires_grad()) {
      targets.weights.push_back(parameter);
    }
  }
  targets.both = targets.input;
  targets.both.insert(targets.both.end(), targets.weights.begin(), targets.weights.end());
  return targets;
}

// The package holds its own weights, exported from the Python twin of the layer; only the input is shared.
std::unique_ptr<AotiPackage> load_package(const std::filesystem::path& aoti_package)
{
  try {
    return std::make_unique<AotiPackage>(aoti_package.string());
  } catch (const std::exception& error) {
    throw Error("AOTInductor package " + aoti_package.string() + " cannot be loaded (" + error_line(error)
                + "); delete it, and the next run exports it again");
  }
}

} // namespace

GradScope::GradScope(dataset::GradMode mode)
{
  if (mode == dataset::GradMode::inference_mode) {
    m_inference.emplace();
  } else if (mode == dataset::GradMode::no_grad) {
    m_no_grad.emplace();
  }
}

torch::autograd::variable_list gradients(const torch::Tensor& output,
                                         const std::vector<torch::Tensor>& of,
                                         const torch::Tensor& seed,
                                         RetainGraph retain)
{
  return torch::autograd::grad({output}, of, {seed}, retain == RetainGraph::yes, /*create_graph=*/false,
                               /*allow_unused=*/true);
}

CellBody::CellBody(const LayerSpec& spec,
                   int batch_size,
                   const dataset::Axes& axes,
                   DeviceBackend& backend,
                   const std::filesystem::path& aoti_package)
  : m_instance(instantiate(spec, batch_size, torch_device(backend)))
{
  const bool train = axes[dataset::k_mode] == dataset::GradMode::train;
  if (train || spec.mode == dataset::LayerMode::train) {
    m_instance.module->train();
  } else {
    m_instance.module->eval();
  }
  if (axes[dataset::k_memory_format] == dataset::MemoryFormat::channels_last) {
    to_channels_last(m_instance);
  }
  if (axes[dataset::k_compiled] == dataset::Compiled::aot_inductor) {
    m_package = load_package(aoti_package);
  }
  forward = [this, autocast = autocast_dtype(axes[dataset::k_precision]), device_type = torch_device(backend).type()] {
    if (m_package) {
      return m_package->run({m_instance.input}).at(0);
    }
    std::optional<AutocastScope> scope;
    if (autocast) {
      scope.emplace(device_type, *autocast);
    }
    return m_instance.forward();
  };
  body = [this] { forward(); };
  if (!train && !m_package && !m_instance.training && torch_device(backend).is_cpu()) {
    place_input_apart();
  }
  if (train && m_instance.training) {
    train_model(axes[dataset::k_precision], torch_device(backend).type());
  } else if (train) {
    targets = grad_targets(m_instance);
    m_seed = torch::ones_like(forward());
    body = [this] { gradients(forward(), targets.both, m_seed, RetainGraph::no); };
  }
}

void CellBody::place_input_apart()
{
  for (; input_moves < k_max_input_moves; ++input_moves) {
    const auto output = forward();
    if (!output.defined() || !m_instance.input.defined()
        || !shares_low_address_bits(reinterpret_cast<std::uintptr_t>(m_instance.input.data_ptr()),
                                    reinterpret_cast<std::uintptr_t>(output.data_ptr()))) {
      return;
    }
    // Copied while the old input and this output are live, so the copy lands apart from both; the old input
    // is freed when this one replaces it, and the next forward's output may move too: check again.
    m_instance.input = m_instance.input.clone();
  }
}

void CellBody::train_model(dataset::Precision precision, c10::DeviceType device_type)
{
  if (precision == dataset::Precision::fp16) {
    m_scaler.emplace();
  }
  // In a data-parallel run every rank starts from rank 0's weights and averages its gradients with the
  // others' after backward, inside the timed step, as DistributedDataParallel does (docs/scale.md).
  auto* ranks = ddp::current_run();
  if (ranks != nullptr) {
    ranks->start_cell(*m_instance.module, m_instance.training->parameters);
  }
  body = [this, ranks, autocast = autocast_dtype(precision), device_type] {
    const auto& training = *m_instance.training;
    training.zero_grad();
    torch::Tensor loss;
    {
      std::optional<AutocastScope> scope;
      if (autocast) {
        scope.emplace(device_type, *autocast);
      }
      loss = training.loss();
    }
    if (m_scaler) {
      m_scaler->scale(loss).backward();
    } else {
      loss.backward();
    }
    if (ranks != nullptr) {
      ranks->reduce_gradients();
    }
    if (m_scaler) {
      m_scaler->step_and_update(training.parameters, training.step);
    } else {
      training.step();
    }
  };
}

} // namespace layerbench::bench::detail
