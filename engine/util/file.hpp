// SPDX-License-Identifier: MIT
#pragma once

#include "util/expected.hpp"

#include <cstddef>
#include <filesystem>
#include <string>

namespace layerbench::util {

enum class Overwrite { no, yes };

// Absolute, symlinks resolved as far as the path exists, and without a trailing separator, so that
// comparing names one by one tells whether one path holds another.
std::filesystem::path comparable_path(const std::filesystem::path& path);

// Whether `path` is strictly inside `folder`, both compared name by name (see comparable_path).
bool is_within(const std::filesystem::path& path, const std::filesystem::path& folder);

// The most read_file reads unless told otherwise: a real dataset is far smaller (docs/dataset.md).
inline constexpr size_t k_max_file_bytes = 64 * 1024 * 1024;

// Reads a regular file of at most max_bytes. The error is the bare reason ("cannot open: No such file
// or directory", "not a regular file (a FIFO)"); the caller adds the path.
Expected<std::string> read_file(const std::filesystem::path& path, size_t max_bytes = k_max_file_bytes);

// Writes to a temporary file beside `path`, flushes it to disk and renames it into place, so a reader
// (or a crash) never sees half a file. With Overwrite::no an existing file is an error, checked
// atomically by link(2) rather than by a racy exists() test. The error is the bare reason ("cannot
// write: No space left on device", "already exists; refusing to overwrite it"); the caller adds the path.
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
