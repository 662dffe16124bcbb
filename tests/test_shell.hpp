// SPDX-License-Identifier: MIT
#pragma once

// Runs a shell command for the tests that drive the real binary, stdout and stderr together.

#include <array>
#include <cstdio>
#include <doctest/doctest.h>
#include <string>
#include <sys/wait.h>

namespace layerbench::test {

struct ShellResult
{
  int status;         // the exit status, -1 when the command did not exit
  std::string output; // stdout and stderr together
};

inline ShellResult shell(const std::string& command)
{
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  std::array<char, 4096> buffer{};
  while (fgets(buffer.data(), buffer.size(), pipe) != nullptr) {
    output += buffer.data();
  }
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

} // namespace layerbench::test
