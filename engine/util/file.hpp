// SPDX-License-Identifier: MIT
#pragma once

#include "util/expected.hpp"

#include <filesystem>
#include <string>

namespace layerbench::util {

enum class Overwrite { no, yes };

Expected<std::string> read_file(const std::filesystem::path& path);

// Writes to a temporary file beside `path`, flushes it to disk and renames it into place, so a reader
// (or a crash) never sees half a file. With Overwrite::no an existing file is an error, checked
// atomically by link(2) rather than by a racy exists() test.
Expected<bool> write_file_atomic(const std::filesystem::path& path,
                                 const std::string& content,
                                 Overwrite overwrite);

// An exclusive flock(2) on `path` (created if missing), held until destruction. It serialises
// read-modify-write of a shared file between processes and between threads, since each lock opens
// its own file description.
class FileLock
{
public:
  static Expected<FileLock> acquire(const std::filesystem::path& path);
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&&) = delete;
  FileLock(const FileLock&) = delete;
  ~FileLock();

private:
  explicit FileLock(int fd) : m_fd(fd) {}
  int m_fd;
};

} // namespace layerbench::util
