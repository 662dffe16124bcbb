// SPDX-License-Identifier: MIT
#include "bench/aoti_cache.hpp"

#include "catalog/catalog.hpp"
#include "bench/detail/builder.hpp"
#include "bench/cpu_backend.hpp"
#include "bench/measure.hpp"
#include "test_dataset_fixture.hpp"
#include "test_shell.hpp"
#include "util/file.hpp"

#include <cmath>
#include <csignal>
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <thread>
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>
#include <torch/version.h>

using namespace layerbench;
using bench::AotiCache;
using bench::PackageSource;

namespace {

// Stands in for bench/gpu/aoti_export.py: writes a tiny zip-shaped "package of LAYER" to --out and counts
// its calls in ./calls. Layer Broken writes half a package and fails with a reason; Killed dies by a
// signal half-way; Slow takes a second, so that a second caller finds it under way; Hang takes a minute
// and writes its pid to ./hang.pid.
const char* const k_fake_exporter = R"(#!/bin/sh
while [ $# -gt 0 ]; do
  case "$1" in --out) out="$2";; --layer) layer="$2";; esac
  shift 2
done
echo call >> "$(dirname "$0")/calls"
case "$layer" in
  Broken) printf half > "$out"; echo "Broken: export failed: RuntimeError: an unsupported operator" >&2; exit 1;;
  Killed) printf half > "$out"; kill -9 $$;;
  Slow) sleep 1;;
  Hang) echo $$ > "$(dirname "$0")/hang.pid"; sleep 60;;
esac
printf 'PK\003\004package of %s PK\005\006%018d' "$layer" 0 > "$out"
)";

struct Fixture
{
  test::TempFolder folder;
  std::filesystem::path script = folder.path() / "fake_export.sh";
  std::filesystem::path cache = folder.path() / "cache";

  Fixture() { test::write_text(script, k_fake_exporter); }
  AotiCache make(const std::string& python = "/bin/sh") const { return AotiCache(cache, {python, script}); }
  int calls() const
  {
    const auto text = util::read_file(folder.path() / "calls");
    return text ? static_cast<int>(std::count(text->begin(), text->end(), '\n')) : 0;
  }
  // Files in the cache other than packages, their logs, compile times and locks: a leftover partial.
  std::vector<std::string> partials() const
  {
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(cache)) {
      if (entry.path().string().find(".partial-") != std::string::npos) {
        found.push_back(entry.path().filename().string());
      }
    }
    return found;
  }
};

} // namespace

TEST_CASE("bench::package_name")
{
  const bench::AotiKey key{"LayerNorm", "cpu", "2.11.0", std::string(64, 'a')};
  CHECK(bench::package_name(key) == "LayerNorm-cpu-torch2.11.0-aaaaaaaaaaaa.pt2");
  SUBCASE("every part of the key changes the name")
  {
    for (auto changed : {bench::AotiKey{"Linear", "cpu", "2.11.0", key.exporter_hash},
                         bench::AotiKey{"LayerNorm", "cuda", "2.11.0", key.exporter_hash},
                         bench::AotiKey{"LayerNorm", "cpu", "2.12.0", key.exporter_hash},
                         bench::AotiKey{"LayerNorm", "cpu", "2.11.0", std::string(64, 'b')}}) {
      CHECK(bench::package_name(changed) != bench::package_name(key));
    }
  }
}

