// SPDX-License-Identifier: MIT
#pragma once

// How many ranks this machine holds (docs/scale.md, issue 36): the local launcher refuses a world size
// beyond its cores or beyond the memory the ranks need, with the numbers, before it starts any rank.
// Unbounded, `--world-size 65` on two cores started 65 ranks and took 15 GB of memory in 29 s.
// Torch-free.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::bench::ddp {

// fp32 copies of the parameters a training step holds at least: weights, gradients, the all-reduce's
// flattened buckets and one optimizer state (SGD's momentum; AdamW holds two).
inline constexpr int k_parameter_copies = 4;

// The memory a rank process takes whatever it trains: LibTorch and its runtime, the allocator's kept
// blocks, the canary's buffers, the timing loop. The peak resident size (VmHWM) of the smaller of the
// two ranks of tests/ddp_run_check.sh's world-size-2 run (ResNetTiny, batch 1 and 2, 2026-11-27 on the
// 2-vCPU VM: 810,468 and 820,548 kB), less ResNetTiny's k_parameter_copies fp32 copies of its
// 10,064,936 parameters, so that rank_footprint() of ResNetTiny is what that rank took.
inline constexpr int64_t k_rank_process_bytes = int64_t{810468} * 1024 - int64_t{k_parameter_copies} * 10064936 * 4;

struct Machine
{
  int cores = 1;               // the CPUs this process may run on
  int64_t available_bytes = 0; // memory that can be had without swapping
  std::string memory_source;   // where available_bytes was read, for messages
};

// sched_getaffinity's CPUs; MemAvailable of /proc/meminfo, or what the cgroup v2 limit (memory.max
// less memory.current) leaves where that is less, as under Slurm or in a container.
Machine this_machine();

// MemAvailable in bytes from the text of /proc/meminfo; nullopt where it is missing or malformed.
std::optional<int64_t> mem_available(const std::string& meminfo);

// Where a rank's model lives: in this machine's memory (CPU) or on the rank's GPU.
enum class ModelPlace { host, device };

struct ModelSize
{
  std::string name;
  int64_t parameters = 0;
};

// A lower bound of one rank's memory on this machine, and how it was found.
struct RankFootprint
{
  int64_t bytes = 0;
  std::string how;
};

// The process, plus k_parameter_copies fp32 copies of the largest model's parameters where the model
// lives on the host. Activations are not counted: the figure is a floor, so a refusal is certain.
RankFootprint rank_footprint(const std::vector<ModelSize>& models, ModelPlace place);

// Why `world_size` ranks do not fit `machine`, with the numbers and the largest world size that does
// fit; nullopt where they fit. Each rank needs a core of its own (its training step runs on at least one
// thread; more ranks than cores would take turns, and the time of a step would measure the turns) and
// its footprint of memory.
std::optional<std::string> world_size_problem(int world_size, const Machine& machine, const RankFootprint& rank);

} // namespace layerbench::bench::ddp
