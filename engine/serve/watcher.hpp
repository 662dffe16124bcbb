// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace layerbench::serve {

struct FileStamp
{
  std::filesystem::file_time_type modified;
  std::uintmax_t size = 0;

  bool operator==(const FileStamp& other) const { return modified == other.modified && size == other.size; }
  bool operator!=(const FileStamp& other) const { return !(*this == other); }
};

using Snapshot = std::map<std::filesystem::path, FileStamp>;

// Every regular file under the watched folders (recursively) and every watched file. A path that does
// not exist is simply absent, so creating it later shows up as a change. Hidden names and editor
// backups ("x~") are left out: saving through them ends in a rename that is seen anyway.
Snapshot take_snapshot(const std::vector<std::filesystem::path>& watched);

// Polls the watched paths and calls `on_change` once the files have stopped changing for one
// interval (the debounce), on its own thread. Polling needs no platform API and a few hundred files
// cost well under a millisecond to stat.
class Watcher
{
public:
  Watcher(std::vector<std::filesystem::path> watched,
          std::chrono::milliseconds interval,
          std::function<void()> on_change);
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;
  ~Watcher();

  void start();
  void stop();

private:
  void loop(Snapshot previous);
  bool sleep_one_interval(); // false once stopped

  const std::vector<std::filesystem::path> m_watched;
  const std::chrono::milliseconds m_interval;
  const std::function<void()> m_on_change;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stopping = false;
  std::thread m_thread;
};

} // namespace layerbench::serve
