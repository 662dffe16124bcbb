// SPDX-License-Identifier: MIT
#pragma once

// The batch sizes of the matrix, named here and nowhere else: the ones a run measures unless told
// otherwise, and the reference batch, the one the speed classes and the site feature.

#include "dataset/dataset.hpp"

#include <array>
#include <string>
#include <vector>

namespace layerbench::dataset {

// The reference page's batch sizes, which `run` measures by default (the reference preset). The
// Python timers and the GPU script default to the same list; tests/test_dataset_batch_sizes.cpp
// holds them to it.
inline constexpr std::array<int, 4> k_default_batch_sizes{1, 8, 32, 128};

// The reference batch: the batch size the speed classes, the site's headline, memory columns and bar
// chart look at, when a run has it.
inline constexpr int k_reference_batch = 32;

std::vector<int> default_batch_sizes();

// "1,8,32,128", as --batch-sizes takes them.
std::string batch_sizes_text(const std::vector<int>& sizes);

// The reference batch of one run: k_reference_batch, or the run's largest batch size when it does not
// have that one.
int reference_batch(const Dataset& dataset);

} // namespace layerbench::dataset
