// SPDX-License-Identifier: MIT
#pragma once

// Child processes of this executable (/proc/self/exe), each in a process group of its own: a
// terminal's Ctrl-C reaches only the parent, which passes every SIGINT or SIGTERM it receives on to
// each child once, so that the first lets a child save its work and a second ends it. `run --rounds`
// runs one child at a time; the data-parallel launcher runs one per rank, all at once.

#include <string>
#include <utility>
#include <vector>

namespace layerbench::util {

// From now on, SIGINT and SIGTERM are counted instead of ending this process (without SA_RESTART, so
// a blocked read returns at once).
void count_interrupts();
int interrupts_received();

struct ChildSpec
{
  std::vector<std::string> arguments; // argv, argv[0] included; the program is always /proc/self/exe
  std::vector<std::pair<std::string, std::string>> environment; // set in the child over this process's
  // Put before every line of the child's standard error as it is copied through. Empty: the bytes are
  // copied as they come, so that a progress bar's carriage returns still work.
  std::string line_prefix;
};

struct ChildExit
{
  int status = 0;         // as waitpid gives it
  std::string last_error; // the last line of its standard error holding the error marker, after the marker
};

// Starts every child, copies their standard error through, passes interrupts on, and waits for all
// of them; the exits are in the order of `children`. Throws Error when a child cannot be started.
// A child is killed (SIGKILL) when this process dies, however it dies. Linux sends that signal when
// the thread that started the child ends, so call this from the thread that outlives the children.
std::vector<ChildExit> run_children(const std::vector<ChildSpec>& children, const std::string& error_marker);

// "its process exited with status 3", "its process was killed by signal 9 (Killed)".
std::string describe_exit(int status);

} // namespace layerbench::util
