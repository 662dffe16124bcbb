#include "bench/checkpoint.hpp"

#include "dataset/io.hpp"
#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>
#include <functional>
#include <utility>
#include <vector>

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
               + ": --resume: the checkpoint ran with environment/device/name=\"Other CPU\", this run asks "
                 "environment/device/name=\"Test CPU\"; continue with the options and build that started it, or delete "
                 "the checkpoint to start afresh");
  }
  SUBCASE("everything merge compares is compared, each named with both values, not the whole methodology")
  {
    // Issue 36: a resume with --threads 2 of a run started with --threads 1, or from another commit,
    // was accepted, and a methodology that differed was printed whole (6.6 KB).
    const std::vector<std::pair<std::function<void(dataset::Dataset&)>, std::string>> cases = {
      {[](dataset::Dataset& d) { d.environment->threads = 1; }, "environment/threads=1, this run asks environment/threads=2"},
      {[](dataset::Dataset& d) { d.provenance.git_commit = "0123abc"; },
       "provenance/git_commit=\"0123abc\", this run asks provenance/git_commit=\"unknown\""},
      {[](dataset::Dataset& d) { d.environment->torch_version = "2.10.0"; },
       "environment/torch_version=\"2.10.0\", this run asks environment/torch_version=\"2.11.0\""},
      {[](dataset::Dataset& d) { d.methodology->noise_target = 0.5; },
       "methodology/noise_target=0.5, this run asks methodology/noise_target=0.0"},
      {[](dataset::Dataset& d) { d.methodology->shard = "1/2"; }, "methodology/shard=\"1/2\", this run asks methodology/shard=absent"},
      {[](dataset::Dataset& d) { d.layers[0].config = "Linear(1,1)"; }, "layers/0/config=\"Linear(1,1)\""},
    };
    for (const auto& [change, expected] : cases) {
      CAPTURE(expected);
      auto saved = fresh;
      change(saved);
      const auto message = test::error_of([&] { bench::check_resumable(saved, fresh, "run.json.partial"); });
      CHECK(message.find("run.json.partial: --resume: the checkpoint ran with " + expected) == 0);
      CHECK(message.size() < 400);
    }
  }
  SUBCASE("what each part of a run records for itself may differ")
  {
    auto saved = fresh;
    saved.created = "2026-11-22T04:05:07Z";
    saved.provenance.command_line = "layerbench run --out run.json";
    saved.environment->load_average_start = 0.5;
    saved.environment->other_cores_busy = 0.1;
    saved.results = {cells[0]};
    CHECK_NOTHROW(bench::check_resumable(saved, fresh, "run.json.partial"));
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
