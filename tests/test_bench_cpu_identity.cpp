#include "bench/cpu_identity.hpp"

#include <doctest/doctest.h>

#include <sstream>

using namespace layerbench;

namespace {

std::optional<dataset::CpuIdentity> parsed(const std::string& text)
{
  std::istringstream stream(text);
  return bench::parse_cpu_identity(stream);
}

} // namespace

TEST_CASE("bench::parse_cpu_identity")
{
  SUBCASE("x86: the first processor's vendor, family, model, stepping and vector flags, in the list's order")
  {
    const auto cpu = parsed("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
                            "model name\t: AMD EPYC\nstepping\t: 1\nflags\t\t: fpu avx512_bf16 sse4_2 avx avx2 fma "
                            "avx512f hypervisor\n\nprocessor\t: 1\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n");
    REQUIRE(cpu);
    CHECK(cpu->vendor == "AuthenticAMD");
    CHECK(cpu->family == 25);
    CHECK(cpu->model == 17);
    CHECK(cpu->stepping == 1);
    CHECK(cpu->isa == std::vector<std::string>{"sse4_2", "avx", "fma", "avx2", "avx512f", "avx512_bf16"});
    CHECK(cpu->aten_capability.empty());
  }
  SUBCASE("two machines both named \"AMD EPYC\" differ in model and flags")
  {
    const auto zen3 = parsed("processor : 0\nvendor_id : AuthenticAMD\ncpu family : 25\nmodel : 1\nflags : avx2 fma\n");
    const auto zen4 = parsed("processor : 0\nvendor_id : AuthenticAMD\ncpu family : 25\nmodel : 17\nflags : avx2 fma avx512f\n");
    REQUIRE(zen3);
    REQUIRE(zen4);
    CHECK(zen3->model != zen4->model);
    CHECK(zen3->isa != zen4->isa);
  }
  SUBCASE("Arm: the implementer as vendor, the part as model, the revision as stepping, no family")
  {
    const auto cpu = parsed("processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd sve bf16 i8mm\n"
                            "CPU implementer\t: 0x41\nCPU part\t: 0xd40\nCPU revision\t: 1\n");
    REQUIRE(cpu);
    CHECK(cpu->vendor == "0x41");
    CHECK(!cpu->family);
    CHECK(cpu->model == 0xd40);
    CHECK(cpu->stepping == 1);
    CHECK(cpu->isa == std::vector<std::string>{"asimd", "bf16", "i8mm", "sve"});
  }
  SUBCASE("a text that names no vendor, or a number that is not one, is left out")
  {
    CHECK(!parsed(""));
    CHECK(!parsed("processor : 0\nflags : avx2\n"));
    const auto cpu = parsed("processor : 0\nvendor_id : X\ncpu family : 25a\nmodel : -1\nflags :\n");
    REQUIRE(cpu);
    CHECK(!cpu->family);
    CHECK(!cpu->model);
    CHECK(cpu->isa.empty());
  }
  SUBCASE("this machine's /proc/cpuinfo, where Linux has one")
  {
    if (const auto cpu = bench::read_cpu_identity()) {
      CHECK(!cpu->vendor.empty());
    }
    CHECK(!bench::read_cpu_identity("/nonexistent/cpuinfo"));
  }
}
