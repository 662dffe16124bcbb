// SPDX-License-Identifier: MIT
#include "bench/torch_error.hpp"

#include <c10/util/Exception.h>

namespace layerbench::bench {

std::optional<std::string> torch_message(const std::exception& error)
{
  const auto* torch_error = dynamic_cast<const c10::Error*>(&error);
  if (torch_error == nullptr) {
    return std::nullopt;
  }
  return torch_error->what_without_backtrace();
}

std::string error_line(const std::exception& error)
{
  const std::string text = torch_message(error).value_or(error.what());
  return text.substr(0, text.find('\n'));
}

} // namespace layerbench::bench
