// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "dataset/io.hpp"
#include "dataset/merge.hpp"

#include <iostream>


namespace po = boost::program_options;

namespace layerbench::cli {

int cmd_merge(const Arguments& arguments)
{
  po::options_description options("merge options");
  options.add_options()("out", po::value<std::string>()->required(), "the merged dataset (must not exist)");
  po::options_description hidden;
  hidden.add_options()("shard", po::value<std::vector<std::string>>()->required(), "at least one SHARD");
  po::positional_options_description positional;
  positional.add("shard", -1);
  const auto values = parse("merge", "SHARD... --out FILE\n\nCombines the shards of one run (layerbench run --shard I/N) "
                                     "into one dataset.",
                            options, arguments, positional, hidden);
  if (!values) {
    return 0;
  }
  std::vector<dataset::ShardFile> shards;
  for (const auto& file : (*values)["shard"].as<std::vector<std::string>>()) {
    shards.push_back({file, dataset::load(file)});
  }
  auto merged = dataset::merge(shards, recorded_invocation());
  const auto out = (*values)["out"].as<std::string>();
  dataset::save(out, merged, util::Overwrite::no);
  std::cout << "merged " << shards.size() << " shard(s), " << merged.results.size() << " cells, into " << out << "\n";
  return 0;
}

} // namespace layerbench::cli
