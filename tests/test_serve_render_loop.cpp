// SPDX-License-Identifier: MIT
#include "serve/render_loop.hpp"

#include "test_serve_fixture.hpp"
#include "util/error.hpp"

#include <atomic>
#include <doctest/doctest.h>
#include <sstream>
#include <thread>

using layerbench::serve::EventHub;
using layerbench::serve::RenderLoop;
using layerbench::serve::RenderOutcome;
using namespace std::chrono_literals;

TEST_CASE("serve::RenderLoop")
{
  const layerbench::test::TempDir dir;
  layerbench::test::write_text(dir.path() / "templates" / "home.mustache", "ok");
  EventHub hub(4);
  std::ostringstream log;
  std::atomic<bool> broken{false};
  std::atomic<int> renders{0};
  auto render = [&] {
    ++renders;
    if (broken) {
      throw layerbench::Error("templates/home.mustache:3: unclosed section 'layers'");
    }
  };
  RenderLoop loop(hub, render, {dir.path() / "templates"}, 20ms, log);

  SUBCASE("a good render tells pages to reload")
  {
    CHECK(loop.render_now() == RenderOutcome::rendered);
    const auto event = hub.wait_after(0, 0ms);
    REQUIRE(event);
    CHECK(event->name == "reload");
    CHECK(log.str().find("rendered in") != std::string::npos);
  }
  SUBCASE("a failed render is printed and sent to pages, and the next good one recovers")
  {
    broken = true;
    CHECK(loop.render_now() == RenderOutcome::failed);
    CHECK(log.str().find("render failed: templates/home.mustache:3: unclosed section 'layers'") != std::string::npos);
    auto event = hub.wait_after(0, 0ms);
    REQUIRE(event);
    CHECK(event->name == "render-error");
    CHECK(event->data == "templates/home.mustache:3: unclosed section 'layers'");
    broken = false;
    CHECK(loop.render_now() == RenderOutcome::rendered);
    event = hub.wait_after(1, 0ms);
    REQUIRE(event);
    CHECK(event->name == "reload");
  }
  SUBCASE("saving a watched file renders again")
  {
    loop.start();
    layerbench::test::write_text(dir.path() / "templates" / "home.mustache", "changed");
    const auto event = hub.wait_after(0, 5s);
    loop.stop();
    REQUIRE(event);
    CHECK(event->name == "reload");
    CHECK(renders == 1);
  }
}
