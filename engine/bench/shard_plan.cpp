// SPDX-License-Identifier: MIT
#include "bench/shard_plan.hpp"

#include "catalog/catalog.hpp"
#include "dataset/io.hpp"
#include "util/error.hpp"
#include "util/file.hpp"
#include "util/format.hpp"
#include "util/sha256.hpp"

#include <filesystem>

namespace layerbench::bench {

namespace {

// Only the ratio between cells decides the split; the rate sets the printed estimates. Both are the
// median achieved FLOP/s of the published cells of at least 1 GFLOP per forward: cpu-epyc-2vcpu-fp32@1
// (1.30e11) and the transcribed a100-80gb-reference@1 (2.82e13).
constexpr double k_cpu_flop_rate = 1.3e11;
constexpr double k_cuda_flop_rate = 2.8e13;

dataset::CostModel cost_model(const MeasureSettings& settings, DeviceKind device)
{
  dataset::CostModel model;
  model.flop_rate = device == DeviceKind::cuda ? k_cuda_flop_rate : k_cpu_flop_rate;
  model.warmup_seconds = settings.warmup_seconds;
  model.warmup_min_iterations = settings.warmup_min_iterations;
  model.block_target_seconds = settings.block_target_seconds;
  model.min_samples = settings.stopping.min_samples;
  model.max_samples = settings.stopping.max_samples;
  model.budget_seconds = settings.stopping.budget_seconds;
  return model;
}

std::string flop_description(DeviceKind device)
{
  return "expected seconds from the catalog's FLOPs at an assumed "
         + util::format_fixed((device == DeviceKind::cuda ? k_cuda_flop_rate : k_cpu_flop_rate) / 1e9, 0)
         + " GFLOP/s and the run's warm-up, block and budget settings";
}

} // namespace

PlanSource load_plan_source(const std::string& path)
{
  const auto bytes = util::read_file(path);
  if (!bytes) {
    throw Error("--plan-from: " + path + ": " + bytes.error());
  }
  PlanSource source{path, util::sha256_hex(*bytes), dataset::load(path)};
  if (source.dataset.kind != dataset::Kind::measured) {
    throw Error("--plan-from: " + path + ": not a measured run (no cell_seconds to plan from)");
  }
  return source;
}

MatrixPlan plan_matrix(const std::vector<std::string>& layers,
                       const std::vector<int>& batch_sizes,
                       const std::vector<dataset::Axes>& corners,
                       const MeasureSettings& settings,
                       DeviceKind device,
                       const std::optional<PlanSource>& source,
                       int shard_count)
{
  const auto model = cost_model(settings, device);
  std::vector<dataset::CellCost> costs;
  for (const auto& name : layers) {
    const auto& spec = find_layer(name);
    for (int batch : batch_sizes) {
      const double seconds = dataset::estimate_cell_seconds(spec.flops() * batch, model);
      for (const auto& axes : corners) {
        const bool skipped = unsupported(axes, device, traits(spec)).has_value();
        costs.push_back({{name, batch, axes}, skipped ? 0.0 : seconds * timed_budgets(axes, device)});
      }
    }
  }
  if (static_cast<size_t>(shard_count) > costs.size()) {
    throw UsageError("--shard: " + std::to_string(shard_count) + " shards for a matrix of " + std::to_string(costs.size())
                     + " cells; use at most " + std::to_string(costs.size()));
  }
  MatrixPlan plan;
  plan.description = "cost-balanced, longest cells first, over " + flop_description(device);
  if (source) {
    costs = dataset::costs_from_dataset(source->dataset, costs, &plan.measured_costs);
    plan.description = "cost-balanced, longest cells first, over the cell_seconds of "
                       + std::filesystem::path(source->path).filename().string() + " (sha256 "
                       + source->sha256.substr(0, 16) + ") for " + std::to_string(plan.measured_costs) + " of "
                       + std::to_string(costs.size()) + " cells"
                       + (plan.measured_costs < costs.size() ? "; for the rest, " + flop_description(device) : "");
  }
  plan.shards = dataset::plan_shards(costs, shard_count);
  return plan;
}

} // namespace layerbench::bench
