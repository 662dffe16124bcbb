// SPDX-License-Identifier: MIT
#pragma once

// The Slurm job scripts of a sharded run (`layerbench slurm`): an array job with one task per shard,
// each task `layerbench run --shard I/N` into a shared folder (or, data-parallel, `srun layerbench run
// --world-size W` over the task's nodes), resuming from its checkpoint when the
// task was requeued or preempted; and a merge job, submitted with --dependency=afterok on the array,
// that merges the shards and validates the result. Knows nothing of torch, so it is unit tested.

#include <optional>
#include <string>
#include <vector>

namespace layerbench::cluster {

enum class Gpu { none, one };

struct SlurmJob
{
  std::string layerbench; // the binary, as the compute nodes see it
  std::string out_dir;    // shared by the login node and every compute node
  std::string work_dir;   // where the tasks start, so relative paths in run_arguments mean what they meant
  int shards = 1;
  std::optional<int> max_running; // the array's %K: at most K tasks at once
  Gpu gpu = Gpu::none;            // one GPU per rank: --gres=gpu:<tasks_per_node>
  // A data-parallel run (docs/scale.md): each shard's task is a job step of nodes x tasks_per_node
  // ranks started by srun, `run --world-size <nodes x tasks_per_node>`. 1 x 1: one process per shard.
  int nodes = 1;
  int tasks_per_node = 1;
  // Passed through to both jobs when not empty.
  std::string partition;
  std::string time_limit;
  std::string account;
  std::string constraint;
  std::string job_name = "layerbench";
  std::vector<std::string> run_arguments; // every task's `run` options: the matrix, the settings, --plan-from
  std::vector<std::string> plan_lines;    // the expected time of each shard, written as comments
};

// The ranks of one data-parallel task: nodes x tasks_per_node.
inline int world_size(const SlurmJob& job) { return job.nodes * job.tasks_per_node; }

// "shard-2-of-4.json": where task I writes its shard, inside out_dir.
std::string shard_file(int index, int count);
inline constexpr const char* k_merged_file = "merged.json";
inline constexpr const char* k_array_script = "layerbench-shards.sbatch";
inline constexpr const char* k_merge_script = "layerbench-merge.sbatch";

// Both throw Error, as check_job does, rather than write a script that says something else.
std::string array_script(const SlurmJob& job);
std::string merge_script(const SlurmJob& job);

// Refuses what no job script can carry: a control character in any option value (a newline would
// start a command of its own on the cluster), a backslash in the output folder. Names the option.
void check_job(const SlurmJob& job);

// The job id in `sbatch --parsable`'s answer ("1234" or "1234;cluster"); throws Error on anything else.
std::string parse_job_id(const std::string& sbatch_output);

} // namespace layerbench::cluster
