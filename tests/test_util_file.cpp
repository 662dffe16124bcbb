// SPDX-License-Identifier: MIT
#include "util/file.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using layerbench::util::read_file;

namespace {

fs::path scratch()
{
  const fs::path path = fs::temp_directory_path() / ("layerbench-test-util-file-" + std::to_string(::getpid()));
  fs::remove_all(path);
  fs::create_directories(path);
  return path;
}

} // namespace

TEST_CASE("util::read_file")
{
  const fs::path folder = scratch();
  const fs::path file = folder / "a.txt";
  REQUIRE(layerbench::util::write_file_atomic(file, "hello", layerbench::util::Overwrite::yes));
  SUBCASE("a regular file within the limit")
  {
    const auto text = read_file(file);
    REQUIRE(text);
    CHECK(*text == "hello");
  }
  SUBCASE("the error is the bare reason, without the path")
  {
    const auto text = read_file(folder / "missing.json");
    REQUIRE_FALSE(text);
    CHECK(text.error().rfind("cannot open: ", 0) == 0);
    CHECK(text.error().find("missing.json") == std::string::npos);
  }
  SUBCASE("a file over the limit is refused")
  {
    const auto text = read_file(file, 4);
    REQUIRE_FALSE(text);
    CHECK(text.error().find("limit of 4 bytes") != std::string::npos);
  }
  SUBCASE("a directory, a FIFO and a device are not regular files")
  {
    CHECK(read_file(folder).error() == "not a regular file (a directory)");
    REQUIRE(::mkfifo((folder / "fifo").c_str(), 0600) == 0);
    CHECK(read_file(folder / "fifo").error() == "not a regular file (a FIFO)"); // returns, never hangs
    CHECK(read_file("/dev/zero").error() == "not a regular file (a device)");
  }
  fs::remove_all(folder);
}

TEST_CASE("util::write_file_atomic")
{
  const fs::path folder = scratch();
  const fs::path file = folder / "a.txt";
  REQUIRE(layerbench::util::write_file_atomic(file, "hello", layerbench::util::Overwrite::yes));
  SUBCASE("the file holds the content; Overwrite::yes replaces it")
  {
    REQUIRE(layerbench::util::write_file_atomic(file, "again", layerbench::util::Overwrite::yes));
    CHECK(*read_file(file) == "again");
  }
  SUBCASE("the errors are the bare reason, without the path: the caller names it once")
  {
    const auto kept = layerbench::util::write_file_atomic(file, "other", layerbench::util::Overwrite::no);
    REQUIRE_FALSE(kept);
    CHECK(kept.error() == "already exists; refusing to overwrite it");
    CHECK(*read_file(file) == "hello");
    const auto nowhere = layerbench::util::write_file_atomic(folder / "no" / "such" / "b.txt", "x",
                                                            layerbench::util::Overwrite::yes);
    REQUIRE_FALSE(nowhere);
    CHECK(nowhere.error() == "cannot write: No such file or directory");
  }
  fs::remove_all(folder);
}
