// SPDX-License-Identifier: MIT
#include "util/file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace layerbench::util {

fs::path comparable_path(const fs::path& path)
{
  std::error_code error;
  auto result = fs::weakly_canonical(fs::absolute(path), error).lexically_normal();
  if (!result.has_filename() && result.has_relative_path()) {
    result = result.parent_path();
  }
  return result;
}

bool is_within(const fs::path& path, const fs::path& folder)
{
  const auto inside = path.lexically_relative(folder);
  return !inside.empty() && *inside.begin() != "..";
}

namespace {

std::string errno_text() { return std::strerror(errno); }

std::filesystem::path temporary_beside(const std::filesystem::path& path)
{
  std::random_device device;
  auto name = "." + path.filename().string() + ".tmp." + std::to_string(::getpid()) + "."
              + std::to_string(device());
  return path.parent_path() / name;
}

} // namespace

namespace {

std::string kind_of(mode_t mode)
{
  if (S_ISDIR(mode)) {
    return "a directory";
  }
  if (S_ISFIFO(mode)) {
    return "a FIFO";
  }
  if (S_ISCHR(mode) || S_ISBLK(mode)) {
    return "a device";
  }
  if (S_ISSOCK(mode)) {
    return "a socket";
  }
  return "not a regular file";
}

} // namespace

Expected<std::string> read_file(const std::filesystem::path& path, size_t max_bytes)
{
  using Result = Expected<std::string>;
  // O_NONBLOCK so that opening a FIFO with no writer returns at once instead of hanging.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return Result::failure("cannot open: " + errno_text());
  }
  struct stat status = {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    const auto reason = S_ISREG(status.st_mode) ? "cannot stat: " + errno_text()
                                                : "not a regular file (" + kind_of(status.st_mode) + ")";
    ::close(fd);
    return Result::failure(reason);
  }
  if (static_cast<uint64_t>(status.st_size) > max_bytes) {
    ::close(fd);
    return Result::failure("larger than the limit of " + std::to_string(max_bytes) + " bytes");
  }
  std::string content;
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      const auto reason = "read failed: " + errno_text();
      ::close(fd);
      return Result::failure(reason);
    }
    if (got == 0) {
      break;
    }
    content.append(buffer, static_cast<size_t>(got));
    if (content.size() > max_bytes) { // the file grew while being read
      ::close(fd);
      return Result::failure("larger than the limit of " + std::to_string(max_bytes) + " bytes");
    }
  }
  ::close(fd);
  return content;
}

Expected<bool> write_file_atomic(const std::filesystem::path& path,
                                 const std::string& content,
                                 Overwrite overwrite)
{
  auto fail = [](const std::string& what) { return Expected<bool>::failure(what); };
  const auto temporary = temporary_beside(path);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    return fail("cannot write: " + errno_text());
  }
  const char* data = content.data();
  size_t left = content.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      const auto why = errno_text();
      ::close(fd);
      ::unlink(temporary.c_str());
      return fail("cannot write: " + why);
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const auto why = errno_text();
    ::unlink(temporary.c_str());
    return fail("cannot write: " + why);
  }
  if (overwrite == Overwrite::no) {
    // link() fails if the target exists, so two writers cannot both win.
    const int linked = ::link(temporary.c_str(), path.c_str());
    const auto why = errno;
    ::unlink(temporary.c_str());
    if (linked != 0) {
      return fail(why == EEXIST ? "already exists; refusing to overwrite it"
                                : std::string("cannot write: ") + std::strerror(why));
    }
    return true;
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const auto why = errno_text();
    ::unlink(temporary.c_str());
    return fail("cannot write: " + why);
  }
  return true;
}

Expected<FileLock> FileLock::acquire(const std::filesystem::path& path)
{
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return Expected<FileLock>::failure("cannot open: " + errno_text());
  }
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      const auto reason = "cannot lock: " + errno_text();
      ::close(fd);
      return Expected<FileLock>::failure(reason);
    }
  }
  return FileLock(fd);
}

FileLock::FileLock(FileLock&& other) noexcept : m_fd(other.m_fd) { other.m_fd = -1; }

FileLock::~FileLock()
{
  if (m_fd >= 0) {
    ::close(m_fd); // releases the lock
  }
}

} // namespace layerbench::util
