// A stand-in for libnvidia-ml.so.1 with fixed answers, so that bench::Nvml's success path is tested
// without a driver. FAKE_NVML_INIT_FAILS=1 makes nvmlInit_v2 fail; nvmlDeviceGetCurrentClocksEventReasons
// is left out on purpose, so the loader's fallback to the NVML 12 name is used.
#include <cstdlib>
#include <cstring>

extern "C" {

int nvmlInit_v2()
{
  return std::getenv("FAKE_NVML_INIT_FAILS") != nullptr ? 9 : 0; // 9: NVML_ERROR_DRIVER_NOT_LOADED
}

int nvmlShutdown()
{
  return 0;
}

const char* nvmlErrorString(int code)
{
  return code == 9 ? "Driver Not Loaded" : "Unknown Error";
}

static int g_device = 0;

int nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, void** device)
{
  if (std::strcmp(bus_id, "00000000:17:00.0") != 0) {
    return 6; // NVML_ERROR_NOT_FOUND
  }
  *device = &g_device;
  return 0;
}

int nvmlDeviceGetClockInfo(void* device, int type, unsigned* mhz)
{
  if (device != &g_device || type != 1) {
    return 2; // NVML_ERROR_INVALID_ARGUMENT
  }
  *mhz = 1755;
  return 0;
}

int nvmlDeviceGetDefaultApplicationsClock(void* device, int type, unsigned* mhz)
{
  if (device != &g_device || type != 1) {
    return 2;
  }
  *mhz = 1980;
  return 0;
}

int nvmlSystemGetDriverVersion(char* version, unsigned length)
{
  const char* text = "580.159.04";
  if (length < std::strlen(text) + 1) {
    return 7; // NVML_ERROR_INSUFFICIENT_SIZE
  }
  std::strcpy(version, text);
  return 0;
}

int nvmlDeviceGetCurrentClocksThrottleReasons(void* device, unsigned long long* reasons)
{
  if (device != &g_device) {
    return 2;
  }
  *reasons = 0x4 | 0x1;
  return 0;
}
}
