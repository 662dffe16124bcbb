// SPDX-License-Identifier: MIT
#include "dataset/batch_sizes.hpp"

#include <algorithm>

namespace layerbench::dataset {

namespace {

constexpr bool is_default_batch_size(int size)
{
  for (const int candidate : k_default_batch_sizes) {
    if (candidate == size) {
      return true;
    }
  }
  return false;
}

// A default run must be able to feature its reference batch.
static_assert(is_default_batch_size(k_reference_batch), "the reference batch is one of the default batch sizes");

} // namespace

std::vector<int> default_batch_sizes()
{
  return {k_default_batch_sizes.begin(), k_default_batch_sizes.end()};
}

std::string batch_sizes_text(const std::vector<int>& sizes)
{
  std::string text;
  for (const int size : sizes) {
    text += (text.empty() ? "" : ",") + std::to_string(size);
  }
  return text;
}

int reference_batch(const Dataset& dataset)
{
  if (!dataset.methodology || dataset.methodology->batch_sizes.empty()) {
    return k_reference_batch;
  }
  const auto& sizes = dataset.methodology->batch_sizes;
  if (std::find(sizes.begin(), sizes.end(), k_reference_batch) != sizes.end()) {
    return k_reference_batch;
  }
  return *std::max_element(sizes.begin(), sizes.end());
}

} // namespace layerbench::dataset
