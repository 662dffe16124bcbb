#include "bench/checkpoint.hpp"

#include "dataset/io.hpp"
#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

using namespace layerbench;
namespace fs = std::filesystem;

TEST_CASE("bench::checkpoint_path")
{
  CHECK(bench::checkpoint_path("out/run.json") == fs::path("out/run.json.partial"));
}

TEST_CASE("bench::Checkpoint")
{
  test::TempFolder folder;
  bench::Checkpoint checkpoint(folder.path() / "run.json.partial");
  auto fresh = test::measured();
  const auto cells = fresh.results;
  fresh.results.clear();
  fresh.created = "2026-11-23T00:00:00Z";

  SUBCASE("a saved checkpoint resumes into a fresh run: its cells and its start time")
  {
    auto partial = fresh;
    partial.created = "2026-11-22T04:05:07Z";
    partial.results = {cells[0], cells[1]};
    checkpoint.save(partial);
    bench::Checkpoint again(checkpoint.path());
    again.resume_into(fresh);
    REQUIRE(fresh.results.size() == 2);
    CHECK(fresh.results[1].batch_size == cells[1].batch_size);
    CHECK(fresh.created == "2026-11-22T04:05:07Z");
  }
  SUBCASE("no checkpoint to resume from, naming it")
  {
    CHECK(test::error_of([&] { checkpoint.resume_into(fresh); })
          == checkpoint.path().string() + ": no checkpoint to resume from");
  }
  SUBCASE("a checkpoint of another device is refused, saying what differs")
  {
    auto other = fresh;
    other.environment->device.name = "Other CPU";
    checkpoint.save(other);
    CHECK(test::error_of([&] { checkpoint.resume_into(fresh); })
          == checkpoint.path().string()
               + ": cannot resume: device differs (checkpoint: Other CPU, now: Test CPU)");
  }
  SUBCASE("a failed save says how many cells the file still keeps and how many are lost")
  {
    auto partial = fresh;
    partial.results = {cells[0]};
    checkpoint.save(partial);
    fs::remove(checkpoint.path());
    fs::create_directories(checkpoint.path()); // every save fails, as on a full or read-only disk
    partial.results.push_back(cells[1]);
    partial.results.push_back(cells[2]);
    const auto message = test::error_of([&] { checkpoint.save(partial); });
    CHECK(message.find("the checkpoint keeps 1 finished cells (the 2 measured since are lost); free space") != std::string::npos);
    CHECK(message.find("--resume") != std::string::npos);
  }
}
