#include "bench/python_worker.hpp"

#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <sys/stat.h>

using namespace layerbench;
using namespace layerbench::bench;

namespace {

WorkerRequest request()
{
  WorkerRequest r;
  r.model = "BertTiny";
  r.batch_size = 2;
  r.axes.set(dataset::k_mode, dataset::GradMode::train);
  r.axes.set(dataset::k_compiled, dataset::Compiled::torch_compile);
  r.threads = 2;
  return r;
}

std::string cell_json(int batch_size)
{
  return R"({"layer": "BertTiny", "batch_size": )" + std::to_string(batch_size)
         + R"(, "axes": {"precision": "fp32", "memory_format": "contiguous", "cudnn_benchmark": "off",
            "mode": "train", "compiled": "torch_compile"}, "status": "ok",
            "stats": {"median_ms": 12.5, "p25_ms": 12.0, "p75_ms": 13.0, "samples": 5},
            "throughput_samples_per_s": 160.0,
            "runtime": {"python": "3.11.7", "torch": "2.11.0", "compile_seconds": 30.5}})";
}

// A stand-in for the Python worker: LAYERBENCH_PYTHON runs it with the script and the worker's arguments,
// and it copies `answer` to the file after --out (the last argument), then exits with `code`.
class FakePython
{
public:
  FakePython(const std::string& answer, int code, const std::string& message = "")
  {
    const auto cell = m_folder.path() / "answer.json";
    test::write_text(cell, answer);
    const auto script = m_folder.path() / "python";
    test::write_text(script, "#!/bin/sh\nfor last; do :; done\ncp '" + cell.string() + "' \"$last\"\necho '" + message
                                 + "'\nexit " + std::to_string(code) + "\n");
    ::chmod(script.c_str(), 0755);
    ::setenv("LAYERBENCH_PYTHON", script.c_str(), 1);
  }
  FakePython(const FakePython&) = delete;
  FakePython& operator=(const FakePython&) = delete;
  ~FakePython() { ::unsetenv("LAYERBENCH_PYTHON"); }

private:
  test::TempFolder m_folder;
};

} // namespace

TEST_CASE("bench::worker_command")
{
  const auto command = worker_command("python3", "compiled_train.py", request(), "/tmp/cell.json");
  const std::string text = [&] {
    std::string all;
    for (const auto& argument : command) {
      all += argument + " ";
    }
    return all;
  }();
  CHECK(text.find("python3 compiled_train.py --model BertTiny --batch-size 2 --mode train --precision fp32 "
                  "--device cpu --threads 2 ")
        == 0);
  CHECK(text.find("--min-samples 5 ") != std::string::npos);
  CHECK(command.back() == "/tmp/cell.json");
}

TEST_CASE("bench::measure_in_worker")
{
  const std::atomic<bool> interrupted{false};
  SUBCASE("the worker's cell comes back with its runtime")
  {
    FakePython python(cell_json(2), 0);
    const auto cell = measure_in_worker(request(), interrupted);
    REQUIRE(cell);
    REQUIRE(cell->status == dataset::CellStatus::ok);
    CHECK(cell->stats->median_ms == 12.5);
    REQUIRE(cell->runtime);
    CHECK(cell->runtime->compile_seconds == 30.5);
  }
  SUBCASE("a cell other than the one asked for is a skipped cell saying so")
  {
    FakePython python(cell_json(4), 0);
    const auto cell = measure_in_worker(request(), interrupted);
    REQUIRE(cell);
    CHECK(cell->status == dataset::CellStatus::skipped);
    CHECK(cell->skip_reason.find("BertTiny@4") != std::string::npos);
    CHECK(cell->skip_reason.find("not the one asked for") != std::string::npos);
  }
  SUBCASE("a worker that fails is a skipped cell with its exit status and last line")
  {
    FakePython python("{}", 3, "RuntimeError: no compiler");
    const auto cell = measure_in_worker(request(), interrupted);
    REQUIRE(cell);
    CHECK(cell->status == dataset::CellStatus::skipped);
    CHECK(cell->skip_reason == "torch.compile worker: exit 3: RuntimeError: no compiler");
  }
  SUBCASE("output that is not a cell is a skipped cell naming the problem")
  {
    FakePython python(R"({"layer": "BertTiny"})", 0);
    const auto cell = measure_in_worker(request(), interrupted);
    REQUIRE(cell);
    CHECK(cell->status == dataset::CellStatus::skipped);
    CHECK(cell->skip_reason.find("batch_size") != std::string::npos);
  }
}
