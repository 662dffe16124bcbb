// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "dataset/citation.hpp"
#include "dataset/csv.hpp"
#include "dataset/io.hpp"
#include "util/error.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace layerbench::cli {

int cmd_export(const Arguments& arguments)
{
  po::options_description options("export options");
  options.add_options()("format", po::value<std::string>()->required(), "csv, bibtex or cff")(
    "out", po::value<std::string>(), "write here (must not exist) instead of standard output");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::string>()->required(), "the dataset FILE");
  po::positional_options_description positional;
  positional.add("file", 1);
  const auto values = parse("export", "FILE --format csv|bibtex|cff [--out F]\n\ncsv: one row per cell, the columns "
                                      "listed in docs/dataset.md.\nbibtex, cff: how to cite this dataset version.",
                            options, arguments, positional, hidden);
  if (!values) {
    return 0;
  }
  const auto format = (*values)["format"].as<std::string>();
  if (format != "csv" && format != "bibtex" && format != "cff") {
    throw UsageError("--format: \"" + format + "\" is not one of csv, bibtex, cff");
  }
  const auto loaded = dataset::load((*values)["file"].as<std::string>());
  const auto text = format == "csv" ? dataset::to_csv(loaded) : format == "bibtex" ? dataset::bibtex(loaded) : dataset::cff(loaded);
  if (!values->count("out")) {
    std::cout << text;
    return 0;
  }
  const auto out = (*values)["out"].as<std::string>();
  const auto written = util::write_file_atomic(out, text, util::Overwrite::no);
  if (!written) {
    throw Error(out + ": " + written.error());
  }
  return 0;
}

} // namespace layerbench::cli
