// SPDX-License-Identifier: MIT
#include "bench/measure.hpp"

#include "catalog/catalog.hpp"
#include "bench/detail/ddp/data_parallel.hpp"
#include "bench/detail/cell_body.hpp"
#include "bench/detail/corner.hpp"
#include "bench/detail/measurers.hpp"
#include "bench/detail/sampling.hpp"
#include "bench/profile.hpp"
#include "bench/python_worker.hpp"

#include <iostream>

namespace layerbench::bench {

namespace {

using detail::Clock;
using detail::seconds_since;

dataset::Cell summarise(const LayerSpec& spec,
                        int batch_size,
                        const dataset::Axes& axes,
                        const detail::Timed& timed,
                        double first_call_ms,
                        std::optional<int64_t> peak_memory)
{
  dataset::Cell cell;
  cell.layer = spec.name;
  cell.batch_size = batch_size;
  cell.axes = axes;
  cell.stats = detail::to_stats(timed.sampling, timed.iterations);
  cell.first_call_ms = first_call_ms;
  cell.host_wall_median_ms = summarize(timed.sampling.host_ms).median;
  cell.peak_memory_bytes = peak_memory;
  cell.page_faults_per_iteration = timed.sampling.page_faults_per_iteration;
  const double seconds = cell.stats->median_ms / 1000.0;
  if (seconds > 0) {
    cell.throughput_samples_per_s = batch_size / seconds;
    // The FLOP formulas count the forward only; a training step's rate would be misread.
    if (axes[dataset::k_mode] != dataset::GradMode::train) {
      cell.achieved_flop_per_s = spec.flops() * batch_size / seconds;
    }
  }
  return cell;
}

// The measurers in turn on one built cell: the eager forward; on CUDA, outside a training step, its
// graph and cold-L2 variants; for a train corner, the step's parts. Nullopt when interrupted.
std::optional<dataset::Cell> measure_built(const LayerSpec& spec,
                                           int batch_size,
                                           const dataset::Axes& axes,
                                           const detail::CellBody& cell_body,
                                           const MeasureSettings& settings,
                                           DeviceBackend& backend,
                                           Clock::time_point cell_start,
                                           std::optional<int64_t> live_before_cell,
                                           const std::atomic<bool>& interrupted)
{
  ClockLog clocks(backend.default_clock_mhz());
  const auto eager = detail::measure_eager(cell_body, backend, settings, cell_start, clocks, interrupted, live_before_cell);
  if (!eager) {
    return std::nullopt;
  }
  auto cell = summarise(spec, batch_size, axes, eager->timed, eager->first_call_ms, eager->peak_memory_bytes);
  const bool train = axes[dataset::k_mode] == dataset::GradMode::train;
  // The launch-free and cold-L2 variants time the forward; a training step's are not taken.
  if (backend.kind() == DeviceKind::cuda && !train) {
    cell.cuda = detail::measure_cuda_variants(cell_body.body, cell.stats->median_ms, settings, backend, clocks, interrupted);
    if (!cell.cuda) {
      return std::nullopt;
    }
  }
  // A whole model's step is timed whole; its parts are the layer sum's business (docs/models.md).
  if (train && spec.kind == dataset::LayerKind::layer) {
    auto parts = detail::measure_train_parts(cell_body, backend, settings, interrupted);
    if (!parts) {
      return std::nullopt;
    }
    cell.train = std::move(*parts);
  }
  return cell;
}

// A data-parallel step's record (dataset::DataParallel); its throughput counts every rank's batch.
void record_data_parallel(dataset::Cell& cell)
{
  const auto* ranks = ddp::current_run();
  if (ranks == nullptr || !cell.stats) {
    return;
  }
  cell.data_parallel = ranks->record(*cell.stats->samples * *cell.stats->iterations_per_sample);
  if (cell.throughput_samples_per_s) {
    *cell.throughput_samples_per_s *= ranks->size();
  }
}

} // namespace

std::optional<SteadyTiming> time_steady_state(DeviceBackend& backend,
                                              const std::function<void()>& body,
                                              const MeasureSettings& settings,
                                              const std::atomic<bool>& interrupted)
{
  const auto timed = detail::time_alone(backend, body, settings, interrupted);
  if (!timed) {
    return std::nullopt;
  }
  return SteadyTiming{summarize(timed->sampling.device_ms), timed->iterations, timed->sampling.verdict};
}

dataset::VariantStats variant_stats(const Summary& summary, int64_t iterations)
{
  dataset::VariantStats stats;
  stats.median_ms = summary.median;
  stats.p25_ms = summary.p25;
  stats.p75_ms = summary.p75;
  stats.samples = summary.count;
  stats.iterations_per_sample = iterations;
  stats.noise = summary.noise;
  return stats;
}

void record_variant(dataset::CudaCell& record,
                    Variant variant,
                    const util::Expected<dataset::VariantStats>& outcome,
                    double eager_median_ms)
{
  const bool graph = variant == Variant::graph;
  auto& stats = graph ? record.graph : record.cold;
  auto& reason = graph ? record.graph_skip_reason : record.cold_skip_reason;
  auto& ratio = graph ? record.graph_over_eager : record.cold_over_hot;
  if (!outcome) {
    stats.reset();
    ratio.reset();
    reason = outcome.error().empty() ? "no reason given" : outcome.error();
    return;
  }
  stats = *outcome;
  reason.clear();
  if (eager_median_ms > 0) {
    ratio = outcome->median_ms / eager_median_ms;
  }
}

dataset::Cell skipped_cell(const std::string& layer, int batch_size, const dataset::Axes& axes, const std::string& reason)
{
  dataset::Cell cell;
  cell.layer = layer;
  cell.batch_size = batch_size;
  cell.axes = axes;
  cell.status = dataset::CellStatus::skipped;
  cell.skip_reason = reason;
  return cell;
}

std::optional<dataset::Cell> measure_cell(const LayerSpec& spec,
                                          int batch_size,
                                          const MeasureSettings& settings,
                                          DeviceBackend& backend,
                                          const std::atomic<bool>& interrupted)
{
  return measure_cell(spec, batch_size, dataset::Axes{}, settings, backend, interrupted);
}

std::optional<dataset::Cell> measure_cell(const LayerSpec& spec,
                                          int batch_size,
                                          const dataset::Axes& axes,
                                          const MeasureSettings& settings,
                                          DeviceBackend& backend,
                                          const std::atomic<bool>& interrupted,
                                          const std::filesystem::path& aoti_package)
{
  if (axes[dataset::k_compiled] == dataset::Compiled::torch_compile) {
    return measure_in_worker({spec.name, batch_size, axes, backend.kind(), torch::get_num_threads(), settings},
                             interrupted);
  }
  const auto cell_start = Clock::now();
  try {
    const detail::GlobalKnobs knobs(axes);
    const detail::GradScope grad(axes[dataset::k_mode]);
    // What is live now is not the cell's (the canary's buffers, anything a caller holds): the peak is
    // counted above it, so it holds this layer's parameters, buffers, input and what its forward allocates.
    const auto live_before_cell = backend.live_memory_bytes();
    const detail::CellBody cell_body(spec, batch_size, axes, backend, aoti_package);
    if (cell_body.input_moves > 0) {
      std::cerr << "layerbench: " << spec.name << " batch " << batch_size << ": input copied elsewhere "
                << cell_body.input_moves << (cell_body.input_moves == 1 ? " time" : " times")
                << ": its output shared the input's low 28 address bits (methodology.cpu_memory_policy_text)\n";
    }
    auto cell = measure_built(spec, batch_size, axes, cell_body, settings, backend, cell_start, live_before_cell, interrupted);
    if (cell) {
      record_data_parallel(*cell);
      cell->cell_seconds = seconds_since(cell_start);
    }
    return cell;
  } catch (const std::exception& error) {
    // A rank whose cell failed would leave the others waiting in a collective it never joins: in a
    // data-parallel run a failure ends the run on every rank, its finished cells kept in the checkpoint.
    if (detail::in_lockstep()) {
      throw;
    }
    const std::string reason = backend.is_out_of_memory(error) ? "out of memory: " : "failed: ";
    auto cell = skipped_cell(spec.name, batch_size, axes, reason + error_line(error));
    cell.cell_seconds = seconds_since(cell_start);
    return cell;
  }
}

util::Expected<Profile> profile_cell(const LayerSpec& spec,
                                     int batch_size,
                                     const dataset::Axes& axes,
                                     DeviceBackend& backend,
                                     const std::filesystem::path& aoti_package)
{
  try {
    const detail::GlobalKnobs knobs(axes);
    const detail::GradScope grad(axes[dataset::k_mode]);
    const detail::CellBody cell_body(spec, batch_size, axes, backend, aoti_package);
    // One call first, so the profile sees a steady-state iteration, as the timed ones were.
    cell_body.body();
    backend.synchronize();
    return profile_forward(cell_body.body, [&backend] { backend.synchronize(); },
                           backend.kind() == DeviceKind::cuda ? ProfileDevice::cuda : ProfileDevice::cpu);
  } catch (const std::exception& error) {
    return util::Expected<Profile>::failure(error_line(error));
  }
}

} // namespace layerbench::bench
