// SPDX-License-Identifier: MIT
#include "bench/nvml.hpp"

#include <dlfcn.h>

// The few NVML types used here, as nvml.h declares them. The header ships with the CUDA toolkit's NVML
// development package, which neither the torch wheel nor this project's build machine has; where it
// is present, the values are checked against it.
namespace {

using NvmlReturn = int;            // nvmlReturn_t, an enum; NVML_SUCCESS is 0
constexpr NvmlReturn k_nvml_success = 0;
constexpr int k_nvml_clock_sm = 1; // nvmlClockType_t NVML_CLOCK_SM

} // namespace

#if __has_include(<nvml.h>)
#include <nvml.h>
static_assert(NVML_SUCCESS == k_nvml_success, "nvml.h: NVML_SUCCESS");
static_assert(NVML_CLOCK_SM == k_nvml_clock_sm, "nvml.h: NVML_CLOCK_SM");
#endif

namespace layerbench::bench {

struct Nvml::Functions
{
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  const char* (*error_string)(NvmlReturn) = nullptr;
  NvmlReturn (*by_pci_bus_id)(const char*, void**) = nullptr;
  NvmlReturn (*clock_info)(void*, int, unsigned*) = nullptr;
  NvmlReturn (*default_applications_clock)(void*, int, unsigned*) = nullptr;
  // NVML 13 renamed nvmlDeviceGetCurrentClocksThrottleReasons to ...EventReasons; either will do.
  NvmlReturn (*event_reasons)(void*, unsigned long long*) = nullptr;
  NvmlReturn (*driver_version)(char*, unsigned) = nullptr; // nvmlSystemGetDriverVersion
};

namespace {

template<typename Function>
bool resolve(void* handle, const char* name, Function& function)
{
  function = reinterpret_cast<Function>(dlsym(handle, name));
  return function != nullptr;
}

} // namespace

util::Expected<std::unique_ptr<Nvml>> Nvml::load(const std::string& library)
{
  using Result = util::Expected<std::unique_ptr<Nvml>>;
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    return Result::failure("cannot load " + library + " (no NVIDIA driver?): " + (why ? why : "unknown error"));
  }
  auto functions = std::make_unique<Functions>();
  auto& f = *functions;
  const char* missing = nullptr;
  if (!resolve(handle, "nvmlInit_v2", f.init)) {
    missing = "nvmlInit_v2";
  } else if (!resolve(handle, "nvmlShutdown", f.shutdown)) {
    missing = "nvmlShutdown";
  } else if (!resolve(handle, "nvmlErrorString", f.error_string)) {
    missing = "nvmlErrorString";
  } else if (!resolve(handle, "nvmlDeviceGetHandleByPciBusId_v2", f.by_pci_bus_id)) {
    missing = "nvmlDeviceGetHandleByPciBusId_v2";
  } else if (!resolve(handle, "nvmlDeviceGetClockInfo", f.clock_info)) {
    missing = "nvmlDeviceGetClockInfo";
  } else if (!resolve(handle, "nvmlDeviceGetDefaultApplicationsClock", f.default_applications_clock)) {
    missing = "nvmlDeviceGetDefaultApplicationsClock";
  }
  if (missing != nullptr) {
    dlclose(handle);
    return Result::failure(library + " has no " + missing + " (not NVIDIA's management library?)");
  }
  resolve(handle, "nvmlSystemGetDriverVersion", f.driver_version);
  if (!resolve(handle, "nvmlDeviceGetCurrentClocksEventReasons", f.event_reasons)) {
    resolve(handle, "nvmlDeviceGetCurrentClocksThrottleReasons", f.event_reasons);
  }
  const NvmlReturn status = f.init();
  if (status != k_nvml_success) {
    const std::string why = f.error_string(status);
    dlclose(handle);
    return Result::failure("nvmlInit_v2 failed: " + why);
  }
  return std::unique_ptr<Nvml>(new Nvml(handle, std::move(functions)));
}

Nvml::Nvml(void* handle, std::unique_ptr<Functions> functions) : m_handle(handle), m_functions(std::move(functions)) {}

Nvml::~Nvml()
{
  m_functions->shutdown();
  dlclose(m_handle);
}

std::string Nvml::error_text(int code) const
{
  return m_functions->error_string(code);
}

util::Expected<Nvml::Device> Nvml::device_by_pci_bus_id(const std::string& bus_id) const
{
  void* device = nullptr;
  const NvmlReturn status = m_functions->by_pci_bus_id(bus_id.c_str(), &device);
  if (status != k_nvml_success) {
    return util::Expected<Device>::failure("no NVML device at PCI bus id " + bus_id + ": " + error_text(status));
  }
  return device;
}

util::Expected<unsigned> Nvml::sm_clock_mhz(Device device) const
{
  unsigned mhz = 0;
  const NvmlReturn status = m_functions->clock_info(device, k_nvml_clock_sm, &mhz);
  if (status != k_nvml_success) {
    return util::Expected<unsigned>::failure("nvmlDeviceGetClockInfo(SM): " + error_text(status));
  }
  return mhz;
}

util::Expected<unsigned> Nvml::default_sm_clock_mhz(Device device) const
{
  unsigned mhz = 0;
  const NvmlReturn status = m_functions->default_applications_clock(device, k_nvml_clock_sm, &mhz);
  if (status != k_nvml_success) {
    return util::Expected<unsigned>::failure("nvmlDeviceGetDefaultApplicationsClock(SM): " + error_text(status));
  }
  return mhz;
}

util::Expected<std::string> Nvml::driver_version() const
{
  if (m_functions->driver_version == nullptr) {
    return util::Expected<std::string>::failure("this NVML has no nvmlSystemGetDriverVersion");
  }
  char version[96] = {}; // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE is 80
  const NvmlReturn status = m_functions->driver_version(version, sizeof version);
  if (status != k_nvml_success) {
    return util::Expected<std::string>::failure("nvmlSystemGetDriverVersion: " + error_text(status));
  }
  version[sizeof version - 1] = '\0';
  return std::string(version);
}

util::Expected<uint64_t> Nvml::clock_event_reasons(Device device) const
{
  if (m_functions->event_reasons == nullptr) {
    return util::Expected<uint64_t>::failure("this NVML has no nvmlDeviceGetCurrentClocksEventReasons");
  }
  unsigned long long reasons = 0;
  const NvmlReturn status = m_functions->event_reasons(device, &reasons);
  if (status != k_nvml_success) {
    return util::Expected<uint64_t>::failure("nvmlDeviceGetCurrentClocksEventReasons: " + error_text(status));
  }
  return static_cast<uint64_t>(reasons);
}

ClockReading Nvml::read(Device device) const
{
  ClockReading reading;
  if (const auto mhz = sm_clock_mhz(device)) {
    reading.sm_mhz = *mhz;
  }
  if (const auto reasons = clock_event_reasons(device)) {
    reading.event_reasons = *reasons;
  }
  return reading;
}

} // namespace layerbench::bench
