// SPDX-License-Identifier: MIT
#pragma once

// Where the ranks of one data-parallel run meet (docs/scale.md): rank 0 serves c10d's TCPStore at
// MASTER_ADDR:MASTER_PORT and the others connect to it. Found in the environment as torchrun and our
// local launcher set it, or as `srun` sets Slurm's own variables. Torch-free.

#include <functional>
#include <optional>
#include <string>

namespace layerbench::bench::ddp {

// Where `srun` leaves MASTER_PORT unset, the port is this plus SLURM_JOB_ID modulo k_slurm_port_span,
// so that two jobs sharing a node are unlikely to meet on one port.
constexpr int k_slurm_port_base = 29500;
constexpr int k_slurm_port_span = 1000;

enum class RendezvousSource { environment, slurm };

struct Rendezvous
{
  std::string master_addr;
  int master_port = 0;
  int rank = 0;
  int world_size = 1;
  int local_rank = 0; // the rank among this node's processes: which GPU it takes
  RendezvousSource source = RendezvousSource::environment;
};

// A variable's value, or nullopt where it is unset; tests pass a map instead of the process's.
using Environment = std::function<std::optional<std::string>(const std::string& name)>;
Environment process_environment();

// torchrun's variables (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT) where RANK is set;
// otherwise Slurm's: SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, the first host of SLURM_STEP_NODELIST
// (or SLURM_JOB_NODELIST), and MASTER_PORT or a port derived from SLURM_JOB_ID. Throws Error naming
// the variable that is missing or bad.
Rendezvous rendezvous_from(const Environment& environment);

// Resolves MASTER_ADDR (getaddrinfo) before the ranks meet. Throws Error naming the address and the
// resolver's reason: unresolved, every rank would wait out the store's timeout and report only that.
void resolve_master(const Rendezvous& rendezvous);

// The first host of a Slurm host list: "gpu[07-09,12],login1" gives "gpu07". Throws Error for an
// empty list or an unclosed bracket.
std::string first_slurm_host(const std::string& nodelist);

// "rank 1 of 2 (MASTER_ADDR=node1, MASTER_PORT=29500)": the rank and the place, for messages.
std::string describe(const Rendezvous& rendezvous);

} // namespace layerbench::bench::ddp
