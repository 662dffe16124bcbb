// SPDX-License-Identifier: MIT
#include "bench/torch_release.hpp"

namespace layerbench::bench {

std::string to_string(TorchRelease release)
{
  return std::to_string(release.major) + "." + std::to_string(release.minor);
}

std::optional<std::string> missing(TorchRelease release, TorchFeature feature)
{
  if (has(release, feature)) {
    return std::nullopt;
  }
  return "needs torch >= " + to_string(first_release_with(feature)) + "; built with torch " + to_string(release);
}

std::optional<std::string> missing_here(TorchFeature feature)
{
  return missing(built_torch_release(), feature);
}

} // namespace layerbench::bench
