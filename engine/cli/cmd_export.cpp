// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "util/error.hpp"

namespace layerbench::cli {

int cmd_export(const Arguments&)
{
  throw Error("export: not implemented yet");
}

} // namespace layerbench::cli
