// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "util/error.hpp"

namespace layerbench::cli {

int cmd_merge(const Arguments&)
{
  throw Error("merge: not implemented yet");
}

} // namespace layerbench::cli
