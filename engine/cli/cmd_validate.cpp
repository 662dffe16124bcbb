// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "dataset/validate.hpp"
#include "util/text.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace layerbench::cli {

int cmd_validate(const Arguments& arguments)
{
  po::options_description options("validate options");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::vector<std::string>>()->required(), "at least one FILE");
  po::positional_options_description positional;
  positional.add("file", -1);
  const auto values = parse("validate", "FILE...\n\nChecks datasets (and data/catalog.json) against the schema and the "
                                        "semantic rules;\nprints every problem as FILE: /json/pointer: message.",
                            options, arguments, positional, hidden);
  if (!values) {
    return 0;
  }
  int invalid = 0;
  for (const auto& file : (*values)["file"].as<std::vector<std::string>>()) {
    std::vector<std::string> warnings;
    const auto problems = dataset::validate_file(file, &warnings);
    // A problem quotes what the file holds (an id, a title): escaped, so that it cannot drive the terminal.
    for (const auto& problem : problems) {
      std::cout << util::printable(problem) << "\n";
    }
    for (const auto& warning : warnings) {
      std::cout << "warning: " << util::printable(warning) << "\n";
    }
    if (problems.empty()) {
      std::cout << util::printable(file) << ": valid\n";
    }
    invalid += problems.empty() ? 0 : 1;
  }
  return invalid == 0 ? 0 : 1;
}

} // namespace layerbench::cli
