// SPDX-License-Identifier: MIT
#pragma once

// A cell's statistics against its own samples (stats.samples_ms, schema 1.4.0): the count, the median,
// the quartiles, the minimum and the mean are what the samples give, recomputed as the bench computed
// them (util/statistics.hpp). Needs no peak, so it holds for a run made with --no-peaks too: a median
// edited by hand, or samples that are not the cell's, are refused (issue 36 item 8).

#include "dataset/dataset.hpp"
#include "dataset/validate.hpp"

#include <vector>

namespace layerbench::dataset {

// The statistics are written with 17 significant digits; a recomputation agrees to far better than this.
inline constexpr double k_sample_agreement = 1e-9;

// Every Stats of the dataset that carries samples: results[].stats, their train parts and their rounds.
std::vector<Problem> check_samples(const Dataset& dataset);

} // namespace layerbench::dataset
