// SPDX-License-Identifier: MIT
#pragma once

// `layerbench run --rounds N`: the matrix measured N times, each round by a fresh `layerbench run`
// process with its own shuffled cell order, and the rounds combined into one dataset
// (dataset/rounds.hpp). The rounds' files live in OUT.rounds/ until the dataset is written, so that an
// interrupted run continues with --resume, mid-round, and a round that dies is recorded with its reason
// while the others are kept. With --stop-after-round K the run stops, uncombined, once rounds 1 to K are
// there, and --resume goes on from them: runs of several torch releases then take turns round by round.

#if LAYERBENCH_WITH_TORCH

#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace layerbench::cli {

int run_rounds(const boost::program_options::variables_map& values);

// The options given to `run`, rebuilt as arguments for one round's process: everything but --rounds,
// --stop-after-round, --seed, --out, --resume and --order-seed, which belong to the run of rounds or
// which the round sets itself. Exposed for its test.
std::vector<std::string> round_arguments(const boost::program_options::variables_map& values);

} // namespace layerbench::cli

#endif
