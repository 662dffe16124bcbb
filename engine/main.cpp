// SPDX-License-Identifier: MIT
// layerbench: measure PyTorch layers, record datasets, render and preview the site.

#include "cli/command.hpp"
#include "util/build_info.hpp"
#include "util/error.hpp"
#include "util/suggest.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

namespace layerbench::cli {

const std::vector<Command>& commands()
{
  static const std::vector<Command> table = {
    {"run", "measure the layer matrix on this machine into a dataset", cmd_run},
    {"layers", "list the layer catalog: configs, parameter and FLOP formulas", cmd_layers},
    {"validate", "check datasets against the schema and the semantic rules", cmd_validate},
    {"diff", "compare two datasets cell by cell, with noise-aware verdicts", cmd_diff},
    {"merge", "combine the shards of one matrix run into one dataset", cmd_merge},
    {"close", "turn the checkpoint of a run that cannot be continued into a dataset, its missing cells skipped", cmd_close},
    {"slurm", "run the matrix as a Slurm array job, one task per shard, and merge the shards", cmd_slurm},
    {"scaling", "the scaling factor of data-parallel training steps, from runs at world sizes 1 and N", cmd_scaling},
    {"export", "write a dataset as CSV (one row per cell), or its citation as BibTeX or CFF", cmd_export},
    {"publish", "turn a local run into the next published version in data/", cmd_publish},
    {"erratum", "withdraw a published version's figures of one field, with an erratum the site shows", cmd_erratum},
    {"render", "render the datasets in data/ into the static site", cmd_render},
    {"serve", "preview the site over local HTTP with live reload", cmd_serve},
  };
  return table;
}

} // namespace layerbench::cli

namespace {

using layerbench::cli::commands;

void print_help()
{
  std::cout << "usage: layerbench <command> [options]\n"
               "       layerbench <command> --help\n\ncommands:\n";
  for (const auto& command : commands()) {
    std::cout << "  " << std::left << std::setw(10) << command.name << command.summary << "\n";
  }
}

std::string unknown_command_message(const std::string& name)
{
  std::vector<std::string> names;
  for (const auto& command : commands()) {
    names.emplace_back(command.name);
  }
  std::string message = "unknown command '" + name + "'";
  if (const auto hint = layerbench::util::closest(name, names, 3)) {
    message += ", did you mean '" + *hint + "'?";
  }
  return message + " (see 'layerbench --help')";
}

int dispatch(int argc, char** argv)
{
  layerbench::cli::set_invocation(argc, argv);
  if (argc < 2) {
    print_help();
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_help();
    return 0;
  }
  if (name == "--version") {
    std::cout << "layerbench " << layerbench::build_info::k_version << " ("
              << layerbench::build_info::k_git_commit << ")\n";
    return 0;
  }
  for (const auto& command : commands()) {
    if (name == command.name) {
      return command.handler(layerbench::cli::Arguments(argv + 2, argv + argc));
    }
  }
  throw layerbench::UsageError(unknown_command_message(name));
}

// Output that never reached its file is a failure, as coreutils' close_stdout makes it: `export >
// full-disk-file` must not exit 0 with a truncated file. Standard output is buffered, so most write
// errors only show here, when it is flushed.
int flushed(int status)
{
  errno = 0;
  std::cout.flush();
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout.good();
  if (!failed) {
    return status;
  }
  const std::string reason = errno != 0 ? std::strerror(errno) : "a write failed";
  std::cerr << "layerbench: error: cannot write to standard output: " << reason << "\n";
  return status == 0 ? 1 : status;
}

} // namespace

int main(int argc, char** argv)
{
  // Messages quote ids, titles, labels and file content: escaped, so that data cannot drive the terminal.
  using layerbench::util::LineBreaks;
  using layerbench::util::printable;
  try {
    return flushed(dispatch(argc, argv));
  } catch (const layerbench::UsageError& error) {
    std::cerr << "layerbench: error: " << printable(error.what(), LineBreaks::keep) << "\n";
    return 2;
  } catch (const layerbench::Error& error) {
    std::cerr << "layerbench: error: " << printable(error.what(), LineBreaks::keep) << "\n";
    return 1;
  } catch (const nlohmann::json::exception& error) {
    std::cerr << "layerbench: error: " << printable(error.what(), LineBreaks::keep) << "\n";
    return 1;
  } catch (const std::exception& error) {
    // Torch's errors in our words: the message without the C++ backtrace.
    std::cerr << "layerbench: error: " << printable(layerbench::cli::error_text(error), LineBreaks::keep) << "\n";
    return 1;
  }
}
