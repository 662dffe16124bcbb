// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "util/error.hpp"

namespace layerbench::cli {

int cmd_run(const Arguments&)
{
  throw Error("run: not implemented yet");
}

} // namespace layerbench::cli
