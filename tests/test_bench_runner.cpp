#include "bench/runner.hpp"

#include "bench/cpu_backend.hpp"
#include "dataset/io.hpp"
#include "dataset/memory_check.hpp"
#include "dataset/validate.hpp"
#include "test_shell.hpp"
#include "util/error.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace layerbench;
namespace fs = std::filesystem;

namespace {

using test::TempDir;

bench::RunOptions small_run(const fs::path& out)
{
  bench::RunOptions options;
  options.layers = {"Conv2d", "LayerNorm", "Dropout"};
  options.batch_sizes = {1};
  options.settings = bench::default_settings(bench::DeviceKind::cpu);
  // Short, so the test is quick; the values are checked for sanity, never for speed.
  options.settings.warmup_seconds = 0.01;
  options.settings.block_target_seconds = 0.002;
  options.settings.stopping = {0.05, 3, 20, 0.3};
  options.out = out;
  options.command_line = "layerbench run --test";
  options.peaks = bench::PeakMeasurement::skip; // bench::measure_peaks has its own test
  return options;
}

// Another process spinning on one core for as long as it lives; killed even when the test fails.
struct BusyProcess
{
  pid_t pid = ::fork();
  BusyProcess()
  {
    REQUIRE(pid >= 0);
    if (pid == 0) {
      for (volatile unsigned long spin = 0;; spin = spin + 1) {
      }
    }
  }
  ~BusyProcess()
  {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  }
};

// std::cerr into `to` until destruction.
struct CerrTo
{
  explicit CerrTo(std::ostream& to) : saved(std::cerr.rdbuf(to.rdbuf())) {}
  ~CerrTo() { std::cerr.rdbuf(saved); }
  std::streambuf* saved;
};

} // namespace

