// SPDX-License-Identifier: MIT
#pragma once

// The one translation of torch's errors (c10::Error) into our words: their message without c10's C++
// backtrace. Torch-free, so that main can print a torch error as any other.

#include <exception>
#include <optional>
#include <string>

namespace layerbench::bench {

// The message of a c10::Error without its C++ backtrace; nullopt for any other exception.
std::optional<std::string> torch_message(const std::exception& error);

// The first line of an error's message, without c10's backtrace: what a skipped cell or variant records.
std::string error_line(const std::exception& error);

} // namespace layerbench::bench
