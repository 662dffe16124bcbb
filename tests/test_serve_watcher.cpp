// SPDX-License-Identifier: MIT
#include "serve/watcher.hpp"

#include "test_serve_fixture.hpp"

#include <atomic>
#include <doctest/doctest.h>
#include <thread>

using layerbench::serve::take_snapshot;
using layerbench::serve::Watcher;
using layerbench::test::write_text;
using namespace std::chrono_literals;

namespace {

template<typename Predicate>
bool eventually(Predicate predicate, std::chrono::milliseconds limit = 5000ms)
{
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (predicate()) {
      return true;
    }
    std::this_thread::sleep_for(10ms);
  }
  return predicate();
}

} // namespace

TEST_CASE("serve::take_snapshot")
{
  const layerbench::test::TempDir dir;
  const auto templates = dir.path() / "templates";
  write_text(templates / "page.mustache", "a");
  write_text(templates / "partials" / "head.mustache", "b");
  write_text(templates / ".page.mustache.swp", "editor state");
  write_text(templates / "page.mustache~", "backup");
  write_text(dir.path() / "run.json", "{}");

  SUBCASE("files in folders, recursively, and single files")
  {
    const auto snapshot = take_snapshot({templates, dir.path() / "run.json"});
    CHECK(snapshot.size() == 3);
    CHECK(snapshot.count(templates / "partials" / "head.mustache") == 1);
    CHECK(snapshot.count(dir.path() / "run.json") == 1);
  }
  SUBCASE("hidden files and editor backups are left out")
  {
    const auto snapshot = take_snapshot({templates});
    CHECK(snapshot.count(templates / ".page.mustache.swp") == 0);
    CHECK(snapshot.count(templates / "page.mustache~") == 0);
  }
  SUBCASE("a missing path is simply absent")
  {
    CHECK(take_snapshot({dir.path() / "nothing"}).empty());
  }
  SUBCASE("a change in size is a change")
  {
    const auto before = take_snapshot({templates});
    write_text(templates / "page.mustache", "longer");
    CHECK(take_snapshot({templates}) != before);
  }
}

TEST_CASE("serve::Watcher")
{
  const layerbench::test::TempDir dir;
  write_text(dir.path() / "page.mustache", "a");
  std::atomic<int> changes{0};
  Watcher watcher({dir.path()}, 20ms, [&] { ++changes; });
  watcher.start();

  SUBCASE("nothing changed, nothing called")
  {
    std::this_thread::sleep_for(150ms);
    CHECK(changes == 0);
  }
  SUBCASE("a burst of saves is one call, after the files settle")
  {
    for (int i = 0; i < 3; ++i) {
      write_text(dir.path() / "page.mustache", std::string(static_cast<size_t>(i + 2), 'x'));
    }
    CHECK(eventually([&] { return changes >= 1; }));
    std::this_thread::sleep_for(150ms);
    CHECK(changes == 1);
  }
  SUBCASE("a new file and a removed file are changes")
  {
    write_text(dir.path() / "new.mustache", "n");
    CHECK(eventually([&] { return changes == 1; }));
    std::filesystem::remove(dir.path() / "new.mustache");
    CHECK(eventually([&] { return changes == 2; }));
  }
  watcher.stop();
}