TEST_CASE("bench::AotiCache")
{
  Fixture fixture;
  SUBCASE("the key holds the exporter script's hash, so a changed script is another package")
  {
    const auto before = fixture.make().key("LayerNorm", "cpu", "2.11.0");
    CHECK(before.exporter_hash.size() == 64);
    CHECK(fixture.make().path(before) == fixture.cache / bench::package_name(before));
    test::write_text(fixture.script, std::string(k_fake_exporter) + "# changed\n");
    CHECK(fixture.make().key("LayerNorm", "cpu", "2.11.0").exporter_hash != before.exporter_hash);
  }
  SUBCASE("a changed layer definition that the script imports is another package too")
  {
    const auto layers = fixture.folder.path() / "layers.py";
    test::write_text(layers, "width = 512\n");
    const AotiCache with_layers(fixture.cache, {"/bin/sh", fixture.script, {layers}});
    const auto before = with_layers.key("LayerNorm", "cpu", "2.11.0");
    CHECK(before.exporter_hash != fixture.make().key("LayerNorm", "cpu", "2.11.0").exporter_hash);
    test::write_text(layers, "width = 1024\n");
    const AotiCache changed(fixture.cache, {"/bin/sh", fixture.script, {layers}});
    CHECK(changed.key("LayerNorm", "cpu", "2.11.0").exporter_hash != before.exporter_hash);
  }
  SUBCASE("the real exporter's key covers the layer and model definitions it imports")
  {
    const auto exporter = bench::default_exporter();
    REQUIRE(exporter.imports.size() == 2);
    CHECK(exporter.imports[0].filename() == "layers.py");
    CHECK(exporter.imports[1].filename() == "py_models.py");
  }
  SUBCASE("a miss exports; a hit returns the package without calling the exporter")
  {
    const auto cache = fixture.make();
    const auto key = cache.key("LayerNorm", "cpu", "2.11.0");
    CHECK(!cache.contains(key));
    const auto built = cache.get(key);
    REQUIRE_MESSAGE(built, built.error());
    CHECK(built->source == PackageSource::built);
    CHECK(built->compile_seconds >= 0);
    CHECK(util::read_file(built->path)->find("package of LayerNorm") != std::string::npos);
    CHECK(cache.contains(key));
    const auto hit = cache.get(key);
    REQUIRE(hit);
    CHECK(hit->source == PackageSource::cached);
    CHECK(hit->path == built->path);
    CHECK(hit->compile_seconds == doctest::Approx(built->compile_seconds).epsilon(1e-3));
    CHECK(fixture.calls() == 1);
  }
  SUBCASE("a failed export gives its last line as the reason and leaves no package")
  {
    const auto cache = fixture.make();
    const auto key = cache.key("Broken", "cpu", "2.11.0");
    const auto result = cache.get(key);
    REQUIRE(!result);
    CHECK(result.error().find("RuntimeError: an unsupported operator") != std::string::npos);
    CHECK(!cache.contains(key));
    CHECK(fixture.partials().empty());
  }
  SUBCASE("an exporter killed half-way leaves no half package")
  {
    const auto cache = fixture.make();
    const auto key = cache.key("Killed", "cpu", "2.11.0");
    const auto result = cache.get(key);
    REQUIRE(!result);
    CHECK(result.error().find("exit 137") != std::string::npos);
    CHECK(!std::filesystem::exists(cache.path(key)));
    CHECK(fixture.partials().empty());
  }
  SUBCASE("two callers of one package: one exports, the other waits and finds it in the cache")
  {
    const auto cache = fixture.make();
    const auto key = cache.key("Slow", "cpu", "2.11.0");
    std::optional<util::Expected<bench::AotiPackage>> first;
    std::thread other([&] { first.emplace(cache.get(key)); });
    const auto second = cache.get(key);
    other.join();
    REQUIRE(second);
    REQUIRE(*first);
    CHECK(fixture.calls() == 1);
    CHECK((second->source == PackageSource::cached) != ((*first)->source == PackageSource::cached));
  }
  SUBCASE("a compile time that is not a finite number of seconds is not believed: the package is made again")
  {
    const auto cache = fixture.make();
    const auto key = cache.key("LayerNorm", "cpu", "2.11.0");
    REQUIRE(cache.get(key));
    for (const std::string bad : {"nan", "inf", "-1", "12 seconds", ""}) {
      CAPTURE(bad);
      test::write_text(cache.path(key).string() + ".seconds", bad);
      const auto again = cache.get(key);
      REQUIRE_MESSAGE(again, again.error());
      CHECK(again->source == PackageSource::built);
      CHECK(std::isfinite(again->compile_seconds));
      CHECK(again->compile_seconds >= 0);
    }
    CHECK(fixture.calls() == 6);
  }
  SUBCASE("a corrupt or cut-short package is made again, not skipped on every later run")
  {
    const auto cache = fixture.make();
    const auto key = cache.key("LayerNorm", "cpu", "2.11.0");
    REQUIRE(cache.get(key));
    for (const auto& bad : std::vector<std::string>{"garbage", std::string("PK\x03\x04" "cut short", 13)}) {
      test::write_text(cache.path(key), bad);
      CHECK(!cache.contains(key));
      const auto again = cache.get(key);
      REQUIRE_MESSAGE(again, again.error());
      CHECK(again->source == PackageSource::built);
      CHECK(!bench::package_defect(again->path));
    }
  }
  SUBCASE("a FIFO where the package should be does not hang the run: it is replaced")
  {
    const auto cache = fixture.make();
    const auto key = cache.key("LayerNorm", "cpu", "2.11.0");
    std::filesystem::create_directories(fixture.cache);
    REQUIRE(::mkfifo(cache.path(key).c_str(), 0644) == 0);
    CHECK(bench::package_defect(cache.path(key)) == std::string("is not a regular file"));
    const auto made = cache.get(key);
    REQUIRE_MESSAGE(made, made.error());
    CHECK(std::filesystem::is_regular_file(made->path));
  }
  SUBCASE("an interrupted run stops the export and its process group, and keeps no package")
  {
    const auto cache = fixture.make();
    const auto key = cache.key("Hang", "cpu", "2.11.0");
    std::atomic<bool> interrupted{false};
    std::thread signal([&] {
      while (!std::filesystem::exists(fixture.folder.path() / "hang.pid")) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      interrupted = true;
    });
    const auto result = cache.get(key, interrupted);
    signal.join();
    REQUIRE(!result);
    CHECK(result.error().find("export of Hang interrupted") != std::string::npos);
    CHECK(!cache.contains(key));
    CHECK(fixture.partials().empty());
    const auto pid = std::stoi(*util::read_file(fixture.folder.path() / "hang.pid"));
    CHECK(::kill(pid, 0) != 0); // the exporter is gone, not orphaned
  }
  SUBCASE("a missing python is a reason naming it, not a crash")
  {
    const auto result = fixture.make("/nonexistent/python").get(fixture.make().key("LayerNorm", "cpu", "2.11.0"));
    REQUIRE(!result);
    CHECK(result.error().find("cannot start python /nonexistent/python") != std::string::npos);
    CHECK(result.error().find("LAYERBENCH_PYTHON") != std::string::npos);
  }
  SUBCASE("a missing exporter script is a reason naming it")
  {
    const AotiCache cache(fixture.cache, {"/bin/sh", fixture.folder.path() / "missing.py"});
    CHECK(cache.exporter_hash().empty());
    const auto result = cache.get(cache.key("LayerNorm", "cpu", "2.11.0"));
    REQUIRE(!result);
    CHECK(result.error().find("missing.py") != std::string::npos);
  }
}

