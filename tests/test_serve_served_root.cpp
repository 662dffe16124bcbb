// SPDX-License-Identifier: MIT
#include "serve/served_root.hpp"

#include "test_serve_fixture.hpp"

#include <doctest/doctest.h>

using layerbench::serve::broad_root;

TEST_CASE("serve::broad_root")
{
  const layerbench::test::TempDir scratch;
  const auto home = scratch.path() / "home" / "me";
  std::filesystem::create_directories(home / "project" / "site");
  const std::vector<std::filesystem::path> homes = {home};

  SUBCASE("the file system's root, however it is written")
  {
    for (const std::string root : {"/", "//", "/.", "/tmp/.."}) {
      CAPTURE(root);
      const auto reason = broad_root(root, homes);
      REQUIRE(reason.has_value());
      CHECK(reason->find("file system's root") != std::string::npos);
    }
  }
  SUBCASE("a home folder, or a folder that holds one, named the home folder")
  {
    for (const auto& root : {home, home / "", home / "project" / "..", scratch.path() / "home"}) {
      CAPTURE(root);
      CHECK(broad_root(root, homes) == "it is or holds the home folder " + home.string()
                                         + ", whose every readable file would be served");
    }
  }
  SUBCASE("a link to a home folder is that home folder")
  {
    std::filesystem::create_directory_symlink(home, scratch.path() / "link");
    CHECK(broad_root(scratch.path() / "link", homes).has_value());
  }
  SUBCASE("a site folder inside a home folder is served")
  {
    CHECK_FALSE(broad_root(home / "project" / "site", homes).has_value());
    CHECK_FALSE(broad_root(scratch.path() / "elsewhere", homes).has_value());
  }
  SUBCASE("a user whose home is / does not make every folder a home folder")
  {
    CHECK_FALSE(broad_root(home / "project" / "site", {"/"}).has_value());
  }
}
