// SPDX-License-Identifier: MIT
#pragma once

// One shard of the layer x batch-size matrix, so that `layerbench run --shard i/n` on n machines
// measures every cell exactly once and `layerbench merge` puts the shards back together.

#include <cstddef>
#include <string>

namespace layerbench::dataset {

struct Shard
{
  int index = 1; // 1-based
  int count = 1;
};

// "i/n" with 1 <= i <= n; anything else throws Error saying so (the command line adds its option).
Shard parse_shard(const std::string& text);

std::string to_string(const Shard& shard);

// Cells are numbered in layer-major order (every batch size of the first layer, then the next
// layer) and dealt round-robin: cell k belongs to shard (k mod n) + 1. Round-robin rather than
// contiguous blocks, so that the slow layers (LSTM, TransformerEncoder) spread over the machines.
bool in_shard(const Shard& shard, size_t cell_index);

} // namespace layerbench::dataset
