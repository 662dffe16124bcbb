#include "bench/nvml.hpp"

#include <doctest/doctest.h>
#include <cstdlib>
#include <string>

using namespace layerbench::bench;

TEST_CASE("bench::Nvml::load")
{
  SUBCASE("a library that is not there fails with the reason, naming it")
  {
    const auto nvml = Nvml::load("libnvidia-ml-not-here.so.1");
    REQUIRE(!nvml);
    CHECK(nvml.error().find("cannot load libnvidia-ml-not-here.so.1") == 0);
    CHECK(nvml.error().find("No such file") != std::string::npos);
  }
  SUBCASE("a library without NVML's functions is refused")
  {
    const auto nvml = Nvml::load("libm.so.6");
    REQUIRE(!nvml);
    CHECK(nvml.error() == "libm.so.6 has no nvmlInit_v2 (not NVIDIA's management library?)");
  }
  SUBCASE("on this machine: loads where the driver is, else fails cleanly")
  {
    const auto nvml = Nvml::load();
    if (!nvml) {
      // The build machine and CI have no NVIDIA driver: a reason, never a crash.
      CHECK(nvml.error().find("libnvidia-ml.so.1") != std::string::npos);
    }
  }
}

TEST_CASE("bench::Nvml")
{
  SUBCASE("through a stand-in library: the device by bus id, its clocks and reasons")
  {
    ::unsetenv("FAKE_NVML_INIT_FAILS");
    const auto nvml = Nvml::load(LAYERBENCH_FAKE_NVML);
    REQUIRE_MESSAGE(nvml, nvml.error());
    const auto device = (*nvml)->device_by_pci_bus_id("00000000:17:00.0");
    REQUIRE(device);
    CHECK(*(*nvml)->sm_clock_mhz(*device) == 1755);
    CHECK(*(*nvml)->default_sm_clock_mhz(*device) == 1980);
    const auto reading = (*nvml)->read(*device);
    CHECK(reading.sm_mhz == 1755u);
    CHECK(reading.event_reasons == 0x5); // through the NVML 12 name: the stand-in lacks the NVML 13 one
    CHECK(*(*nvml)->driver_version() == "580.159.04"); // the kernel driver, not the CUDA API's "13.0"
  }
  SUBCASE("an unknown bus id is a reason, with NVML's words")
  {
    const auto nvml = Nvml::load(LAYERBENCH_FAKE_NVML);
    REQUIRE(nvml);
    const auto device = (*nvml)->device_by_pci_bus_id("00000000:99:00.0");
    REQUIRE(!device);
    CHECK(device.error() == "no NVML device at PCI bus id 00000000:99:00.0: Unknown Error");
  }
  SUBCASE("nvmlInit_v2 failing is a reason")
  {
    ::setenv("FAKE_NVML_INIT_FAILS", "1", 1);
    const auto nvml = Nvml::load(LAYERBENCH_FAKE_NVML);
    ::unsetenv("FAKE_NVML_INIT_FAILS");
    REQUIRE(!nvml);
    CHECK(nvml.error() == "nvmlInit_v2 failed: Driver Not Loaded");
  }
}
