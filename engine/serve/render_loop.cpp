// SPDX-License-Identifier: MIT
#include "serve/render_loop.hpp"

#include "util/format.hpp"

#include <algorithm>
#include <exception>
#include <optional>
#include <ostream>

namespace layerbench::serve {

namespace {

// Absolute, symlinks resolved as far as the path exists, and without a trailing separator, so that
// comparing names one by one tells whether one path holds another.
std::filesystem::path comparable(const std::filesystem::path& path)
{
  std::error_code error;
  auto result = std::filesystem::weakly_canonical(std::filesystem::absolute(path), error).lexically_normal();
  if (!result.has_filename() && result.has_relative_path()) {
    result = result.parent_path();
  }
  return result;
}

} // namespace

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

std::optional<std::string> unsafe_render_root(const std::filesystem::path& root,
                                              const std::vector<std::filesystem::path>& keep)
{
  const auto served = comparable(root);
  for (const auto& path : keep) {
    const auto kept = comparable(path);
    if (std::mismatch(served.begin(), served.end(), kept.begin(), kept.end()).first == served.end()) {
      return root.string() + " is or holds " + path.string() + ", which a render there would replace";
    }
  }
  return std::nullopt;
}

} // namespace layerbench::serve
