// SPDX-License-Identifier: MIT
#pragma once

#include "dataset/dataset.hpp"

#include <string>

namespace layerbench::dataset {

// The rule, as written into each dataset's methodology.
std::string speed_class_rule();

// Sets each layer's speed_class from the medians at the run's reference batch (batch_sizes.hpp).
// Layers without a measured cell there get none.
void assign_speed_classes(Dataset& dataset);

// The class of a layer `ratio` times slower than the fastest one.
std::string speed_class_for_ratio(double ratio);

} // namespace layerbench::dataset
