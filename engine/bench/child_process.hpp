// SPDX-License-Identifier: MIT
#pragma once

// A Python helper process of a run (the AOTInductor exporter, the torch.compile worker): started in a
// process group of its own with its output in a log, waited for, and stopped with the run. Torch-free.

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace layerbench::bench {

struct ExitStatus
{
  int code = 0;
  std::string spawn_error;  // the program could not be started
  bool interrupted = false; // stopped because the run was interrupted
};

// Once `interrupted` is set the group gets SIGTERM, and SIGKILL this much later: a helper and the
// compilers it started never outlive the run that asked for them.
inline constexpr std::chrono::seconds k_child_grace{5};

// Runs `argv` with stdout and stderr into `log`, and waits for it.
ExitStatus run_logged(const std::vector<std::string>& argv, const std::filesystem::path& log,
                      const std::atomic<bool>& interrupted);

// The helper's reason: the last non-blank line it printed, shortened to fit a skip reason.
std::string last_line(const std::string& text);

// The variable's value, or `fallback` where it is unset or empty.
std::string environment_or(const char* name, const std::string& fallback);

// The Python that runs the helpers: $LAYERBENCH_PYTHON, else the one the build was configured with.
std::string helper_python();

} // namespace layerbench::bench
