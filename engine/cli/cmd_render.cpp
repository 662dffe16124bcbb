// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "util/error.hpp"

namespace layerbench::cli {

int cmd_render(const Arguments&)
{
  throw Error("render: not implemented yet");
}

} // namespace layerbench::cli
