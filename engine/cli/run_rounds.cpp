// SPDX-License-Identifier: MIT
#include "cli/run_rounds.hpp"

#if LAYERBENCH_WITH_TORCH

#include "cli/command.hpp"
#include "cli/run_options.hpp"
#include "cli/run_output.hpp"
#include "dataset/io.hpp"
#include "dataset/rounds.hpp"
#include "dataset/validate.hpp"
#include "util/child_process.hpp"
#include "util/error.hpp"
#include "util/file.hpp"
#include "util/format.hpp"

#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <sys/wait.h>

namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

std::filesystem::path rounds_folder(const std::filesystem::path& out) { return out.string() + ".rounds"; }
std::filesystem::path round_file(const std::filesystem::path& folder, int index)
{
  return folder / ("round-" + std::to_string(index) + ".json");
}
std::filesystem::path failed_file(const std::filesystem::path& folder, int index)
{
  return folder / ("round-" + std::to_string(index) + ".failed");
}

std::string read_text(const std::filesystem::path& path)
{
  const auto read = util::read_file(path);
  if (!read) {
    throw Error(path.string() + ": " + read.error());
  }
  std::string text = *read;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  return text;
}

void write_text(const std::filesystem::path& path, const std::string& text)
{
  const auto written = util::write_file_atomic(path, text + "\n", util::Overwrite::yes);
  if (!written) {
    throw Error(path.string() + ": " + written.error());
  }
}

// The run's seed: recorded in the folder when the run starts, read back when it resumes.
uint32_t run_seed(const std::filesystem::path& folder, const std::optional<uint32_t>& given, bool resuming)
{
  const auto path = folder / "seed";
  if (!resuming) {
    const uint32_t seed = given ? *given : std::random_device{}();
    write_text(path, std::to_string(seed));
    return seed;
  }
  const auto text = read_text(path);
  uint32_t seed = 0;
  try {
    seed = static_cast<uint32_t>(std::stoul(text));
  } catch (const std::exception&) {
    throw Error(path.string() + ": \"" + text + "\" is not a seed; delete the folder to start afresh");
  }
  if (given && *given != seed) {
    throw UsageError("--seed: " + std::to_string(*given) + " differs from the seed of the run being resumed ("
                     + std::to_string(seed) + ", in " + path.string() + ")");
  }
  return seed;
}

// Why a round's process ended without a dataset, in words for the dataset.
std::string exit_reason(const util::ChildExit& exit)
{
  const auto reason = util::describe_exit(exit.status);
  return exit.last_error.empty() ? reason : reason + ": " + exit.last_error;
}

dataset::RoundResult failed_round(int index, uint32_t order_seed, const std::string& reason)
{
  dataset::RoundResult result;
  result.record.index = index;
  result.record.status = "failed";
  result.record.reason = reason;
  result.record.order_seed = order_seed;
  return result;
}

// One round: already finished or failed (a resumed run), or measured now.
dataset::RoundResult round(const po::variables_map& values, const std::filesystem::path& folder, int index, int count,
                           uint32_t seed)
{
  const auto order_seed = dataset::derived_seed(seed, index);
  const auto file = round_file(folder, index);
  if (std::filesystem::exists(file)) {
    return dataset::finished_round(index, dataset::load(file), order_seed);
  }
  if (std::filesystem::exists(failed_file(folder, index))) {
    return failed_round(index, order_seed, read_text(failed_file(folder, index)));
  }
  std::vector<std::string> arguments{"layerbench", "run"};
  for (auto& argument : round_arguments(values)) {
    arguments.push_back(std::move(argument));
  }
  arguments.insert(arguments.end(), {"--out", file.string(), "--order-seed", std::to_string(order_seed)});
  // The device's peaks and the cells' operator profiles are taken once, in the first round.
  for (const char* skip : {"no-peaks", "no-profiles"}) {
    if (index > 1 && !values.count(skip)) {
      arguments.push_back(std::string("--") + skip);
    }
  }
  if (std::filesystem::exists(file.string() + ".partial")) {
    arguments.emplace_back("--resume");
  }
  std::cerr << "layerbench: round " << index << " of " << count << " (cell order seed " << order_seed << ")\n";
  // Its standard error is copied through as it comes; its last error line names a failed round.
  const auto exit = util::run_children({util::ChildSpec{arguments, {}, ""}}, "layerbench: error: ").front();
  if (util::interrupts_received() > 0) {
    throw Error("interrupted in round " + std::to_string(index) + " of " + std::to_string(count)
                + ": the finished rounds and this round's checkpoint are in " + folder.string()
                + "; continue with the same command and --resume");
  }
  if (exit.status == 0 && std::filesystem::exists(file)) {
    return dataset::finished_round(index, dataset::load(file), order_seed);
  }
  // A usage error would end every round the same way: the arguments, not the round, are wrong.
  if (WIFEXITED(exit.status) && WEXITSTATUS(exit.status) == 2) {
    throw Error("round " + std::to_string(index) + " refused its arguments: " + exit.last_error);
  }
  const auto reason = exit_reason(exit);
  std::cerr << "layerbench: warning: round " << index << " failed (" << reason << "); the other rounds go on\n";
  write_text(failed_file(folder, index), reason);
  return failed_round(index, order_seed, reason);
}

