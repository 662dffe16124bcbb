// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "util/error.hpp"

namespace layerbench::cli {

int cmd_layers(const Arguments&)
{
  throw Error("layers: not implemented yet");
}

} // namespace layerbench::cli
