// SPDX-License-Identifier: MIT
#pragma once

// The local launcher of a data-parallel run (docs/scale.md): N processes of this executable on this
// machine, one rank each, meeting at 127.0.0.1 on a free port, the cores split between them. What
// torchrun does for one node, without Python. Torch-free.

#include <string>
#include <vector>

namespace layerbench::bench::ddp {

struct RankExit
{
  int rank = 0;
  int status = 0;         // as waitpid gives it
  std::string last_error; // its last "layerbench: error:" line, without the prefix
};

// Starts `world_size` copies of this executable with `arguments` (argv, argv[0] included) and RANK,
// LOCAL_RANK, WORLD_SIZE, MASTER_ADDR=127.0.0.1, MASTER_PORT (free_local_port()) and OMP_NUM_THREADS
// (threads_per_rank of this machine's cores) set; each rank's standard error is copied through with
// "[rank R] " before every line, interrupts are passed on to all, and all are waited for.
std::vector<RankExit> launch_local(int world_size, const std::vector<std::string>& arguments);

// This process's own argv (from /proc/self/cmdline): what `run --world-size N` passes to launch_local,
// so that each rank runs the same command and, seeing RANK set, takes its part instead of launching.
std::vector<std::string> this_command_line();

// A port that was free a moment ago: bound as port 0 on 127.0.0.1, read back, and closed. Another
// process may take it before rank 0 binds it; rank 0 then fails with an error naming the port.
int free_local_port();

// The intra-op threads of each of `world_size` ranks sharing `cores`: cores / world_size, at least 1.
int threads_per_rank(int cores, int world_size);

// Empty where every rank exited with status 0; else one line per failed rank, for an Error.
std::string failed_ranks(const std::vector<RankExit>& exits);

} // namespace layerbench::bench::ddp
