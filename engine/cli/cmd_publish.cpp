// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "util/error.hpp"

namespace layerbench::cli {

int cmd_publish(const Arguments&)
{
  throw Error("publish: not implemented yet");
}

} // namespace layerbench::cli
