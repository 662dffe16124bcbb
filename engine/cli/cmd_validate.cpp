// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "util/error.hpp"

namespace layerbench::cli {

int cmd_validate(const Arguments&)
{
  throw Error("validate: not implemented yet");
}

} // namespace layerbench::cli
