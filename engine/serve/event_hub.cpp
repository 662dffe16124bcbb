// SPDX-License-Identifier: MIT
#include "serve/event_hub.hpp"

namespace layerbench::serve {

void EventHub::publish(const std::string& name, const std::string& data)
{
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_latest = Event{m_latest.id + 1, name, data};
  }
  m_changed.notify_all();
}

std::optional<Event> EventHub::wait_after(std::uint64_t after, std::chrono::milliseconds timeout)
{
  std::unique_lock<std::mutex> lock(m_mutex);
  const std::uint64_t checks = m_checks;
  m_changed.wait_for(lock, timeout, [&] { return m_closed || m_latest.id > after || m_checks != checks; });
  if (m_closed || m_latest.id <= after) {
    return std::nullopt;
  }
  return m_latest;
}

std::uint64_t EventHub::latest_id() const
{
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_latest.id;
}

EventHub::Admission EventHub::admit(std::chrono::milliseconds patience)
{
  std::unique_lock<std::mutex> lock(m_mutex);
  if (m_listeners >= m_max_listeners) {
    ++m_checks;
    m_changed.notify_all();
    m_changed.wait_for(lock, patience, [&] { return m_closed || m_listeners < m_max_listeners; });
  }
  if (m_listeners >= m_max_listeners) {
    return Admission::full;
  }
  ++m_listeners;
  return Admission::admitted;
}

void EventHub::leave()
{
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    --m_listeners;
  }
  m_changed.notify_all(); // an admit() may be waiting for this slot
}

void EventHub::close()
{
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_closed = true;
  }
  m_changed.notify_all();
}

bool EventHub::is_closed() const
{
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_closed;
}

} // namespace layerbench::serve
