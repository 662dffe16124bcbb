// SPDX-License-Identifier: MIT
#include "bench/ddp/rendezvous.hpp"

#include "util/error.hpp"

#include <cstdlib>
#include <limits>
#include <netdb.h>
#include <sys/socket.h>

namespace layerbench::bench::ddp {

namespace {

std::string required(const Environment& environment, const std::string& name, const std::string& because)
{
  const auto value = environment(name);
  if (!value || value->empty()) {
    throw Error(name + " is not set (" + because + ")");
  }
  return *value;
}

// A whole number in [low, high], or an Error naming the variable.
long whole(const std::string& name, const std::string& text, long low, long high)
{
  size_t used = 0;
  long value = 0;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    throw Error(name + "=\"" + text + "\" is not a whole number");
  }
  if (value < low || value > high) {
    throw Error(name + "=" + text + " is outside " + std::to_string(low) + " to " + std::to_string(high));
  }
  return value;
}

int rank_below(const std::string& name, const std::string& text, int world_size, const std::string& world_name)
{
  const auto rank = static_cast<int>(whole(name, text, 0, 1 << 20));
  if (rank >= world_size) {
    throw Error(name + "=" + text + " is not below " + world_name + "=" + std::to_string(world_size));
  }
  return rank;
}

int port(const std::string& text) { return static_cast<int>(whole("MASTER_PORT", text, 1, 65535)); }

// The names one launcher gives the world size, the rank and the rank on this node.
struct RankNames
{
  std::string world_size;
  std::string rank;
  std::string local_rank;
};

void read_ranks(const Environment& environment, const RankNames& names, const std::string& because, Rendezvous& result)
{
  result.world_size = static_cast<int>(whole(names.world_size, required(environment, names.world_size, because), 1, 1 << 20));
  result.rank = rank_below(names.rank, required(environment, names.rank, because), result.world_size, names.world_size);
  result.local_rank = rank_below(names.local_rank, required(environment, names.local_rank, because), result.world_size, names.world_size);
}

Rendezvous from_torchrun(const Environment& environment)
{
  const std::string because = "RANK is set, so the rendezvous is read from torchrun's variables";
  Rendezvous result;
  result.source = RendezvousSource::environment;
  read_ranks(environment, {"WORLD_SIZE", "RANK", "LOCAL_RANK"}, because, result);
  result.master_addr = required(environment, "MASTER_ADDR", because);
  result.master_port = port(required(environment, "MASTER_PORT", because));
  return result;
}

Rendezvous from_slurm(const Environment& environment)
{
  const std::string because = "SLURM_PROCID is set, so the rendezvous is read from Slurm's variables";
  Rendezvous result;
  result.source = RendezvousSource::slurm;
  read_ranks(environment, {"SLURM_NTASKS", "SLURM_PROCID", "SLURM_LOCALID"}, because, result);
  const auto given_addr = environment("MASTER_ADDR");
  if (given_addr && !given_addr->empty()) {
    result.master_addr = *given_addr;
  } else {
    const auto step = environment("SLURM_STEP_NODELIST");
    const std::string list_name = step && !step->empty() ? "SLURM_STEP_NODELIST" : "SLURM_JOB_NODELIST";
    const auto list = required(environment, list_name, because + "; MASTER_ADDR is not set either");
    try {
      result.master_addr = first_slurm_host(list);
    } catch (const Error& error) {
      throw Error(list_name + ": " + error.what());
    }
  }
  const auto given_port = environment("MASTER_PORT");
  if (given_port && !given_port->empty()) {
    result.master_port = port(*given_port);
    return result;
  }
  const auto job = whole("SLURM_JOB_ID", required(environment, "SLURM_JOB_ID", because + "; MASTER_PORT is not set either"), 0,
                         std::numeric_limits<long>::max());
  result.master_port = k_slurm_port_base + static_cast<int>(job % k_slurm_port_span);
  return result;
}

} // namespace

Environment process_environment()
{
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) {
      return std::nullopt;
    }
    return std::string(value);
  };
}

Rendezvous rendezvous_from(const Environment& environment)
{
  if (environment("RANK")) {
    return from_torchrun(environment);
  }
  if (environment("SLURM_PROCID")) {
    return from_slurm(environment);
  }
  throw Error("no rendezvous for a data-parallel run: set RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT, "
              "or start it with srun (SLURM_PROCID is not set either)");
}

void resolve_master(const Rendezvous& rendezvous)
{
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int status = ::getaddrinfo(rendezvous.master_addr.c_str(), nullptr, &hints, &found);
  if (status == 0) {
    ::freeaddrinfo(found);
    return;
  }
  throw Error("MASTER_ADDR=" + rendezvous.master_addr + " cannot be resolved (" + ::gai_strerror(status) + "), so "
              + describe(rendezvous) + " cannot meet the others; give the name or address of rank 0's host");
}

std::string first_slurm_host(const std::string& nodelist)
{
  std::string host;
  for (size_t at = 0; at < nodelist.size() && nodelist[at] != ','; ++at) {
    if (nodelist[at] != '[') {
      host += nodelist[at];
      continue;
    }
    const auto close = nodelist.find(']', at);
    if (close == std::string::npos) {
      throw Error("\"" + nodelist + "\" has an unclosed '['");
    }
    // The first item of the range list, and the first number of that item: "07-09,12" gives "07".
    const auto ranges = nodelist.substr(at + 1, close - at - 1);
    host += ranges.substr(0, ranges.find_first_of(",-"));
    at = close;
  }
  if (host.empty()) {
    throw Error("\"" + nodelist + "\" names no host");
  }
  return host;
}

std::string describe(const Rendezvous& rendezvous)
{
  return "rank " + std::to_string(rendezvous.rank) + " of " + std::to_string(rendezvous.world_size)
         + " (MASTER_ADDR=" + rendezvous.master_addr + ", MASTER_PORT=" + std::to_string(rendezvous.master_port) + ")";
}

} // namespace layerbench::bench::ddp
