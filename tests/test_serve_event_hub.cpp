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
  SUBCASE("a full hub wakes its listeners to check their pages, and admits into a slot freed meanwhile")
  {
    EventHub one(1);
    REQUIRE(one.admit() == EventHub::Admission::admitted);
    std::thread listener([&] {
      // A listener whose page has closed, waiting for an event that will not come: woken by the
      // admit below long before its timeout, it finds its page gone and leaves.
      one.wait_after(0, 60s);
      one.leave();
    });
    std::this_thread::sleep_for(50ms); // let the listener wait
    CHECK(one.admit(30s) == EventHub::Admission::admitted);
    listener.join();
    CHECK(one.admit() == EventHub::Admission::full); // the slot is the new page's
  }
}
