// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "dataset/data_folder.hpp"
#include "dataset/erratum.hpp"
#include "util/error.hpp"
#include "util/text.hpp"
#include "util/time.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace layerbench::cli {

int cmd_erratum(const Arguments& arguments)
{
  po::options_description options("erratum options");
  options.add_options()("data", po::value<std::string>()->default_value("data"), "the data folder (holds catalog.json)")(
    "withdraw", po::value<std::string>()->required(),
    "what is withdrawn: peak_memory_bytes (every cell's), or environment.peaks.compute.PRECISION (the run's compute peak "
    "at PRECISION, which then bounds no cell)")(
    "reason", po::value<std::string>()->required(), "what is wrong with the figures, in a sentence or two (shown on the site)")(
    "fixed-by", po::value<std::string>()->required(), "the commit whose measurement no longer has the fault")(
    "date", po::value<std::string>(), "YYYY-MM-DD (default: today, UTC)");
  po::options_description hidden;
  hidden.add_options()("dataset", po::value<std::string>()->required(), "the published version, ID@N");
  po::positional_options_description positional;
  positional.add("dataset", 1);
  const auto values = parse("erratum", "ID@N --withdraw FIELD --reason TEXT --fixed-by COMMIT [--date YYYY-MM-DD] [--data DIR]\n\n"
                                       "Withdraws a published version's figures of one field, or one of its\n"
                                       "compute peaks, with an erratum in DIR/catalog.json. The dataset file\n"
                                       "is not touched and stays downloadable;\n"
                                       "the site shows the erratum where the figures were. A corrected version is\n"
                                       "a new measurement, published anew: it carries no erratum.",
                            options, arguments, positional, hidden);
  if (!values) {
    return 0;
  }
  const auto text = [&](const char* name) { return (*values)[name].as<std::string>(); };
  dataset::Erratum erratum;
  try {
    dataset::parse_field_name(text("withdraw"), "--withdraw", erratum);
  } catch (const Error& error) {
    throw UsageError(error.what()); // a value of an option: exit 2, as other usage errors
  }
  erratum.reason = text("reason");
  erratum.fixed_by = text("fixed-by");
  erratum.date = values->count("date") ? text("date") : util::utc_now().substr(0, 10);
  const auto problem = dataset::erratum_problem(erratum);
  if (!problem.empty()) {
    throw UsageError("erratum: " + problem); // names the field: "date: ..." is --date's
  }
  const std::string data_dir = text("data");
  const auto reference = text("dataset");
  dataset::record_erratum(data_dir, reference, erratum);
  std::cout << util::printable("withdrew the " + dataset::field_name(erratum) + " figures of " + reference + " in "
                               + dataset::DataFolder::catalog_file(data_dir).string())
            << "\n";
  return 0;
}

} // namespace layerbench::cli