TEST_CASE("bench::default_aoti_cache")
{
  ::setenv("LAYERBENCH_AOTI_CACHE", "/tmp/somewhere", 1);
  CHECK(bench::default_aoti_cache() == "/tmp/somewhere");
  ::unsetenv("LAYERBENCH_AOTI_CACHE");
  CHECK(bench::default_aoti_cache().string().find(".cache/layerbench/aoti") != std::string::npos);
}

// The real exporter, end to end: about 40 s on 2 CPU cores, for LayerNorm, whose weights start at one
// and zero in both Python and C++, so the package and the C++ module compute the same function.
TEST_CASE("bench::AotiCache with the real exporter: a LayerNorm package runs as the eager module does")
{
  const auto exporter = bench::default_exporter();
  const auto probe = test::shell(exporter.python + " -c 'import torch'");
  if (probe.status != 0) {
    MESSAGE("SKIPPED: " << exporter.python << " cannot import torch (set LAYERBENCH_PYTHON): " << probe.output);
    return;
  }
  test::TempFolder folder;
  const bench::AotiCache cache(folder.path(), exporter);
  const auto package = cache.get(cache.key("LayerNorm", "cpu", TORCH_VERSION));
  REQUIRE_MESSAGE(package, package.error());
  CHECK(package->source == bench::PackageSource::built);
  CHECK(package->compile_seconds > 0);
  CHECK(!bench::package_defect(package->path)); // a real package passes the cache's check

  c10::InferenceMode inference;
  torch::inductor::AOTIModelPackageLoader loader(package->path.string());
  for (int batch : {1, 3, 8}) { // exported at 2: the batch is dynamic
    CAPTURE(batch);
    const auto instance = bench::detail::instantiate(bench::find_layer("LayerNorm"), batch, torch::kCPU);
    const auto eager = instance.forward();
    const auto compiled = loader.run({instance.input}).at(0);
    CHECK(compiled.sizes() == eager.sizes());
    CHECK(torch::allclose(compiled, eager, 1e-4, 1e-5));
  }

  // measure_cell times the package (one pass: a SUBCASE would compile it again).
  {
    auto backend = bench::make_cpu_backend();
    std::atomic<bool> interrupted{false};
    bench::MeasureSettings settings;
    settings.warmup_seconds = 0;
    settings.stopping = {0.5, 3, 5, 0.05};
    dataset::Axes axes;
    axes.set(dataset::k_compiled, dataset::Compiled::aot_inductor);
    const auto cell = bench::measure_cell(bench::find_layer("LayerNorm"), 2, axes, settings, *backend, interrupted,
                                          package->path);
    REQUIRE(cell);
    CHECK_MESSAGE(cell->status == dataset::CellStatus::ok, cell->skip_reason);
    CHECK(cell->stats);
    CHECK(cell->first_call_ms);
  }
}
