// SPDX-License-Identifier: MIT
#include "bench/child_process.hpp"

#include "util/build_info.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace layerbench::bench {

std::string environment_or(const char* name, const std::string& fallback)
{
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : fallback;
}

std::string helper_python()
{
  const std::string built_with = build_info::k_python;
  return environment_or("LAYERBENCH_PYTHON", built_with.empty() ? "python3" : built_with);
}

std::string last_line(const std::string& text)
{
  std::istringstream lines(text);
  std::string line;
  std::string last;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) {
      last = line;
    }
  }
  constexpr size_t k_longest = 300;
  return last.size() > k_longest ? last.substr(0, k_longest) + "..." : last;
}

ExitStatus run_logged(const std::vector<std::string>& argv, const std::filesystem::path& log,
                      const std::atomic<bool>& interrupted)
{
  std::vector<char*> args;
  for (const auto& arg : argv) {
    args.push_back(const_cast<char*>(arg.c_str()));
  }
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    return {-1, std::strerror(spawned), false};
  }
  int status = 0;
  std::optional<std::chrono::steady_clock::time_point> terminated;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) {
      break;
    }
    if (interrupted.load() && !terminated) {
      ::kill(-pid, SIGTERM);
      terminated = std::chrono::steady_clock::now();
    }
    if (terminated && std::chrono::steady_clock::now() - *terminated > k_child_grace) {
      ::kill(-pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const bool stopped = terminated.has_value();
  if (WIFEXITED(status)) {
    return {WEXITSTATUS(status), {}, stopped};
  }
  return {128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0), {}, stopped};
}

} // namespace layerbench::bench
