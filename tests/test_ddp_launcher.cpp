// SPDX-License-Identifier: MIT
// launch_local itself starts processes: tests/bench_ddp_driver.cpp runs it (ddp/two_ranks_*).
#include "bench/ddp/launcher.hpp"

#include "test_socket.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

using namespace layerbench::bench::ddp;

TEST_CASE("ddp::threads_per_rank")
{
  CHECK(threads_per_rank(16, 2) == 8);
  CHECK(threads_per_rank(2, 2) == 1);
  CHECK(threads_per_rank(3, 2) == 1);
  CHECK(threads_per_rank(2, 4) == 1); // never 0
  CHECK(threads_per_rank(0, 1) == 1); // hardware_concurrency may say 0
}

TEST_CASE("ddp::free_local_port")
{
  const int port = free_local_port();
  CHECK(port > 0);
  CHECK(port < 65536);
  // It is free: this process can bind it.
  const int fd = layerbench::test::listen_on(INADDR_LOOPBACK, port);
  CHECK(fd >= 0);
  ::close(fd);
}

TEST_CASE("ddp::failed_ranks")
{
  SUBCASE("none failed") { CHECK(failed_ranks({{0, 0, ""}, {1, 0, ""}}).empty()); }
  SUBCASE("each failed rank on a line, with its status and its error")
  {
    const int exited_3 = 3 << 8; // as waitpid reports exit(3)
    const int killed_9 = 9;      // as waitpid reports death by SIGKILL
    CHECK(failed_ranks({{0, exited_3, "it broke"}, {1, 0, ""}, {2, killed_9, ""}})
          == "rank 0: its process exited with status 3: it broke\nrank 2: its process was killed by signal 9 (Killed)");
  }
}

TEST_CASE("ddp::this_command_line")
{
  const auto arguments = this_command_line();
  REQUIRE(!arguments.empty());
  CHECK(arguments.front().find("test_ddp") != std::string::npos);
}
