// SPDX-License-Identifier: MIT
#pragma once

// Runs a shell command for the tests that drive the real binary, stdout and stderr together.

#include <array>
#include <cstdio>
#include <doctest/doctest.h>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

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

// The binary under test (LAYERBENCH_BINARY, which every test area defines) with `arguments`.
inline ShellResult run_cli(const std::string& arguments) { return shell(std::string(LAYERBENCH_BINARY) + " " + arguments); }

// A folder of the system's temporary one for this process, "layerbench-NAME-PID", removed with it.
struct TempDir
{
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
    : path(std::filesystem::temp_directory_path() / ("layerbench-" + name + "-" + std::to_string(::getpid())))
  {
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

} // namespace layerbench::test
