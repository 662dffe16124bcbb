// SPDX-License-Identifier: MIT
#pragma once

#include "serve/event_hub.hpp"
#include "serve/watcher.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::serve {

enum class RenderOutcome { rendered, failed };

// Re-renders the site when its sources change and tells open pages: "reload" after a good render,
// "render-error" with the message after a bad one. A failed render never stops the server; the next
// good save recovers. The render itself is a callback (site::render in the CLI), so this loop knows
// nothing of templates or datasets and tests can give it a fake.
class RenderLoop
{
public:
  RenderLoop(EventHub& events,
             std::function<void()> render,
             std::vector<std::filesystem::path> watched,
             std::chrono::milliseconds poll_interval,
             std::ostream& log);

  // Renders once, now, on the calling thread (the first render at start-up).
  RenderOutcome render_now();

  void start();
  void stop();

private:
  EventHub& m_events;
  const std::function<void()> m_render;
  std::ostream& m_log;
  Watcher m_watcher;
};

} // namespace layerbench::serve
