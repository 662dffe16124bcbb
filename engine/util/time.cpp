// SPDX-License-Identifier: MIT
#include "util/time.hpp"

#include <array>
#include <ctime>

namespace layerbench::util {

std::string format_utc(std::chrono::system_clock::time_point when)
{
  const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  std::array<char, 32> buffer{};
  std::strftime(buffer.data(), buffer.size(), "%Y-%m-%dT%H:%M:%SZ", &parts);
  return buffer.data();
}

std::string utc_now() { return format_utc(std::chrono::system_clock::now()); }

} // namespace layerbench::util
