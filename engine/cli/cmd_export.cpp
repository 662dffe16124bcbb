// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "dataset/csv.hpp"
#include "dataset/io.hpp"
#include "util/error.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace layerbench::cli {

int cmd_export(const Arguments& arguments)
{
  po::options_description options("export options");
  options.add_options()("format", po::value<std::string>()->required(), "csv (the only format so far)")(
    "out", po::value<std::string>(), "write here (must not exist) instead of standard output");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::string>()->required(), "dataset");
  po::positional_options_description positional;
  positional.add("file", 1);
  const auto values = parse("export", "FILE --format csv [--out F]\n\nOne row per cell; the columns are listed in "
                                      "docs/dataset.md.",
                            options, arguments, positional, hidden);
  if (!values) {
    return 0;
  }
  const auto format = (*values)["format"].as<std::string>();
  if (format != "csv") {
    throw UsageError("--format: \"" + format + "\" is not supported; use csv");
  }
  const auto csv = dataset::to_csv(dataset::load((*values)["file"].as<std::string>()));
  if (!values->count("out")) {
    std::cout << csv;
    return 0;
  }
  const auto written = util::write_file_atomic((*values)["out"].as<std::string>(), csv, util::Overwrite::no);
  if (!written) {
    throw Error(written.error());
  }
  return 0;
}

} // namespace layerbench::cli
