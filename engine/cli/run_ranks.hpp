// SPDX-License-Identifier: MIT
#pragma once

// `layerbench run --world-size N` (docs/scale.md): a whole model's training step over N processes.
// Where no rendezvous is in the environment, this process launches N ranks of the same command on this
// machine (bench/ddp/launcher.hpp); where srun or torchrun set one, this process is one of the ranks.

#if LAYERBENCH_WITH_TORCH

#include "bench/ddp/rendezvous.hpp"
#include "cli/run_options.hpp"

#include <boost/program_options.hpp>
#include <optional>

namespace layerbench::cli {

enum class RankRole {
  single,   // --world-size 1: one process, no collectives
  launcher, // starts the N ranks here and waits for them
  rank,     // one rank of a rendezvous that srun, torchrun or the launcher set
};

// What this process is for --world-size `world_size` in `environment`: a rank where RANK is set, or
// where srun started more than one task (SLURM_PROCID with SLURM_NTASKS above 1); else the launcher.
// With --world-size 1, a rendezvous of another size (WORLD_SIZE or SLURM_NTASKS) is a UsageError
// naming both: each of its ranks would measure alone and write the same file.
RankRole rank_role(int world_size, const bench::ddp::Environment& environment);

// Where the file rank 0 writes is named: --out on the command line, or per task by `layerbench slurm`.
enum class OutGiven { option, per_task };

// Throws UsageError naming what a data-parallel run cannot measure: a layer (only whole models train
// data-parallel), a corner other than a training step, a compiled corner, or no --out.
void check_data_parallel(const boost::program_options::variables_map& values, const RunMatrix& matrix, int world_size,
                         OutGiven out = OutGiven::option);

// Throws UsageError, with the numbers, where this machine cannot hold `world_size` ranks of the matrix's
// models: more ranks than cores, or than the memory each needs (bench/ddp/rank_capacity.hpp). Asked
// before the launcher starts any rank.
void check_world_fits(const boost::program_options::variables_map& values, const RunMatrix& matrix, int world_size);

// This rank's rendezvous, checked against --world-size.
bench::ddp::Rendezvous rank_rendezvous(int world_size, const bench::ddp::Environment& environment);

// Starts the ranks of this very command on this machine and waits for them; rank 0 writes the dataset.
// Throws Error naming every rank that failed.
int launch_ranks(const boost::program_options::variables_map& values, int world_size);

} // namespace layerbench::cli

#endif
