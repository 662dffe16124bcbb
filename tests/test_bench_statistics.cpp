#include "bench/statistics.hpp"

#include "util/error.hpp"

#include <doctest/doctest.h>
#include <cmath>
#include <limits>

using namespace layerbench::bench;

TEST_CASE("bench::quantile")
{
  SUBCASE("linear interpolation between order statistics, as numpy computes it")
  {
    // numpy.quantile([1, 2, 3, 4], [0.25, 0.5, 0.75]) == [1.75, 2.5, 3.25]
    CHECK(quantile({4, 1, 3, 2}, 0.25) == doctest::Approx(1.75));
    CHECK(quantile({4, 1, 3, 2}, 0.5) == doctest::Approx(2.5));
    CHECK(quantile({4, 1, 3, 2}, 0.75) == doctest::Approx(3.25));
  }
  SUBCASE("one sample is every quantile")
  {
    CHECK(quantile({7}, 0.25) == 7);
    CHECK(quantile({7}, 0.75) == 7);
  }
  SUBCASE("no samples is an error")
  {
    CHECK_THROWS_AS(quantile({}, 0.5), layerbench::Error);
  }
}

TEST_CASE("bench::summarize")
{
  SUBCASE("known samples")
  {
    const auto s = summarize({10, 12, 11, 13, 100});
    CHECK(s.count == 5);
    CHECK(s.median == doctest::Approx(12));
    CHECK(s.p25 == doctest::Approx(11));
    CHECK(s.p75 == doctest::Approx(13));
    CHECK(s.min == doctest::Approx(10));
    CHECK(s.mean == doctest::Approx(29.2));
    CHECK(s.stddev == doctest::Approx(std::sqrt(6270.8 / 4))); // sample standard deviation, n - 1
    CHECK(s.noise == doctest::Approx(2.0 / 12.0));             // the outlier does not move the IQR
  }
  SUBCASE("a single sample has no spread")
  {
    const auto s = summarize({3});
    CHECK(s.stddev == 0);
    CHECK(s.noise == 0);
  }
  SUBCASE("a non-finite sample is an error")
  {
    CHECK_THROWS_AS(summarize({1, std::numeric_limits<double>::quiet_NaN()}), layerbench::Error);
  }
}

TEST_CASE("bench::decide")
{
  const StoppingRule rule{0.05, 5, 8, 1.0};
  const std::vector<double> steady{10, 10.1, 9.9, 10, 10.05};
  const std::vector<double> noisy{10, 15, 9, 20, 11};

  SUBCASE("below min_samples sampling goes on, however quiet")
  {
    CHECK(decide(rule, {10, 10, 10, 10}, 0.1) == Verdict::continue_sampling);
  }
  SUBCASE("quiet samples meet the target at min_samples")
  {
    CHECK(decide(rule, steady, 0.1) == Verdict::target_met);
  }
  SUBCASE("noisy samples go on while there is budget")
  {
    CHECK(decide(rule, noisy, 0.1) == Verdict::continue_sampling);
  }
  SUBCASE("noisy samples stop when the budget is spent")
  {
    CHECK(decide(rule, noisy, 1.5) == Verdict::budget_spent);
  }
  SUBCASE("the sample cap stops a noisy cell")
  {
    std::vector<double> many{10, 15, 9, 20, 11, 30, 9, 14};
    CHECK(decide(rule, many, 0.1) == Verdict::max_samples);
  }
  SUBCASE("a spent budget still waits for three samples, then stops below min_samples")
  {
    CHECK(decide(rule, {10, 20}, 5.0) == Verdict::continue_sampling);
    CHECK(decide(rule, {10, 20, 30}, 5.0) == Verdict::budget_spent);
  }
}
