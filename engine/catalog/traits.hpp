// SPDX-License-Identifier: MIT
#pragma once

// What the measurement's support rules (bench/axes_plan.hpp) need to know of a catalog entry. Torch-free,
// like the rest of the catalog: the rules read these, never the entry's LibTorch builder.

#include <string>

namespace layerbench::bench {

enum class InputRank { four_d, other }; // channels_last is a layout of 4-D tensors

// How a train corner is timed: a layer's step and then its parts; a whole model's step, or a model's
// layer in its layer sum (forward and backward), as one.
enum class TrainTiming { step_and_parts, step };

struct LayerTraits
{
  std::string name;
  InputRank rank = InputRank::other;
  bool model = false; // a whole model (catalog/models/entries.hpp)
  TrainTiming train = TrainTiming::step_and_parts;
};

} // namespace layerbench::bench
