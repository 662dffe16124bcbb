// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "util/error.hpp"

namespace layerbench::cli {

int cmd_diff(const Arguments&)
{
  throw Error("diff: not implemented yet");
}

} // namespace layerbench::cli
