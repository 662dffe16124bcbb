#include "bench/profile.hpp"

#include "dataset/json_text.hpp"

#include <doctest/doctest.h>
#include <torch/torch.h>

using namespace layerbench;

namespace {

const dataset::Operator* find(const std::vector<dataset::Operator>& operators, const std::string& name)
{
  for (const auto& op : operators) {
    if (op.name == name) {
      return &op;
    }
  }
  return nullptr;
}

} // namespace

TEST_CASE("bench::aggregate_operators")
{
  SUBCASE("a parent's self time excludes its children, and shares sum to one")
  {
    // aten::linear [0, 100) holds aten::t [0, 10) and aten::addmm [10, 90); aten::relu [100, 120).
    const auto operators = bench::aggregate_operators({{"aten::linear", 1, 0, 100},
                                                       {"aten::t", 1, 0, 10},
                                                       {"aten::addmm", 1, 10, 90},
                                                       {"aten::relu", 1, 100, 120}});
    REQUIRE(operators.size() == 4);
    CHECK(operators[0].name == "aten::addmm");
    CHECK(operators[0].self_cpu_fraction == doctest::Approx(80.0 / 120.0));
    CHECK(find(operators, "aten::linear")->self_cpu_fraction == doctest::Approx(10.0 / 120.0));
    double total = 0;
    for (const auto& op : operators) {
      total += op.self_cpu_fraction;
    }
    CHECK(total == doctest::Approx(1.0));
  }

  SUBCASE("calls are counted per name, and spans on other threads are not children")
  {
    const auto operators = bench::aggregate_operators({{"aten::add", 1, 0, 50},
                                                       {"aten::add", 2, 10, 20},
                                                       {"aten::add", 1, 60, 70}});
    REQUIRE(operators.size() == 1);
    CHECK(operators[0].calls == 3);
    CHECK(operators[0].self_cpu_fraction == doctest::Approx(1.0));
  }

  SUBCASE("names other than aten:: are dropped but still take their time from the parent")
  {
    const auto operators = bench::aggregate_operators({{"aten::conv2d", 1, 0, 100}, {"mkldnn_convolution_kernel", 1, 0, 60}});
    REQUIRE(operators.size() == 1);
    CHECK(operators[0].name == "aten::conv2d");
    CHECK(operators[0].calls == 1);
  }
}

TEST_CASE("bench::profile_forward")
{
  const auto x = torch::randn({64, 64});
  const auto profile = bench::profile_forward([&] { torch::relu(torch::mm(x, x)); }, [] {}, bench::ProfileDevice::cpu);
  REQUIRE(find(profile.operators, "aten::mm") != nullptr);
  REQUIRE(find(profile.operators, "aten::relu") != nullptr);
  CHECK(find(profile.operators, "aten::mm")->calls == 1);
  CHECK(profile.kernels.empty());
}

TEST_CASE("bench::recordable_name")
{
  SUBCASE("a name within the readers' limit is kept as it is")
  {
    CHECK(bench::recordable_name("aten::addmm") == "aten::addmm");
  }
  SUBCASE("a longer one is cut to the limit, never inside a UTF-8 character, and the dataset takes it")
  {
    const std::string long_name = "void cutlass::Kernel<" + std::string(5000, 'x') + "\xc3\xa9>";
    const auto kept = bench::recordable_name(long_name);
    CHECK(kept.size() <= dataset::k_max_text_bytes);
    CHECK(kept.substr(kept.size() - 3) == "...");
    CHECK(dataset::text_problem(kept).empty());
    std::string accents;
    for (int i = 0; i < 2500; ++i) {
      accents += "\xc3\xa9"; // two bytes each, so a cut at an odd byte would split one
    }
    const auto cut = bench::recordable_name(accents);
    CHECK(cut.size() <= dataset::k_max_text_bytes);
    CHECK(dataset::text_problem(cut).empty());
  }
  SUBCASE("aggregated operators carry recordable names")
  {
    const auto operators = bench::aggregate_operators({{"aten::" + std::string(5000, 'y'), 1, 0, 10}});
    REQUIRE(operators.size() == 1);
    CHECK(operators[0].name.size() <= dataset::k_max_text_bytes);
  }
}
