// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <string>

namespace layerbench::util {

// "2026-11-22T04:05:07Z": UTC, second precision, the form the datasets use.
std::string format_utc(std::chrono::system_clock::time_point when);
std::string utc_now();

} // namespace layerbench::util
