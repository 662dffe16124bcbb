// SPDX-License-Identifier: MIT
#include "serve/watcher.hpp"

#include <system_error>

namespace fs = std::filesystem;

namespace layerbench::serve {

namespace {

bool is_ignored(const fs::path& path)
{
  const std::string name = path.filename().string();
  return name.empty() || name.front() == '.' || name.back() == '~';
}

void add_file(Snapshot& snapshot, const fs::path& path)
{
  std::error_code error;
  const auto modified = fs::last_write_time(path, error);
  if (error) {
    return; // gone between listing and stat: the next poll sees the final state
  }
  const auto size = fs::file_size(path, error);
  if (error) {
    return;
  }
  snapshot[path] = FileStamp{modified, size};
}

void add_folder(Snapshot& snapshot, const fs::path& folder)
{
  std::error_code error;
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, error);
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (is_ignored(it->path())) {
      if (it->is_directory(error)) {
        it.disable_recursion_pending();
      }
      continue;
    }
    if (it->is_regular_file(error)) {
      add_file(snapshot, it->path());
    }
  }
}

} // namespace

Snapshot take_snapshot(const std::vector<fs::path>& watched)
{
  Snapshot snapshot;
  for (const auto& path : watched) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
      add_folder(snapshot, path);
    } else if (fs::is_regular_file(path, error)) {
      add_file(snapshot, path);
    }
  }
  return snapshot;
}

Watcher::Watcher(std::vector<fs::path> watched, std::chrono::milliseconds interval, std::function<void()> on_change)
  : m_watched(std::move(watched)), m_interval(interval), m_on_change(std::move(on_change))
{
}

Watcher::~Watcher() { stop(); }

void Watcher::start()
{
  // The first snapshot is taken here, not on the thread, so that a change made right after start()
  // returns is always seen as a change.
  m_thread = std::thread([this, first = take_snapshot(m_watched)]() mutable { loop(std::move(first)); });
}

void Watcher::stop()
{
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_all();
  if (m_thread.joinable()) {
    m_thread.join();
  }
}

bool Watcher::sleep_one_interval()
{
  std::unique_lock<std::mutex> lock(m_mutex);
  return !m_wake.wait_for(lock, m_interval, [this] { return m_stopping; });
}

void Watcher::loop(Snapshot previous)
{
  bool pending = false;
  while (sleep_one_interval()) {
    Snapshot current = take_snapshot(m_watched);
    if (current != previous) {
      previous = std::move(current);
      pending = true; // still changing: wait for a quiet interval
      continue;
    }
    if (pending) {
      pending = false;
      m_on_change();
    }
  }
}

} // namespace layerbench::serve
