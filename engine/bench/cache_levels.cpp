// SPDX-License-Identifier: MIT
#include "bench/cache_levels.hpp"

#include "bench/cpu_backend.hpp"
#include "util/file.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace layerbench::bench {

namespace {

// sysfs gives every attribute file a size of one page whatever it holds, so a smaller read limit refuses
// them all (which, until this limit, left environment.last_level_cache_bytes unrecorded in every run).
constexpr size_t k_sysfs_file_bytes = 4096;

// A sysfs text without the spaces and newline it ends with.
std::string right_trimmed(std::string text)
{
  text.erase(text.find_last_not_of(" \n") + 1);
  return text;
}

} // namespace

int count_cpus(const std::string& list)
{
  int count = 0;
  std::stringstream parts(right_trimmed(list));
  std::string part;
  while (std::getline(parts, part, ',')) {
    char* end = nullptr;
    const long first = std::strtol(part.c_str(), &end, 10);
    if (end == part.c_str()) {
      return 0;
    }
    const long last = *end == '-' ? std::strtol(end + 1, &end, 10) : first;
    if (*end != '\0' || last < first) {
      return 0;
    }
    count += static_cast<int>(last - first + 1);
  }
  return count;
}

std::vector<CacheLevel> cpu_cache_levels(const std::filesystem::path& root)
{
  std::vector<CacheLevel> levels;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(root, error)) {
    const auto level = util::read_file(entry.path() / "level", k_sysfs_file_bytes);
    const auto type = util::read_file(entry.path() / "type", k_sysfs_file_bytes);
    const auto size = util::read_file(entry.path() / "size", k_sysfs_file_bytes);
    if (!level || !type || !size || type->rfind("Instruction", 0) == 0) {
      continue;
    }
    const auto bytes = parse_cache_size(*size);
    const int number = std::atoi(level->c_str());
    if (!bytes || number < 1) {
      continue;
    }
    const auto shared = util::read_file(entry.path() / "shared_cpu_list", k_sysfs_file_bytes);
    const int shared_by = shared ? std::max(1, count_cpus(*shared)) : 1;
    levels.push_back({number, *bytes, shared_by,
                      "cpu0/cache/" + entry.path().filename().string() + ": " + right_trimmed(*size) + ", "
                        + std::to_string(shared_by) + (shared_by == 1 ? " CPU" : " CPUs") + " per instance"});
  }
  std::sort(levels.begin(), levels.end(), [](const CacheLevel& a, const CacheLevel& b) { return a.level < b.level; });
  return levels;
}

int64_t reachable_bytes(const CacheLevel& level, int threads)
{
  const int instances = std::max(1, (threads + level.shared_by - 1) / level.shared_by);
  return level.size_bytes * instances;
}

} // namespace layerbench::bench
