// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "dataset/diff.hpp"
#include "dataset/io.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

std::string device_text(const dataset::Dataset& d)
{
  if (!d.environment) {
    return "an unrecorded device";
  }
  return util::printable(d.environment->device.type + " \"" + d.environment->device.name + "\"");
}

// The ratios of two devices measure the devices, not a change between runs; say so, but compare anyway.
void warn_if_other_device(const dataset::Dataset& a, const std::string& a_name, const dataset::Dataset& b,
                          const std::string& b_name)
{
  if (device_text(a) == device_text(b)) {
    return;
  }
  std::cerr << "layerbench: warning: diff: " << util::printable(a_name) << " ran on " << device_text(a) << ", " << util::printable(b_name)
            << " on " << device_text(b) << ": the ratios compare the devices, not two runs of one\n";
}

} // namespace

int cmd_diff(const Arguments& arguments)
{
  po::options_description options("diff options");
  options.add_options()("format", po::value<std::string>()->default_value("text"), "text, markdown or json")(
    "threshold", po::value<double>()->default_value(dataset::k_diff_threshold, "0.1"),
    "the smallest relative change called, 0 to 10 (0.1: 10%); smaller changes are 'unchanged' whatever the intervals");
  po::options_description hidden;
  hidden.add_options()("a", po::value<std::string>()->required(), "the baseline dataset A")("b", po::value<std::string>()->required(), "the candidate dataset B");
  po::positional_options_description positional;
  positional.add("a", 1).add("b", 1);
  const auto values = parse("diff", "A B [--format text|markdown|json] [--threshold X]\n\nPer-cell ratio B/A of the median "
                                    "times. A cell is faster or slower only when |B/A - 1| is at\nleast the threshold and "
                                    "the two medians' intervals do not overlap: the bootstrap 95%\nintervals of cells "
                                    "measured in rounds, else the [p25, p75] intervals, with |B/A - 1|\nalso above both "
                                    "runs' (p75 - p25) / median.",
                            options, arguments, positional, hidden);
  if (!values) {
    return 0;
  }
  const auto format_text = (*values)["format"].as<std::string>();
  const auto format = dataset::parse_diff_format(format_text);
  if (!format) {
    throw UsageError("--format: \"" + format_text + "\" is not one of text, markdown, json");
  }
  const double threshold = (*values)["threshold"].as<double>();
  if (!(threshold >= 0 && threshold <= 10)) {
    throw UsageError("--threshold: " + std::to_string(threshold) + " is outside its range, 0 to 10");
  }
  const auto a_name = (*values)["a"].as<std::string>();
  const auto b_name = (*values)["b"].as<std::string>();
  const auto a = dataset::load(a_name);
  const auto b = dataset::load(b_name);
  warn_if_other_device(a, a_name, b, b_name);
  const auto result = dataset::diff(a, b, threshold);
  std::cout << dataset::format_diff(result, a_name, b_name, *format);
  return 0;
}

} // namespace layerbench::cli
