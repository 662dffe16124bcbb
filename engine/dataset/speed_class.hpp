// SPDX-License-Identifier: MIT
#pragma once

#include "dataset/dataset.hpp"

#include <string>

namespace layerbench::dataset {

// The rule, as written into each dataset's methodology.
std::string speed_class_rule();

// The batch size the speed classes, the site's headline, memory column and bar chart look at: 32, or
// the largest batch size of the run when 32 is not in it. The one place that says so.
int reference_batch(const Dataset& dataset);

// Sets each layer's speed_class from the medians at the reference batch size (32, or the largest
// batch size of the run when 32 is not in it). Layers without a measured cell there get none.
void assign_speed_classes(Dataset& dataset);

// The class of a layer `ratio` times slower than the fastest one.
std::string speed_class_for_ratio(double ratio);

} // namespace layerbench::dataset
