// SPDX-License-Identifier: MIT
#pragma once

// How every measurer times a body: a warm-up, a block of back-to-back iterations grown to the target
// length, then samples of that block until the stopping rule says stop. Shared by the measurers
// (bench/detail/measurers.hpp) and the device peaks; it knows the device only through DeviceBackend.

#include "bench/clock.hpp"
#include "bench/device.hpp"
#include "bench/measure.hpp"
#include "dataset/dataset.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace layerbench::bench::detail {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start);

// Times a block of `iterations` iterations; the block's total, as DeviceBackend::time_block gives it.
using TimeBlock = std::function<BlockTime(int64_t iterations)>;

// Grows the block until one block lasts `target` seconds. Returns the iterations per block.
int64_t calibrate_block(const TimeBlock& time_block, double target);

struct Sampling
{
  std::vector<double> device_ms; // per iteration
  std::vector<double> host_ms;
  Verdict verdict = Verdict::continue_sampling;
  double page_faults_per_iteration = 0;
};

// Samples until the stopping rule ends, its budget counted from `start`; nullopt when interrupted.
std::optional<Sampling> sample(const TimeBlock& time_block,
                               int forwards_per_iteration,
                               DeviceBackend& backend,
                               ClockLog& clocks,
                               int64_t iterations,
                               const StoppingRule& rule,
                               Clock::time_point start,
                               const std::atomic<bool>& interrupted);

// One timed body: its samples and the iterations each sample timed.
struct Timed
{
  Sampling sampling;
  int64_t iterations = 1;
};

// Warm-up, `after_warmup` (the memory peak, where wanted), block calibration and samples until the
// stopping rule says so; the budget counts from `start`. Nullopt when interrupted.
std::optional<Timed> time_body(DeviceBackend& backend,
                               const std::function<void()>& body,
                               const MeasureSettings& settings,
                               Clock::time_point start,
                               ClockLog& clocks,
                               const std::atomic<bool>& interrupted,
                               const std::function<void()>& after_warmup = {});

// A body timed on its own: its budget counts from now, and it reads the clock for itself.
std::optional<Timed> time_alone(DeviceBackend& backend,
                                const std::function<void()>& body,
                                const MeasureSettings& settings,
                                const std::atomic<bool>& interrupted);

// The record's figures of a timed body.
dataset::Stats to_stats(const Sampling& sampling, int64_t iterations);

} // namespace layerbench::bench::detail