TEST_CASE("bench::run_matrix")
{
  TempDir dir("runner-matrix");
  auto backend = bench::make_cpu_backend();
  std::atomic<bool> interrupted{false};

  SUBCASE("a real CPU run of a subset fills every field with sane values")
  {
    const auto options = small_run(dir.path / "run.json");
    const auto result = bench::run_matrix(options, *backend, interrupted);
    CHECK(result.kind == dataset::Kind::measured);
    CHECK(result.license.id == "CC-BY-4.0");
    CHECK(!result.created.empty());
    CHECK(result.provenance.command_line == "layerbench run --test");
    CHECK(!result.provenance.git_commit.empty());

    REQUIRE(result.environment);
    const auto& env = *result.environment;
    CHECK(env.device.type == "cpu");
    CHECK(!env.device.name.empty());
    CHECK(env.torch_version == "2.11.0");
    CHECK(env.torch_git_hash.size() == 40);
    CHECK(env.threads >= 1);
    CHECK(env.logical_cores >= 1);
    CHECK(!env.blas.empty());
    CHECK(!env.compiler.empty());

    REQUIRE(result.methodology);
    CHECK(result.methodology->timer == "steady-clock");
    CHECK(result.methodology->layers == options.layers);
    CHECK(result.methodology->noise_metric == "iqr_over_median");
    CHECK(result.methodology->cpu_memory_policy == "steady-state");
    CHECK(result.methodology->precision.find("matmul ieee") != std::string::npos);
    CHECK(result.methodology->canary.find("32 MiB") != std::string::npos);
    CHECK(!result.methodology->dispatch.empty());
    CHECK(env.glibc_tunables.has_value());
    CHECK(*env.load_average_start >= 0);
    CHECK(*env.load_average_end >= 0);
    CHECK(!env.peaks); // skipped, as --no-peaks does

    REQUIRE(result.layers.size() == 3);
    for (const auto& layer : result.layers) {
      CAPTURE(layer.name);
      CHECK(layer.params_counted == layer.params);
      CHECK(!layer.speed_class.empty());
    }
    CHECK(result.layers[2].mode == dataset::LayerMode::train);

    REQUIRE(result.results.size() == 3);
    for (const auto& cell : result.results) {
      CAPTURE(cell.layer);
      REQUIRE(cell.status == dataset::CellStatus::ok);
      REQUIRE(cell.stats);
      const auto& s = *cell.stats;
      CHECK(s.median_ms > 0);
      CHECK(*s.min_ms <= *s.p25_ms);
      CHECK(*s.p25_ms <= s.median_ms);
      CHECK(s.median_ms <= *s.p75_ms);
      CHECK(*s.samples >= 3);
      CHECK(*s.iterations_per_sample >= 1);
      CHECK(*s.noise >= 0);
      CHECK(s.noise_target_met.has_value());
      CHECK(*cell.first_call_ms > 0);
      CHECK(*cell.host_wall_median_ms > 0);
      CHECK(*cell.throughput_samples_per_s == doctest::Approx(1000.0 / s.median_ms));
      CHECK(*cell.cell_seconds > 0);
      CHECK(*cell.page_faults_per_iteration >= 0);
      REQUIRE(cell.canary);
      CHECK(cell.canary->matmul_ms > 0);
      CHECK(cell.canary->copy_ms > 0);
      REQUIRE(!cell.operators.empty());
    }
    // Each cell names the operators of its layer, as Python's profiler would.
    const auto has = [](const dataset::Cell& cell, const std::string& name) {
      return std::any_of(cell.operators.begin(), cell.operators.end(), [&](const auto& op) { return op.name == name; });
    };
    CHECK(has(result.results[0], "aten::conv2d"));
    CHECK(has(result.results[1], "aten::layer_norm"));
    CHECK(has(result.results[2], "aten::dropout"));
    CHECK(!has(result.results[1], "aten::conv2d"));
    // Conv2d holds its weights (73,856 floats) and input (64x32x32 floats) during the forward.
    CHECK(*result.results[0].peak_memory_bytes >= (73856 + 64 * 32 * 32) * 4);
    // The checkpoint holds every finished cell.
    const auto checkpoint = dataset::load(bench::checkpoint_path(options.out), dataset::Completeness::partial);
    CHECK(checkpoint.results.size() == 3);
  }

  SUBCASE("an interrupted run saves its checkpoint and says how to resume; --resume finishes it")
  {
    auto options = small_run(dir.path / "run.json");
    interrupted = true;
    CHECK_THROWS_WITH_AS(bench::run_matrix(options, *backend, interrupted), doctest::Contains("--resume"),
                         layerbench::Error);
    CHECK(fs::exists(bench::checkpoint_path(options.out)));
    interrupted = false;
    options.resume = bench::Resume::yes;
    const auto result = bench::run_matrix(options, *backend, interrupted);
    CHECK(result.results.size() == 3);
  }

  SUBCASE("the profiles come after every timing; a run cut short before them profiles its cells on --resume")
  {
    auto options = small_run(dir.path / "run.json");
    // A checkpoint of measured cells without profiles, as a run interrupted in its profile pass leaves.
    auto unprofiled = bench::run_matrix(options, *backend, interrupted);
    for (auto& cell : unprofiled.results) {
      cell.operators.clear();
    }
    dataset::save(bench::checkpoint_path(options.out), unprofiled, util::Overwrite::yes);
    options.resume = bench::Resume::yes;
    const auto result = bench::run_matrix(options, *backend, interrupted);
    REQUIRE(result.results.size() == 3);
    for (size_t i = 0; i < 3; ++i) {
      CAPTURE(result.results[i].layer);
      CHECK(!result.results[i].operators.empty());
      // Measured once: the resumed run kept the checkpoint's timings.
      CHECK(result.results[i].stats->median_ms == unprofiled.results[i].stats->median_ms);
    }
  }

  SUBCASE("resuming with other settings is refused")
  {
    auto options = small_run(dir.path / "run.json");
    options.layers = {"Dropout"};
    bench::run_matrix(options, *backend, interrupted);
    options.batch_sizes = {1, 8};
    options.resume = bench::Resume::yes;
    CHECK_THROWS_WITH_AS(bench::run_matrix(options, *backend, interrupted), doctest::Contains("--resume: the checkpoint ran with"),
                         layerbench::Error);
  }

  SUBCASE("a checkpoint with a duplicate or out-of-matrix cell is refused, naming the cell")
  {
    auto options = small_run(dir.path / "run.json");
    options.layers = {"Dropout"};
    const auto finished = bench::run_matrix(options, *backend, interrupted);
    auto broken = dataset::load(bench::checkpoint_path(options.out), dataset::Completeness::partial);
    broken.results.push_back(broken.results.front());
    dataset::save(bench::checkpoint_path(options.out), broken, util::Overwrite::yes);
    options.resume = bench::Resume::yes;
    CHECK_THROWS_WITH_AS(bench::run_matrix(options, *backend, interrupted),
                         doctest::Contains("/results/1: duplicate cell Dropout at batch size 1"), layerbench::Error);

    broken.results.pop_back();
    broken.results.front().batch_size = 64;
    dataset::save(bench::checkpoint_path(options.out), broken, util::Overwrite::yes);
    CHECK_THROWS_WITH_AS(bench::run_matrix(options, *backend, interrupted),
                         doctest::Contains("outside the declared matrix"), layerbench::Error);
    (void)finished;
  }

  SUBCASE("a checkpoint that cannot be saved says how many cells are safe and how to resume")
  {
    // A folder in the checkpoint's place: every save fails, as on a full or read-only disk.
    auto options = small_run(dir.path / "run.json");
    fs::create_directories(bench::checkpoint_path(options.out));
    CHECK_THROWS_WITH_AS(bench::run_matrix(options, *backend, interrupted),
                         doctest::Contains("the checkpoint keeps 0 finished cells (the 1 measured since are lost)"),
                         layerbench::Error);
    CHECK_THROWS_WITH_AS(bench::run_matrix(options, *backend, interrupted), doctest::Contains("--resume"),
                         layerbench::Error);
  }

  SUBCASE("a run while another process keeps a core busy warns, giving the load averages it recorded")
  {
    const BusyProcess busy;
    std::ostringstream warnings;
    const CerrTo capture(warnings);
    auto options = small_run(dir.path / "run.json");
    options.layers = {"Dropout"};
    const auto result = bench::run_matrix(options, *backend, interrupted);
    REQUIRE(result.environment);
    CHECK(result.environment->load_average_start.has_value());
    CHECK(result.environment->load_average_end.has_value());
    CHECK(warnings.str().find("warning: the machine was busy: other processes kept") != std::string::npos);
    CHECK(warnings.str().find("at the end, recorded in the dataset") != std::string::npos);
  }

  SUBCASE("a shard measures only its cells")
  {
    // As `run --shard 2/3` gives it: the shard's cells from the plan (bench::plan_matrix, tested apart).
    auto options = small_run(dir.path / "run.json");
    options.shard = "2/3";
    options.shard_plan = "cost-balanced, longest cells first, over test costs";
    options.shard_cells = {{"LayerNorm", 1, {}}};
    const auto result = bench::run_matrix(options, *backend, interrupted);
    REQUIRE(result.results.size() == 1);
    CHECK(result.results[0].layer == "LayerNorm");
    CHECK(dataset::check(result).empty());
  }
}

