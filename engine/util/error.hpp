// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>
#include <string>

namespace layerbench {

// A failure that the user can act on. The message names what is wrong: the file, the JSON pointer,
// the layer or the option. main() prints it as "layerbench: error: <message>" and exits 1.
class Error : public std::runtime_error
{
public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// A command line that cannot be understood; main() exits 2 for these.
class UsageError : public Error
{
public:
  explicit UsageError(const std::string& message) : Error(message) {}
};

} // namespace layerbench
