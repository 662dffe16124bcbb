// SPDX-License-Identifier: MIT
#pragma once

// Where `layerbench run` writes its dataset: chosen, checked before anything is measured, and held
// against a second run on the same file. Shared by one-process runs and runs in rounds.

#if LAYERBENCH_WITH_TORCH

#include "bench/runner.hpp"

#include <boost/program_options.hpp>
#include <filesystem>
#include <string>

namespace layerbench::cli {

// --out, or layerbench-<UTC time>.json in the current folder.
std::filesystem::path output_path(const boost::program_options::variables_map& values);

// Throws Error naming OUT when its folder is missing, so the lock beside it is not the first to fail.
void check_directory(const std::filesystem::path& out);

// Throws Error when OUT is a link, already exists, or its folder cannot be written: found now rather
// than after minutes of measuring.
void check_target(const std::filesystem::path& out);

// check_target, and with Resume::no an Error where an interrupted run left its checkpoint: fails
// before anything is measured if the result could not be written.
void check_output(const std::filesystem::path& out, bench::Resume resume);

// Held for the whole run, so that a second run on the same OUT is refused at once, before it measures
// anything or touches the checkpoint. Unlike util::FileLock it never waits: waiting would only measure
// on a busy machine. The kernel drops the lock when the process dies, so a crash leaves none behind.
class RunLock
{
public:
  explicit RunLock(const std::filesystem::path& out);
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;
  ~RunLock();

private:
  std::string m_path;
  int m_fd = -1;
};

} // namespace layerbench::cli

#endif