void remove_folder(const std::filesystem::path& folder)
{
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    std::filesystem::remove(entry.path());
  }
  std::filesystem::remove(folder);
}

// The rounds combined into OUT, which is written only when it validates; the rounds' folder goes with it.
int write_combined(const std::filesystem::path& out, const std::filesystem::path& folder,
                   const std::vector<dataset::RoundResult>& rounds, uint32_t seed, const std::string& invocation)
{
  auto combined = dataset::combine_rounds(rounds, seed);
  combined.provenance.command_line = invocation;
  // Checked before it is written: a combination that does not validate keeps the rounds' files.
  const auto problems = dataset::check(combined);
  if (!problems.empty()) {
    throw Error(out.string() + ": the combined rounds do not validate (" + problems.front().pointer + ": "
                + problems.front().message + "); the rounds are kept in " + folder.string());
  }
  dataset::save(out, combined, util::Overwrite::no);
  remove_folder(folder);

  size_t failed = 0;
  for (const auto& round : rounds) {
    failed += round.dataset ? 0 : 1;
  }
  std::cout << "wrote " << out.string() << ": " << combined.results.size() << " cells, the median of "
            << (rounds.size() - failed) << " rounds" << (failed == 0 ? "" : " (" + std::to_string(failed) + " failed)")
            << ", seed " << seed << "\n";
  return 0;
}

} // namespace

std::vector<std::string> round_arguments(const po::variables_map& values)
{
  static const std::set<std::string> k_set_by_round{"rounds", "stop-after-round", "seed", "out", "resume", "order-seed"};
  const auto options = run_options();
  std::vector<std::string> arguments;
  for (const auto& [name, value] : values) {
    if (value.defaulted() || k_set_by_round.count(name) != 0) {
      continue;
    }
    const auto& any = value.value();
    const std::string option = "--" + name;
    const auto* described = options.find_nothrow(name, false);
    if (described != nullptr && described->semantic()->max_tokens() == 0) {
      arguments.push_back(option); // a switch
    } else if (const auto* text = boost::any_cast<std::string>(&any)) {
      arguments.push_back(option + "=" + *text);
    } else if (const auto* list = boost::any_cast<std::vector<std::string>>(&any)) {
      for (const auto& item : *list) {
        arguments.push_back(option + "=" + item);
      }
    } else if (const auto* whole = boost::any_cast<int>(&any)) {
      arguments.push_back(option + "=" + std::to_string(*whole));
    } else if (const auto* wide = boost::any_cast<long long>(&any)) {
      arguments.push_back(option + "=" + std::to_string(*wide));
    } else if (const auto* number = boost::any_cast<double>(&any)) {
      std::ostringstream exact;
      exact.precision(17);
      exact << *number;
      arguments.push_back(option + "=" + exact.str());
    } else {
      throw Error("run: option " + option + " has a type that cannot be passed on to a round");
    }
  }
  return arguments;
}

int run_rounds(const po::variables_map& values)
{
  const int count = parse_rounds(values);
  const int last = parse_stop_after_round(values, count);
  check_matrix_arguments(values);
  require(!values.count("shard") && !values.count("plan-from"),
          "--rounds: measures the whole matrix in every round; it does not take --shard or --plan-from");
  require(!values.count("order-seed"), "--rounds: every round shuffles the cells by a seed of its own; use --seed, not --order-seed");
  const bool resuming = values.count("resume") != 0;
  const auto out = output_path(values);
  const auto given_seed = parse_seed(values, "seed");
  const auto invocation = recorded_invocation();
  check_directory(out);
  const RunLock lock(out);
  check_target(out);
  const auto folder = rounds_folder(out);
  if (!resuming && std::filesystem::exists(folder)) {
    throw Error(folder.string() + ": an interrupted run in rounds left its rounds here; continue it with --resume, "
                "or delete the folder to start afresh");
  }
  if (resuming && !std::filesystem::is_directory(folder)) {
    throw Error(folder.string() + ": no rounds to resume");
  }
  std::filesystem::create_directories(folder);
  const auto seed = run_seed(folder, given_seed, resuming);
  std::cerr << "layerbench: " << count << " rounds, seed " << seed << ", the rounds' files in " << folder.string() << "\n";

  util::count_interrupts();
  std::vector<dataset::RoundResult> rounds;
  for (int index = 1; index <= last; ++index) {
    rounds.push_back(round(values, folder, index, count, seed));
  }
  if (last < count) {
    // The folder, its seed and its rounds are what --resume continues from, as after an interruption.
    std::cout << "round " << last << " of " << count << " done; run again with --resume to continue (the rounds are in "
              << folder.string() << ")\n";
    return 0;
  }
  return write_combined(out, folder, rounds, seed, invocation);
}

} // namespace layerbench::cli

#endif