TEST_CASE("bench::run_matrix axes")
{
  TempDir dir("runner-axes");
  auto backend = bench::make_cpu_backend();
  std::atomic<bool> interrupted{false};
  auto options = small_run(dir.path / "cube.json");
  options.layers = {"AvgPool2d", "Dropout"};
  dataset::apply_axes_argument(options.axes, "memory_format=contiguous,channels_last");
  dataset::apply_axes_argument(options.axes, "mode=inference_mode,train");
  const auto result = bench::run_matrix(options, *backend, interrupted);

  SUBCASE("every corner of the declared cube is a cell, and the dataset is valid")
  {
    CHECK(result.results.size() == 2 * 4);
    CHECK(dataset::check(result).empty());
    CHECK(result.methodology->axes == options.axes);
    CHECK(!result.methodology->inference_mode);
    CHECK(!result.methodology->axes_text.empty());
  }
  SUBCASE("channels_last on a layer without 4-D input is skipped with its reason; on a pool it runs")
  {
    dataset::Axes channels_last;
    channels_last.set(dataset::k_memory_format, dataset::MemoryFormat::channels_last);
    const auto* dropout = dataset::find_cell(result, "Dropout", 1, channels_last);
    REQUIRE(dropout);
    CHECK(dropout->status == dataset::CellStatus::skipped);
    CHECK(dropout->skip_reason.find("4-D") != std::string::npos);
    const auto* pool = dataset::find_cell(result, "AvgPool2d", 1, channels_last);
    REQUIRE(pool);
    CHECK(pool->status == dataset::CellStatus::ok);
  }
  SUBCASE("train cells carry their parts; the reference cell is what find_cell gives without axes")
  {
    dataset::Axes train;
    train.set(dataset::k_mode, dataset::GradMode::train);
    const auto* cell = dataset::find_cell(result, "AvgPool2d", 1, train);
    REQUIRE(cell);
    REQUIRE(cell->train);
    CHECK(cell->train->backward_input);
    CHECK(!cell->train->backward_weight);
    CHECK(dataset::find_cell(result, "AvgPool2d", 1)->axes.is_reference());
  }
}

