// SPDX-License-Identifier: MIT
#include "cli/run_output.hpp"

#if LAYERBENCH_WITH_TORCH

#include "bench/checkpoint.hpp"
#include "util/error.hpp"
#include "util/file.hpp"
#include "util/time.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace layerbench::cli {

namespace {

std::filesystem::path output_directory(const std::filesystem::path& out)
{
  return out.parent_path().empty() ? std::filesystem::path(".") : out.parent_path();
}

} // namespace

std::filesystem::path output_path(const boost::program_options::variables_map& values)
{
  if (values.count("out") && !values["out"].as<std::string>().empty()) {
    return values["out"].as<std::string>();
  }
  auto stamp = util::utc_now();
  stamp.erase(std::remove(stamp.begin(), stamp.end(), ':'), stamp.end());
  return "layerbench-" + stamp + ".json";
}

void check_directory(const std::filesystem::path& out)
{
  const auto directory = output_directory(out);
  if (!std::filesystem::is_directory(directory)) {
    throw Error(out.string() + ": cannot write: directory " + directory.string() + " does not exist");
  }
}

void check_target(const std::filesystem::path& out)
{
  // A link, dangling or not, would be found only when the dataset is written, after every cell.
  if (std::filesystem::is_symlink(out)) {
    throw Error(out.string() + ": is a symbolic link; a dataset is written as a new file, never through a link "
                "(choose another --out)");
  }
  if (std::filesystem::exists(out)) {
    throw Error(out.string() + ": already exists; a dataset is never overwritten (choose another --out)");
  }
  const auto probe_path = output_directory(out) / (".layerbench-write-test-" + std::to_string(::getpid()));
  const auto probe = util::write_file_atomic(probe_path, "", util::Overwrite::yes);
  if (!probe) {
    throw Error(out.string() + ": " + probe.error());
  }
  std::filesystem::remove(probe_path);
}

void check_output(const std::filesystem::path& out, bench::Resume resume)
{
  check_target(out);
  const auto checkpoint = bench::checkpoint_path(out);
  if (resume == bench::Resume::no && std::filesystem::exists(checkpoint)) {
    throw Error(checkpoint.string() + ": an interrupted run left its checkpoint here; continue it with --resume, "
                "or delete the file to start afresh");
  }
}

RunLock::RunLock(const std::filesystem::path& out) : m_path(out.string() + ".lock")
{
  m_fd = ::open(m_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (m_fd < 0) {
    throw Error(m_path + ": cannot create the run's lock file: " + std::strerror(errno));
  }
  if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(m_fd);
    throw Error(out.string() + ": another layerbench run is writing this output (it holds " + m_path
                + "); wait for it to finish, or choose another --out");
  }
}

RunLock::~RunLock()
{
  ::unlink(m_path.c_str());
  ::close(m_fd);
}

} // namespace layerbench::cli

#endif
