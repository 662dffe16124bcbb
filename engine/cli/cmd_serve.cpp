// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "util/error.hpp"

namespace layerbench::cli {

int cmd_serve(const Arguments&)
{
  throw Error("serve: not implemented yet");
}

} // namespace layerbench::cli
