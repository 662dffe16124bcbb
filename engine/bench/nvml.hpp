// SPDX-License-Identifier: MIT
#pragma once

// NVIDIA's management library (NVML), loaded at run time with dlopen, so that a build without CUDA and
// a machine without the driver need none: there, loading fails with the reason and the run records
// that no clock was read. Only what the clock log and the environment need: the SM clock, the default
// applications clock, the clock-event ("throttle") reasons and the driver's version. Knows nothing of torch or CUDA.

#include "bench/clock.hpp"
#include "util/expected.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace layerbench::bench {

// The library name the driver installs (the unversioned name comes only with development packages).
inline constexpr const char* k_nvml_library = "libnvidia-ml.so.1";

class Nvml
{
public:
  // Opens `library` (a name for the loader's search, or a path) and initialises NVML. Fails, with the
  // reason, when the library is missing, lacks a function this needs, or nvmlInit_v2 fails.
  static util::Expected<std::unique_ptr<Nvml>> load(const std::string& library = k_nvml_library);

  ~Nvml(); // nvmlShutdown and dlclose
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  // An opaque nvmlDevice_t.
  using Device = void*;

  // The device at this PCI bus id ("0000:17:00.0", as cudaDeviceGetPCIBusId writes it): the same GPU
  // as the CUDA device, whatever CUDA_VISIBLE_DEVICES renumbered.
  util::Expected<Device> device_by_pci_bus_id(const std::string& bus_id) const;

  util::Expected<unsigned> sm_clock_mhz(Device device) const;
  util::Expected<unsigned> default_sm_clock_mhz(Device device) const; // the default applications clock
  util::Expected<uint64_t> clock_event_reasons(Device device) const;
  // The kernel driver's version ("580.159.04"), which the CUDA driver API's "13.0" does not name.
  util::Expected<std::string> driver_version() const;

  // The clock and the reasons together; a part that cannot be read is left out.
  ClockReading read(Device device) const;

  struct Functions; // the resolved entry points (nvml.cpp)

private:
  Nvml(void* handle, std::unique_ptr<Functions> functions);
  std::string error_text(int code) const;

  void* m_handle;
  std::unique_ptr<Functions> m_functions;
};

} // namespace layerbench::bench