TEST_CASE("bench::run_matrix peak memory")
{
  // A simple layer's forward holds its parameters, its input and its output, and allocates besides at
  // most one scratch tensor the size of its output or input (Dropout's mask, a convolution's reordered
  // input or weights): about 3x what it must hold at most, 1.0x to 1.64x in every published dataset once
  // the canary is taken off. 4x leaves room for an allocator's rounding and nothing more; the canary's
  // 64.75 MiB, which the CPU runs of 2026-11-22 to 2026-11-27 counted, is 518x Dropout's floor at batch 32.
  constexpr double k_simple_layer_multiple = 4.0;
  TempDir dir("runner-memory");
  auto backend = bench::make_cpu_backend();
  std::atomic<bool> interrupted{false};
  auto options = small_run(dir.path / "run.json");
  options.layers = {"Linear", "Dropout", "LayerNorm", "Conv2d"};
  options.batch_sizes = {1, 8};

  SUBCASE("on the runner's own path, the canary on: each peak is the cell's, between its floor and 4x it")
  {
    const auto result = bench::run_matrix(options, *backend, interrupted);
    REQUIRE(result.methodology);
    CHECK(result.methodology->memory_method.find("not the machine-speed canary's buffers") != std::string::npos);
    REQUIRE(result.results.size() == 8);
    for (const auto& cell : result.results) {
      CAPTURE(cell.layer);
      CAPTURE(cell.batch_size);
      REQUIRE(cell.status == dataset::CellStatus::ok);
      REQUIRE(cell.canary); // measured right before the cell, its buffers live throughout
      REQUIRE(cell.peak_memory_bytes);
      const auto* layer = dataset::find_layer(result, cell.layer);
      REQUIRE(layer);
      const auto floor = dataset::memory_floor(*layer, cell);
      REQUIRE(floor);
      CAPTURE(floor->arithmetic);
      const auto peak = static_cast<double>(*cell.peak_memory_bytes);
      CHECK(peak >= floor->bytes);
      CHECK(peak <= k_simple_layer_multiple * floor->bytes);
    }
    CHECK(dataset::check_memory(result).empty());
  }
}

TEST_CASE("bench::cpu_peak_bytes")
{
  auto backend = bench::make_cpu_backend(); // installs the counting allocator
  bench::cpu_reset_peak();
  const auto before = bench::cpu_live_bytes();
  {
    auto tensor = torch::ones({1024, 256}); // 1 MiB of float32
    CHECK(bench::cpu_live_bytes() - before >= 1024 * 256 * 4);
  }
  CHECK(bench::cpu_live_bytes() == before);
  CHECK(bench::cpu_peak_bytes() - before >= 1024 * 256 * 4);
}
