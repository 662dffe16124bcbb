// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace layerbench::serve {

struct Event
{
  std::uint64_t id = 0; // increases with every event; 0 means "none yet"
  std::string name;     // "reload" or "render-error"
  std::string data;
};

// Hands the latest live-reload event to every open page. Only the latest matters: a page that missed
// a reload followed by an error only needs to show the error, so nothing is queued.
class EventHub
{
public:
  enum class Admission { admitted, full };

  explicit EventHub(std::size_t max_listeners) : m_max_listeners(max_listeners) {}

  void publish(const std::string& name, const std::string& data);

  // The latest event when it is newer than `after`, as soon as there is one; nullopt when the timeout
  // passes first, the hub is closed, or admit() found every slot taken and asks each listener to
  // check that its page is still open.
  std::optional<Event> wait_after(std::uint64_t after, std::chrono::milliseconds timeout);

  std::uint64_t latest_id() const;

  // Every open page holds one server thread, so their number is bounded. When every slot is taken,
  // the waiting listeners are woken to check their pages, and a slot freed within `patience` is
  // given: a page that reconnects just after closing is not refused for a slot its old stream holds.
  Admission admit(std::chrono::milliseconds patience = std::chrono::milliseconds(0));
  void leave();

  // Wakes every waiting listener for good; called on shutdown.
  void close();
  bool is_closed() const;

private:
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  Event m_latest;
  std::size_t m_listeners = 0;
  std::uint64_t m_checks = 0; // how many times admit() asked the listeners to check their pages
  const std::size_t m_max_listeners;
  bool m_closed = false;
};

} // namespace layerbench::serve
