// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "dataset/io.hpp"
#include "dataset/scaling.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace layerbench::cli {

int cmd_scaling(const Arguments& arguments)
{
  po::options_description options("scaling options");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::vector<std::string>>()->required(), "at least one FILE");
  po::positional_options_description positional;
  positional.add("file", -1);
  const auto values = parse("scaling",
                            "FILE...\n\nThe scaling factor of data-parallel training, throughput(N) / (N x throughput(1)), "
                            "for every whole model's\ntraining step that the files hold both at world size N "
                            "('run --world-size N') and from one process,\nwith the range the two medians' intervals allow "
                            "(docs/scale.md). The files describe one device.",
                            options, arguments, positional, hidden);
  if (!values) {
    return 0;
  }
  const auto files = (*values)["file"].as<std::vector<std::string>>();
  std::vector<dataset::Dataset> loaded;
  for (const auto& file : files) {
    loaded.push_back(dataset::load(file));
  }
  std::vector<dataset::NamedDataset> named;
  for (size_t i = 0; i < files.size(); ++i) {
    named.push_back({files[i], &loaded[i]});
  }
  std::cout << dataset::format_scaling(dataset::scaling(named));
  return 0;
}

} // namespace layerbench::cli
