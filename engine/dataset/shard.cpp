// SPDX-License-Identifier: MIT
#include "dataset/shard.hpp"

#include "util/error.hpp"

#include <optional>

namespace layerbench::dataset {

namespace {

// A count of at most six digits: no overflow, and no machine park is larger.
std::optional<int> small_count(const std::string& digits)
{
  if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoi(digits);
}

} // namespace

Shard parse_shard(const std::string& text)
{
  const auto slash = text.find('/');
  const auto index = small_count(text.substr(0, slash));
  const auto count = slash == std::string::npos ? std::nullopt : small_count(text.substr(slash + 1));
  if (!index || !count || *count < 1 || *index < 1 || *index > *count) {
    throw Error("shard \"" + text + "\" is not I/N with 1 <= I <= N (for example 2/4)");
  }
  return Shard{*index, *count};
}

std::string to_string(const Shard& shard)
{
  return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

bool in_shard(const Shard& shard, size_t cell_index)
{
  return cell_index % static_cast<size_t>(shard.count) == static_cast<size_t>(shard.index - 1);
}

} // namespace layerbench::dataset
