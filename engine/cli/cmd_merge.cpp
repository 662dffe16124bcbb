// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "dataset/io.hpp"
#include "dataset/merge.hpp"
#include "dataset/rounds.hpp"
#include "util/error.hpp"

#include <iostream>
#include <random>


namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

// Whole runs of one matrix joined as the rounds of one dataset (dataset/rounds.hpp).
dataset::Dataset join_rounds(std::vector<dataset::ShardFile> runs, const po::variables_map& values)
{
  std::vector<dataset::RoundResult> rounds;
  for (auto& [file, run] : runs) {
    if (run.rounds) {
      throw Error(file + ": is already a run in rounds; join single runs");
    }
    if (run.methodology && !run.methodology->shard.empty()) {
      throw Error(file + ": is one shard (" + run.methodology->shard + "); merge the shards first");
    }
    // Each run measured in its own order, which it does not record: matrix order, no seed.
    rounds.push_back(dataset::finished_round(static_cast<int>(rounds.size()) + 1, std::move(run), std::nullopt));
  }
  if (values.count("seed") && values["seed"].as<unsigned long>() > 4294967295UL) {
    throw UsageError("--seed: " + std::to_string(values["seed"].as<unsigned long>()) + " is outside its range, 0 to 4294967295");
  }
  const auto seed = values.count("seed") ? static_cast<uint32_t>(values["seed"].as<unsigned long>()) : std::random_device{}();
  auto joined = dataset::combine_rounds(rounds, seed, dataset::RoundSource::joined_runs);
  joined.provenance.command_line = recorded_invocation();
  return joined;
}

} // namespace

int cmd_merge(const Arguments& arguments)
{
  po::options_description options("merge options");
  options.add_options()("out", po::value<std::string>()->required(), "the merged dataset (must not exist)")(
    "rounds", "join whole runs of one matrix as the rounds of one dataset (median of round medians, bootstrap interval) "
              "instead of shards")(
    "union", "join whole runs of one device, build and method that measured different cells (each model at its own "
             "batch size, say) into one dataset, its matrix listed cell by cell")(
    "seed", po::value<unsigned long>(), "with --rounds: the bootstrap's seed (default: a random one, recorded)");
  po::options_description hidden;
  hidden.add_options()("shard", po::value<std::vector<std::string>>()->required(), "at least one SHARD");
  po::positional_options_description positional;
  positional.add("shard", -1);
  const auto values = parse("merge", "SHARD... --out FILE\n       RUN... --rounds --out FILE\n       RUN... --union --out FILE\n\n"
                                     "Combines the shards of one run (layerbench run --shard I/N) into one dataset; with --rounds,\n"
                                     "whole runs of one matrix on one device, as the rounds of one dataset (as run --rounds would);\n"
                                     "with --union, whole runs of one device and build that measured different cells.",
                            options, arguments, positional, hidden);
  if (!values) {
    return 0;
  }
  const auto files = (*values)["shard"].as<std::vector<std::string>>();
  if (values->count("rounds") && values->count("union")) {
    throw UsageError("--rounds and --union: give one; rounds repeat one matrix, a union joins different cells");
  }
  const bool in_rounds = values->count("rounds") > 0;
  if (in_rounds && (files.size() < 2 || static_cast<int>(files.size()) > dataset::k_max_rounds)) {
    throw UsageError("--rounds: give 2 to " + std::to_string(dataset::k_max_rounds) + " runs, not " + std::to_string(files.size()));
  }
  // Every path reads its files here, once: a file that cannot be read is named before anything is joined.
  std::vector<dataset::ShardFile> parts;
  for (const auto& file : files) {
    parts.push_back({file, dataset::load(file)});
  }
  if (in_rounds) {
    const auto joined = join_rounds(std::move(parts), *values);
    const auto out = (*values)["out"].as<std::string>();
    dataset::save(out, joined, util::Overwrite::no);
    std::cout << "joined " << files.size() << " runs as rounds, " << joined.results.size() << " cells, into " << out << "\n";
    return 0;
  }
  const bool union_of_runs = values->count("union") > 0;
  const auto merged = union_of_runs ? dataset::union_runs(parts, recorded_invocation()) : dataset::merge(parts, recorded_invocation());
  const auto out = (*values)["out"].as<std::string>();
  dataset::save(out, merged, util::Overwrite::no);
  std::cout << (union_of_runs ? "joined " + std::to_string(parts.size()) + " runs as one union, "
                              : "merged " + std::to_string(parts.size()) + " shard(s), ")
            << merged.results.size() << " cells, into " << out << "\n";
  return 0;
}

} // namespace layerbench::cli
