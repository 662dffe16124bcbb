// SPDX-License-Identifier: MIT
#include "serve/render_loop.hpp"

#include "util/format.hpp"

#include <exception>
#include <optional>
#include <ostream>

namespace layerbench::serve {

RenderLoop::RenderLoop(EventHub& events,
                       std::function<void()> render,
                       std::vector<std::filesystem::path> watched,
                       std::chrono::milliseconds poll_interval,
                       std::ostream& log)
  : m_events(events),
    m_render(std::move(render)),
    m_log(log),
    m_watcher(std::move(watched), poll_interval, [this] { render_now(); })
{
}

RenderOutcome RenderLoop::render_now()
{
  const auto start = std::chrono::steady_clock::now();
  std::optional<std::string> failure;
  try {
    m_render();
  } catch (const std::exception& error) {
    // layerbench::Error and anything else a render throws (a template engine's own exception) alike.
    failure = error.what();
  }
  if (failure) {
    m_log << "layerbench serve: render failed: " << *failure << "\n"
          << "layerbench serve: still serving the last good pages; fix it and save to recover" << std::endl;
    m_events.publish("render-error", *failure);
    return RenderOutcome::failed;
  }
  const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
  m_log << "layerbench serve: rendered in " << util::format_fixed(took.count(), 0) << " ms, reloading open pages"
        << std::endl;
  m_events.publish("reload", "rendered");
  return RenderOutcome::rendered;
}

void RenderLoop::start() { m_watcher.start(); }

void RenderLoop::stop() { m_watcher.stop(); }

} // namespace layerbench::serve
