// SPDX-License-Identifier: MIT
#include "serve/live_reload.hpp"

#include <doctest/doctest.h>

using layerbench::serve::Event;
using layerbench::serve::format_event;
using layerbench::serve::inject_reload_script;

TEST_CASE("serve::inject_reload_script")
{
  SUBCASE("the script goes just before the last closing body tag, whatever its case")
  {
    const std::string page = inject_reload_script("<html><body><p>x</p></BODY></html>", 7);
    const size_t script = page.find("<script id=\"layerbench-live-reload\">");
    REQUIRE(script != std::string::npos);
    CHECK(page.find("</BODY></html>") > script);
    CHECK(page.rfind("<html><body><p>x</p>", 0) == 0);
  }
  SUBCASE("the page's event id and the events path are in the script")
  {
    const std::string page = inject_reload_script("<body></body>", 42);
    CHECK(page.find("var since = 42;") != std::string::npos);
    CHECK(page.find("/__layerbench/events?since=") != std::string::npos);
  }
  SUBCASE("a page without a body tag gets the script at its end")
  {
    const std::string page = inject_reload_script("<p>fragment</p>", 1);
    CHECK(page.rfind("<p>fragment</p><script", 0) == 0);
  }
}

TEST_CASE("serve::format_event")
{
  SUBCASE("one line of data")
  {
    CHECK(format_event(Event{3, "reload", "rendered"}) == "id: 3\nevent: reload\ndata: rendered\n\n");
  }
  SUBCASE("a multi-line message becomes several data lines, without carriage returns")
  {
    CHECK(format_event(Event{4, "render-error", "line one\r\nline two"})
          == "id: 4\nevent: render-error\ndata: line one\ndata: line two\n\n");
  }
}
