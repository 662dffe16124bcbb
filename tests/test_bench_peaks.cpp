// SPDX-License-Identifier: MIT
#include "bench/peaks.hpp"

#include "bench/cache_levels.hpp"
#include "bench/cpu_backend.hpp"
#include "bench/runner.hpp"

#include <ATen/Parallel.h>
#include <doctest/doctest.h>

#include <algorithm>

using namespace layerbench;

TEST_CASE("bench::measure_peaks")
{
  auto backend = bench::make_cpu_backend();
  std::atomic<bool> interrupted{false};
  auto settings = bench::default_settings(bench::DeviceKind::cpu);
  // Short: the figures are checked for sense, never for speed.
  settings.warmup_seconds = 0.01;
  settings.stopping = {0.05, 3, 10, 0.3};

  SUBCASE("on the CPU: the faster of an fp32 product and convolution, and a triad, each work over its fastest sample")
  {
    const auto peaks = bench::measure_peaks(*backend, settings, interrupted);
    REQUIRE(peaks);
    const auto* fp32 = dataset::find_compute_peak(*peaks, "fp32");
    REQUIRE(fp32);
    const bool product = fp32->operation.find("1024x1024 by 1024x1024") != std::string::npos;
    const bool convolution = fp32->operation.find("convolution 3x3, 256 to 256 channels") != std::string::npos;
    CHECK(product != convolution);
    CHECK(fp32->work == (product ? 2.0 * 1024 * 1024 * 1024 : 2.0 * 256 * 256 * 9 * 28 * 28 * 4));
    REQUIRE(fp32->best_ms);
    CHECK(*fp32->best_ms <= fp32->median_ms);
    CHECK(fp32->rate == doctest::Approx(fp32->work / (*fp32->best_ms / 1000)));
    CHECK(*fp32->samples >= 3);
    CHECK(!dataset::find_compute_peak(*peaks, "tf32")); // a CUDA precision
    REQUIRE(peaks->memory);
    CHECK(peaks->memory->name == "triad");
    CHECK(peaks->memory->work == 3.0 * 128 * 1024 * 1024); // two arrays read, one written
    CHECK(peaks->memory->rate > 0);
    CHECK(peaks->method.find("cells' timing and noise rules") != std::string::npos);
    // A triad per cache level sysfs describes, sized to half of what the run's threads reach there.
    const auto levels = bench::cpu_cache_levels();
    for (const auto& cache : peaks->caches) {
      CAPTURE(cache.level);
      const auto level = std::find_if(levels.begin(), levels.end(), [&](const bench::CacheLevel& l) { return "L" + std::to_string(l.level) == cache.level; });
      REQUIRE(level != levels.end());
      CHECK(cache.size_bytes == bench::reachable_bytes(*level, at::get_num_threads()));
      CHECK(cache.triad.work == doctest::Approx(static_cast<double>(cache.size_bytes) / 2).epsilon(0.01));
      REQUIRE(cache.triad.best_ms);
      CHECK(*cache.triad.best_ms <= cache.triad.median_ms);
      CHECK(cache.triad.rate == doctest::Approx(cache.triad.work / (*cache.triad.best_ms / 1000)));
      CHECK(cache.triad.noise_target_met.has_value());
    }
    const bool sysfs = std::any_of(levels.begin(), levels.end(), [](const bench::CacheLevel& l) { return l.level == 3; });
    CHECK(peaks->caches.size() == (sysfs ? 2u : 0u)); // L2 and L3 where sysfs describes them
    CHECK(bench::describe(*peaks).find("fp32 ") == 0);
  }
  SUBCASE("interrupted, it gives nothing rather than a partial table")
  {
    interrupted = true;
    CHECK(!bench::measure_peaks(*backend, settings, interrupted));
  }
}
