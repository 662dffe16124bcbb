// SPDX-License-Identifier: MIT
#include "bench/ddp/launcher.hpp"

#include "bench/ddp/rank_capacity.hpp"
#include "util/child_process.hpp"
#include "util/error.hpp"
#include "util/file.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace layerbench::bench::ddp {

std::vector<RankExit> launch_local(int world_size, const std::vector<std::string>& arguments)
{
  if (world_size < 1) {
    throw Error("a data-parallel run needs a world size of at least 1, not " + std::to_string(world_size));
  }
  const auto port = std::to_string(free_local_port());
  const auto threads = std::to_string(threads_per_rank(this_machine().cores, world_size));
  std::vector<util::ChildSpec> children;
  for (int rank = 0; rank < world_size; ++rank) {
    util::ChildSpec child;
    child.arguments = arguments;
    child.environment = {{"RANK", std::to_string(rank)},
                         {"LOCAL_RANK", std::to_string(rank)},
                         {"WORLD_SIZE", std::to_string(world_size)},
                         {"MASTER_ADDR", "127.0.0.1"},
                         {"MASTER_PORT", port},
                         {"OMP_NUM_THREADS", threads}};
    child.line_prefix = "[rank " + std::to_string(rank) + "] ";
    children.push_back(std::move(child));
  }
  util::count_interrupts();
  const auto exits = util::run_children(children, "layerbench: error: ");
  std::vector<RankExit> result;
  for (int rank = 0; rank < world_size; ++rank) {
    result.push_back({rank, exits[rank].status, exits[rank].last_error});
  }
  return result;
}

std::vector<std::string> this_command_line()
{
  const auto text = util::read_file("/proc/self/cmdline");
  if (!text) {
    throw Error("/proc/self/cmdline: " + text.error());
  }
  std::vector<std::string> arguments;
  std::string argument;
  for (const char c : *text) {
    if (c != '\0') {
      argument += c;
      continue;
    }
    arguments.push_back(argument);
    argument.clear();
  }
  return arguments;
}

int free_local_port()
{
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    throw Error(std::string("cannot find a free port: socket: ") + std::strerror(errno));
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  const bool found = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0
                     && ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  const int saved = errno;
  ::close(fd);
  if (!found) {
    throw Error(std::string("cannot find a free port on 127.0.0.1: ") + std::strerror(saved));
  }
  return ntohs(address.sin_port);
}

int threads_per_rank(int cores, int world_size) { return std::max(1, cores / std::max(1, world_size)); }

std::string failed_ranks(const std::vector<RankExit>& exits)
{
  std::string lines;
  for (const auto& exit : exits) {
    if (WIFEXITED(exit.status) && WEXITSTATUS(exit.status) == 0) {
      continue;
    }
    lines += (lines.empty() ? "" : "\n") + std::string("rank ") + std::to_string(exit.rank) + ": "
             + util::describe_exit(exit.status) + (exit.last_error.empty() ? "" : ": " + exit.last_error);
  }
  return lines;
}

} // namespace layerbench::bench::ddp
