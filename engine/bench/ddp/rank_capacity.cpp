// SPDX-License-Identifier: MIT
#include "bench/ddp/rank_capacity.hpp"

#include "util/file.hpp"
#include "util/format.hpp"

#include <algorithm>
#include <sched.h>
#include <sstream>

namespace layerbench::bench::ddp {

namespace {

int affinity_cores()
{
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) {
    return 1;
  }
  return std::max(1, CPU_COUNT(&set));
}

std::optional<int64_t> whole_bytes(const std::string& text)
{
  try {
    size_t used = 0;
    const auto value = std::stoll(text, &used);
    return used > 0 && value >= 0 ? std::optional<int64_t>(value) : std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// What the cgroup v2 limit leaves: memory.max less memory.current; nullopt without a limit.
std::optional<int64_t> cgroup_available()
{
  const auto limit = util::read_file("/sys/fs/cgroup/memory.max");
  const auto used = util::read_file("/sys/fs/cgroup/memory.current");
  if (!limit || !used) {
    return std::nullopt;
  }
  const auto max = whole_bytes(*limit); // "max" where there is no limit
  const auto current = whole_bytes(*used);
  if (!max || !current) {
    return std::nullopt;
  }
  return std::max<int64_t>(0, *max - *current);
}

} // namespace

std::optional<int64_t> mem_available(const std::string& meminfo)
{
  std::istringstream lines(meminfo);
  std::string name;
  int64_t kib = 0;
  std::string unit;
  while (lines >> name) {
    if (name != "MemAvailable:") {
      std::getline(lines, unit);
      continue;
    }
    if (!(lines >> kib >> unit) || unit != "kB" || kib < 0) {
      return std::nullopt;
    }
    return kib * 1024;
  }
  return std::nullopt;
}

Machine this_machine()
{
  Machine machine;
  machine.cores = affinity_cores();
  const auto meminfo = util::read_file("/proc/meminfo");
  const auto available = meminfo ? mem_available(*meminfo) : std::nullopt;
  machine.available_bytes = available.value_or(0);
  machine.memory_source = "MemAvailable in /proc/meminfo";
  const auto cgroup = cgroup_available();
  if (cgroup && (!available || *cgroup < machine.available_bytes)) {
    machine.available_bytes = *cgroup;
    machine.memory_source = "this cgroup's memory.max less memory.current";
  }
  return machine;
}

RankFootprint rank_footprint(const std::vector<ModelSize>& models, ModelPlace place)
{
  RankFootprint rank;
  rank.bytes = k_rank_process_bytes;
  rank.how = util::format_bytes(static_cast<double>(k_rank_process_bytes)) + " for the process (a rank of ResNetTiny, measured)";
  if (place == ModelPlace::device || models.empty()) {
    rank.how += place == ModelPlace::device ? "; the model is on its GPU" : "";
    return rank;
  }
  const auto largest = *std::max_element(models.begin(), models.end(),
                                         [](const ModelSize& a, const ModelSize& b) { return a.parameters < b.parameters; });
  const int64_t state = static_cast<int64_t>(k_parameter_copies) * largest.parameters * 4;
  rank.bytes += state;
  rank.how += " and " + util::format_bytes(static_cast<double>(state)) + " for " + largest.name + "'s "
              + util::format_thousands(largest.parameters) + " parameters, " + std::to_string(k_parameter_copies)
              + " fp32 copies (weights, gradients, the all-reduce's buckets, the optimizer's state); activations not counted";
  return rank;
}

std::optional<std::string> world_size_problem(int world_size, const Machine& machine, const RankFootprint& rank)
{
  if (world_size > machine.cores) {
    return "this machine has " + util::format_count(machine.cores, "core") + " for this process, and each rank needs one of "
           "its own (its training step runs on at least one thread; ranks beyond the cores would take turns on them, and "
           "a step's time would measure the turns); give --world-size " + std::to_string(machine.cores) + " or less";
  }
  const int64_t needed = rank.bytes * world_size;
  if (rank.bytes <= 0 || needed <= machine.available_bytes) {
    return std::nullopt;
  }
  const int64_t fits = machine.available_bytes / rank.bytes;
  return "each rank needs at least " + util::format_bytes(static_cast<double>(rank.bytes)) + " (" + rank.how + "), "
         + util::format_bytes(static_cast<double>(needed)) + " for " + std::to_string(world_size) + " ranks, and "
         + util::format_bytes(static_cast<double>(machine.available_bytes)) + " is available (" + machine.memory_source + "); "
         + (fits >= 1 ? "give --world-size " + std::to_string(fits) + " or less" : "not even one rank fits; free memory first");
}

} // namespace layerbench::bench::ddp
