// SPDX-License-Identifier: MIT
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::cli {

using Arguments = std::vector<std::string>;
using Handler = int (*)(const Arguments& arguments);

struct Command
{
  const char* name;
  const char* summary; // one line, shown by `layerbench --help`
  Handler handler;
};

// The one table of subcommands (engine/main.cpp).
const std::vector<Command>& commands();

// Parses a subcommand's arguments. Returns nullopt after printing the help when --help was given;
// otherwise the parsed values. Unknown options and bad values throw UsageError naming the option.
std::optional<boost::program_options::variables_map>
parse(const std::string& command,
      const std::string& usage,
      boost::program_options::options_description options,
      const Arguments& arguments,
      const boost::program_options::positional_options_description& positional = {},
      const boost::program_options::options_description& hidden = {});

// An error that no handler caught, in our words: torch's (c10::Error) as "torch: " and its message
// without the C++ backtrace (bench/torch_error.hpp), any other as its what().
std::string error_text(const std::exception& error);

// The command line as typed, for provenance.
const std::string& invocation();
// The invocation as a dataset records it (provenance.command_line): a UsageError, before anything is
// measured or merged, when the readers could not take it back (over 4096 bytes, not UTF-8).
const std::string& recorded_invocation();
void set_invocation(int argc, char** argv);

// Handlers, one per subcommand, each in engine/cli/cmd_<name>.cpp.
int cmd_run(const Arguments& arguments);
int cmd_layers(const Arguments& arguments);
int cmd_validate(const Arguments& arguments);
int cmd_diff(const Arguments& arguments);
int cmd_merge(const Arguments& arguments);
int cmd_close(const Arguments& arguments);
int cmd_slurm(const Arguments& arguments);
int cmd_scaling(const Arguments& arguments);
int cmd_export(const Arguments& arguments);
int cmd_publish(const Arguments& arguments);
int cmd_erratum(const Arguments& arguments);
int cmd_render(const Arguments& arguments);
int cmd_serve(const Arguments& arguments);

} // namespace layerbench::cli
