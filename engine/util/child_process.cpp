// SPDX-License-Identifier: MIT
#include "util/child_process.hpp"

#include "util/error.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace layerbench::util {

namespace {

std::atomic<int> g_interrupts{0};

extern "C" void count_interrupt(int) { g_interrupts.fetch_add(1); }

// One started child: its process and the read end of its standard error.
struct Running
{
  pid_t pid = -1;
  int error_fd = -1;
  std::string line; // the part of the current line read so far
  ChildExit exit;
};

// The child's environment: this process's, with `overrides` replacing or adding variables. Built
// before fork, since only async-signal-safe calls may follow it.
std::vector<std::string> environment_with(const std::vector<std::pair<std::string, std::string>>& overrides)
{
  std::vector<std::string> entries;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    bool replaced = false;
    for (const auto& [name, value] : overrides) {
      replaced = replaced || text.rfind(name + "=", 0) == 0;
    }
    if (!replaced) {
      entries.push_back(text);
    }
  }
  for (const auto& [name, value] : overrides) {
    entries.push_back(name + "=" + value);
  }
  return entries;
}

std::vector<char*> pointers(std::vector<std::string>& texts)
{
  std::vector<char*> result;
  for (auto& text : texts) {
    result.push_back(text.data());
  }
  result.push_back(nullptr);
  return result;
}

Running start(const ChildSpec& spec)
{
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    throw Error(std::string("cannot start a child process: pipe: ") + std::strerror(errno));
  }
  auto arguments = spec.arguments;
  auto environment = environment_with(spec.environment);
  const auto argv = pointers(arguments);
  const auto envp = pointers(environment);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    throw Error(std::string("cannot start a child process: fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // A child must not outlive this process: an orphaned rank would go on using cores and memory, and
    // rank 0 would still write the dataset of a run whose launcher is gone (issue 36). The signal
    // survives execve. A parent that died before prctl took effect is caught by getppid().
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) {
      _exit(127);
    }
    ::setpgid(0, 0);
    ::dup2(pipe_fds[1], STDERR_FILENO);
    ::execve("/proc/self/exe", argv.data(), envp.data());
    _exit(127);
  }
  ::close(pipe_fds[1]);
  Running running;
  running.pid = pid;
  running.error_fd = pipe_fds[0];
  return running;
}

void note_error(const std::string& line, const std::string& marker, std::string& last_error)
{
  const auto at = line.find(marker);
  if (at != std::string::npos) {
    last_error = line.substr(at + marker.size());
  }
}

// Copies what a child wrote through, keeping its last error line.
void copy_through(Running& child, const std::string& prefix, const std::string& marker, const char* bytes, ssize_t count)
{
  if (prefix.empty()) {
    std::cerr.write(bytes, count).flush();
  }
  for (ssize_t i = 0; i < count; ++i) {
    if (bytes[i] != '\n') {
      child.line += bytes[i];
      continue;
    }
    if (!prefix.empty()) {
      std::cerr << prefix << child.line << '\n' << std::flush;
    }
    note_error(child.line, marker, child.exit.last_error);
    child.line.clear();
  }
}

void finish_output(Running& child, const std::string& prefix, const std::string& marker)
{
  ::close(child.error_fd);
  child.error_fd = -1;
  if (!child.line.empty() && !prefix.empty()) {
    std::cerr << prefix << child.line << '\n' << std::flush;
  }
  note_error(child.line, marker, child.exit.last_error);
}

void wait_for(Running& child)
{
  while (::waitpid(child.pid, &child.exit.status, 0) < 0) {
    if (errno != EINTR) {
      throw Error(std::string("waiting for a child process: ") + std::strerror(errno));
    }
  }
}

} // namespace

void count_interrupts()
{
  struct sigaction action = {};
  action.sa_handler = count_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0; // no SA_RESTART: a blocked read returns, and the signal is passed on at once
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int interrupts_received() { return g_interrupts.load(); }

std::vector<ChildExit> run_children(const std::vector<ChildSpec>& children, const std::string& error_marker)
{
  std::vector<Running> running;
  try {
    for (const auto& spec : children) {
      running.push_back(start(spec));
    }
  } catch (const Error&) {
    // The children started so far would wait for the others: end them.
    for (auto& child : running) {
      ::kill(child.pid, SIGKILL);
      ::close(child.error_fd);
      wait_for(child);
    }
    throw;
  }
  int forwarded = 0;
  size_t open = running.size();
  char buffer[4096];
  while (open > 0) {
    for (const int seen = g_interrupts.load(); forwarded < seen; ++forwarded) {
      for (const auto& child : running) {
        ::kill(child.pid, SIGINT);
      }
    }
    std::vector<pollfd> polled;
    std::vector<size_t> owner;
    for (size_t i = 0; i < running.size(); ++i) {
      if (running[i].error_fd >= 0) {
        polled.push_back({running[i].error_fd, POLLIN, 0});
        owner.push_back(i);
      }
    }
    if (::poll(polled.data(), polled.size(), 200) <= 0) {
      continue; // a signal or the timeout: pass signals on, then wait again
    }
    for (size_t p = 0; p < polled.size(); ++p) {
      if (polled[p].revents == 0) {
        continue;
      }
      auto& child = running[owner[p]];
      const auto& prefix = children[owner[p]].line_prefix;
      const ssize_t count = ::read(child.error_fd, buffer, sizeof buffer);
      if (count < 0 && errno == EINTR) {
        continue;
      }
      if (count > 0) {
        copy_through(child, prefix, error_marker, buffer, count);
        continue;
      }
      finish_output(child, prefix, error_marker);
      --open;
    }
  }
  std::vector<ChildExit> exits;
  for (auto& child : running) {
    wait_for(child);
    exits.push_back(child.exit);
  }
  return exits;
}

std::string describe_exit(int status)
{
  if (WIFSIGNALED(status)) {
    return "its process was killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  }
  return "its process exited with status " + std::to_string(WEXITSTATUS(status));
}

} // namespace layerbench::util
