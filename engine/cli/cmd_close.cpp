// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "dataset/close.hpp"
#include "dataset/io.hpp"
#include "util/error.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace layerbench::cli {

int cmd_close(const Arguments& arguments)
{
  po::options_description options("close options");
  options.add_options()("out", po::value<std::string>()->required(), "the closed dataset (must not exist)")(
    "reason", po::value<std::string>()->required(),
    "why the run cannot be continued; every missing cell is recorded as skipped, \"not measured: REASON\"");
  po::options_description hidden;
  hidden.add_options()("checkpoint", po::value<std::string>()->required(), "the run's OUT.partial");
  po::positional_options_description positional;
  positional.add("checkpoint", 1);
  const auto values = parse("close", "CHECKPOINT --out FILE --reason TEXT\n\n"
                                     "Turns the checkpoint of a run that cannot be continued (its machine is gone, as a GPU\n"
                                     "lease's is when its time ends) into a dataset: the cells it measured, unchanged, and every\n"
                                     "other cell of its declared matrix recorded as skipped with the reason. Where the machine\n"
                                     "is at hand, continue the run instead (run ... --resume).",
                            options, arguments, positional, hidden);
  if (!values) {
    return 0;
  }
  const auto file = (*values)["checkpoint"].as<std::string>();
  const auto out = (*values)["out"].as<std::string>();
  // Read as run --resume reads a checkpoint: sound in all but the cells it has not reached yet. Closing adds
  // skipped cells and nothing else.
  auto run = dataset::load(file, dataset::Completeness::partial);
  const auto measured = run.results.size();
  dataset::Dataset closed;
  try {
    closed = dataset::close_unfinished(std::move(run), (*values)["reason"].as<std::string>());
  } catch (const UsageError&) {
    throw;
  } catch (const Error& error) {
    throw Error(file + ": " + error.what());
  }
  dataset::save(out, closed, util::Overwrite::no);
  std::cout << "closed " << file << ": " << measured << " measured cells kept, " << closed.results.size() - measured
            << " recorded as not measured, into " << out << "\n";
  return 0;
}

} // namespace layerbench::cli
