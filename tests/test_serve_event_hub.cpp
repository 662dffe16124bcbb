// SPDX-License-Identifier: MIT
#include "serve/event_hub.hpp"

#include <doctest/doctest.h>
#include <thread>

using layerbench::serve::EventHub;
using namespace std::chrono_literals;

TEST_CASE("serve::EventHub")
{
  EventHub hub(2);

  SUBCASE("ids grow with every event and only the latest is kept")
  {
    CHECK(hub.latest_id() == 0);
    hub.publish("reload", "rendered");
    hub.publish("render-error", "templates/home.mustache: unclosed section");
    CHECK(hub.latest_id() == 2);
    const auto event = hub.wait_after(0, 0ms);
    REQUIRE(event);
    CHECK(event->id == 2);
    CHECK(event->name == "render-error");
    CHECK(event->data == "templates/home.mustache: unclosed section");
  }
  SUBCASE("a listener that has seen the latest event waits for the next")
  {
    hub.publish("reload", "rendered");
    CHECK_FALSE(hub.wait_after(1, 10ms));
    std::thread publisher([&] {
      std::this_thread::sleep_for(20ms);
      hub.publish("reload", "rendered");
    });
    const auto event = hub.wait_after(1, 10s);
    publisher.join();
    REQUIRE(event);
    CHECK(event->id == 2);
  }
  SUBCASE("closing wakes a waiting listener with nothing")
  {
    std::thread closer([&] {
      std::this_thread::sleep_for(20ms);
      hub.close();
    });
    CHECK_FALSE(hub.wait_after(0, 10s));
    closer.join();
    CHECK(hub.is_closed());
  }
  SUBCASE("listeners are admitted up to the bound, and again after one leaves")
  {
    CHECK(hub.admit() == EventHub::Admission::admitted);
    CHECK(hub.admit() == EventHub::Admission::admitted);
    CHECK(hub.admit() == EventHub::Admission::full);
    hub.leave();
    CHECK(hub.admit() == EventHub::Admission::admitted);
  }
}
