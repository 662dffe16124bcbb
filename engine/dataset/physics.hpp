// SPDX-License-Identifier: MIT
#pragma once

// One physics for every dataset, ours and the reference's: a forward pass takes at least its FLOPs over
// the compute peak at its precision, and at least its bytes moved over the bandwidth of the level its
// working set fits in (L2, L3, or the memory past them: dataset/roofline.hpp). A cell faster than that
// floor is above every roof: its time or a peak is wrong. The roofs are the dataset's own measured peaks
// (environment.peaks); a run made with --no-peaks is held to its device's datasheet
// (data/peaks/datasheet.json) where the datasheet knows the device.
// Kept apart from dataset::check, which every reader runs: a run's own file stays readable, so nothing
// measured is lost, and `validate` and `publish` refuse it.

#include "dataset/datasheet.hpp"
#include "dataset/dataset.hpp"
#include "dataset/erratum.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::dataset {

// The tolerance a cell is allowed above a roof: k_noise_multiple times the peak's own measured noise
// ((p75 - p25) / median of its samples), and never less than k_least_tolerance. The noise is the spread
// of the peak's samples; a cell timed minutes later on a shared machine may find it faster by about
// that much, and 3 interquartile ranges over the median (some 4 standard deviations of a normal
// spread) is more than chance gives. A datasheet figure has no noise: 5%, what its rounding can hide.
inline constexpr double k_noise_multiple = 3.0;
inline constexpr double k_least_tolerance = 0.05;
double roof_tolerance(std::optional<double> noise);

// Why a measured peak did not meet its noise target: too noisy, or within it but over too few samples to
// confirm it (its sampling stopped before its least count). nullopt where it met the target or says nothing.
enum class PeakShortfall { noisy, too_few_samples };
std::optional<PeakShortfall> peak_shortfall(const PeakRate& peak, double target);

enum class Severity { error, warning };

struct PhysicsFinding
{
  Severity severity = Severity::error;
  std::string pointer; // "/results/3/stats/median_ms"
  std::string message; // with its arithmetic
};

// Errors: an ok cell whose median is below its floor (at the compute peak, or at the bandwidth of its
// working set's measured level) by more than the roof's tolerance.
// Warnings: a peak that missed its noise target; a cell above the memory roof whose working set may sit
// in a cache whose bandwidth was not measured (files before 1.7.0); a run with neither peaks nor a
// datasheet entry, whose times nothing bounds; a cell above a compute peak that one of `errata` (the
// version's, catalog.json) withdrew, naming the erratum: the peak was the error, and the cell is still
// held to every other roof.
std::vector<PhysicsFinding> check_physics(const Dataset& dataset, const DatasheetPeaks& datasheet = {},
                                          const std::vector<Erratum>& errata = {});

// A convolution that cuDNN ran as an FFT or Winograd transform does less arithmetic than the direct count
// (2 * C_in * C_out * K^2 * H_out * W_out) that flops_per_sample gives, and takes a workspace of its own: an
// H200 ran Conv2d(64,128,3) at batch 128 through fft2d kernels at a nominal 65.9 TFLOP/s, above its measured
// 50.8 TFLOP/s fp32 product, and Conv1d(256,512,5) at batch 128 through an FFT with a 20 GiB workspace. The
// name of the first recorded kernel that says so ("fft", "winograd", any case); none for a cell without
// kernels (every reference figure), so the floors hold for it as before.
std::optional<std::string> transform_kernel(const Cell& cell);

// The datasheet a file is held to: DATA/peaks/datasheet.json of the data folder it sits in, else this
// layerbench checkout's data/peaks/datasheet.json; no devices where neither exists.
DatasheetPeaks datasheet_for(const std::filesystem::path& file);

} // namespace layerbench::dataset
