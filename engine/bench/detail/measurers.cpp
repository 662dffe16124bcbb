// SPDX-License-Identifier: MIT
#include "bench/detail/measurers.hpp"

#include <utility>

namespace layerbench::bench::detail {

namespace {

std::optional<dataset::Stats> time_part(DeviceBackend& backend,
                                        const std::function<void()>& body,
                                        const MeasureSettings& settings,
                                        const std::atomic<bool>& interrupted)
{
  const auto timed = time_alone(backend, body, settings, interrupted);
  return timed ? std::optional<dataset::Stats>(to_stats(timed->sampling, timed->iterations)) : std::nullopt;
}

} // namespace

std::optional<EagerTiming> measure_eager(const CellBody& cell_body,
                                         DeviceBackend& backend,
                                         const MeasureSettings& settings,
                                         Clock::time_point start,
                                         ClockLog& clocks,
                                         const std::atomic<bool>& interrupted,
                                         std::optional<int64_t> live_before_cell)
{
  const auto& body = cell_body.body;
  EagerTiming eager;
  eager.first_call_ms = backend.time_block(body, 1).host_seconds * 1000.0;
  const auto peak = [&] {
    backend.reset_peak_memory();
    body();
    const auto peak_bytes = backend.peak_memory_bytes();
    if (peak_bytes && live_before_cell) {
      eager.peak_memory_bytes = *peak_bytes - *live_before_cell;
    }
  };
  auto timed = time_body(backend, body, settings, start, clocks, interrupted, peak);
  if (!timed) {
    return std::nullopt;
  }
  eager.timed = std::move(*timed);
  return eager;
}

std::optional<util::Expected<dataset::VariantStats>> measure_variant(Variant variant,
                                                                    const std::function<void()>& forward,
                                                                    const MeasureSettings& settings,
                                                                    DeviceBackend& backend,
                                                                    ClockLog& clocks,
                                                                    dataset::CudaCell& record,
                                                                    const std::atomic<bool>& interrupted)
{
  using Result = util::Expected<dataset::VariantStats>;
  auto timer = backend.variant_timer(variant, forward);
  if (!timer) {
    return Result::failure(timer.error());
  }
  auto& block_timer = **timer;
  block_timer.describe(record);
  const TimeBlock time_block = [&block_timer](int64_t iterations) { return block_timer.time_block(iterations); };
  // A variant that fails while timed (out of memory for the cold buffer's neighbours, a replay error)
  // costs its own figures only, never the eager ones already taken.
  try {
    const auto start = Clock::now();
    const int64_t iterations = calibrate_block(time_block, settings.block_target_seconds);
    const auto sampling = sample(time_block, block_timer.forwards_per_iteration(), backend, clocks, iterations,
                                 settings.stopping, start, interrupted);
    if (!sampling) {
      return std::nullopt;
    }
    return variant_stats(summarize(sampling->device_ms), iterations);
  } catch (const std::exception& error) {
    return Result::failure("failed while timed: " + error_line(error));
  }
}

std::optional<dataset::CudaCell> measure_cuda_variants(const std::function<void()>& forward,
                                                       double eager_median_ms,
                                                       const MeasureSettings& settings,
                                                       DeviceBackend& backend,
                                                       ClockLog& clocks,
                                                       const std::atomic<bool>& interrupted)
{
  dataset::CudaCell record;
  for (const auto variant : {Variant::graph, Variant::cold}) {
    const auto outcome = measure_variant(variant, forward, settings, backend, clocks, record, interrupted);
    if (!outcome) {
      return std::nullopt;
    }
    record_variant(record, variant, *outcome, eager_median_ms);
  }
  record.clocks = clocks.summary(backend.clock_unavailable_reason());
  return record;
}

std::optional<dataset::TrainTimes> measure_train_parts(const CellBody& cell_body,
                                                       DeviceBackend& backend,
                                                       const MeasureSettings& settings,
                                                       const std::atomic<bool>& interrupted)
{
  const auto& forward = cell_body.forward;
  dataset::TrainTimes times;
  auto forward_stats = time_part(backend, [&] { forward(); }, settings, interrupted);
  if (!forward_stats) {
    return std::nullopt;
  }
  times.forward = *forward_stats;
  times.sum_ms = times.forward.median_ms;
  // One recorded forward whose graph every backward below reuses (retain_graph).
  const auto output = forward();
  const auto seed = torch::ones_like(output);
  const auto& targets = cell_body.targets;
  for (auto [of, into] : {std::make_pair(&targets.input, &times.backward_input),
                          std::make_pair(&targets.weights, &times.backward_weight)}) {
    if (of->empty()) {
      continue;
    }
    const auto& tensors = *of;
    auto stats = time_part(backend, [&] { gradients(output, tensors, seed, RetainGraph::yes); }, settings, interrupted);
    if (!stats) {
      return std::nullopt;
    }
    *into = *stats;
    times.sum_ms += stats->median_ms;
  }
  return times;
}

} // namespace layerbench::bench::detail
