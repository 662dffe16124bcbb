// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "dataset/json_text.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

#include <iostream>

#if LAYERBENCH_WITH_TORCH
#include "bench/torch_error.hpp"
#endif

namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

std::string g_invocation;

} // namespace

const std::string& invocation() { return g_invocation; }

const std::string& recorded_invocation()
{
  const auto problem = dataset::text_problem(g_invocation);
  if (!problem.empty()) {
    throw UsageError("the command line is recorded in the dataset, and this one cannot be (" + problem
                     + "); shorten it (a --layers list or --axes can usually be narrowed)");
  }
  return g_invocation;
}

void set_invocation(int argc, char** argv)
{
  g_invocation.clear();
  for (int i = 0; i < argc; ++i) {
    g_invocation += (i > 0 ? " " : "") + util::shell_quote(i == 0 ? std::string("layerbench") : argv[i]);
  }
}

std::optional<po::variables_map> parse(const std::string& command,
                                       const std::string& usage,
                                       po::options_description options,
                                       const Arguments& arguments,
                                       const po::positional_options_description& positional,
                                       const po::options_description& hidden)
{
  options.add_options()("help,h", "print this help and exit");
  po::options_description all;
  all.add(options).add(hidden);
  po::variables_map values;
  try {
    po::store(po::command_line_parser(arguments).options(all).positional(positional).run(), values);
    if (values.count("help")) {
      std::cout << "usage: layerbench " << command << " " << usage << "\n\n" << options << "\n";
      return std::nullopt;
    }
    po::notify(values);
  } catch (const po::required_option& error) {
    // A missing positional argument is named as the usage names it, never by its internal option name;
    // the description of a hidden (positional) option is that name.
    const std::string name = error.get_option_name().substr(error.get_option_name().find_first_not_of('-'));
    if (const auto* argument = hidden.find_nothrow(name, false)) {
      throw UsageError(command + ": give " + argument->description() + " (see 'layerbench " + command + " --help')");
    }
    throw UsageError(command + ": " + error.what() + " (see 'layerbench " + command + " --help')");
  } catch (const po::error& error) {
    throw UsageError(command + ": " + error.what() + " (see 'layerbench " + command + " --help')");
  }
  return values;
}

std::string error_text(const std::exception& error)
{
#if LAYERBENCH_WITH_TORCH
  if (const auto torch = bench::torch_message(error)) {
    return "torch: " + *torch;
  }
#endif
  return error.what();
}

} // namespace layerbench::cli
