// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "util/error.hpp"

#if LAYERBENCH_WITH_TORCH

#include "bench/runner.hpp"
#include "bench/shard_plan.hpp"
#include "cli/run_options.hpp"
#include "cli/run_ranks.hpp"
#include "cluster/slurm_script.hpp"
#include "util/file.hpp"
#include "util/format.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace layerbench::cli {

namespace {

po::options_description slurm_options()
{
  po::options_description options("slurm options");
  options.add_options()
    ("out-dir", po::value<std::string>()->required(), "shared folder for the scripts, logs, shards and merged.json "
                                                     "(created; must be visible from every node)")
    ("shards", po::value<int>()->required(), "split the matrix in N shards, one array task each")
    ("max-running", po::value<int>(), "run at most K tasks at once (the array's %K), 1 to --shards")
    ("partition", po::value<std::string>(), "sbatch --partition")
    ("time", po::value<std::string>(), "sbatch --time, per task (for example 2:00:00)")
    ("account", po::value<std::string>(), "sbatch --account")
    ("constraint", po::value<std::string>(), "sbatch --constraint (one GPU type per dataset: for example h100)")
    ("job-name", po::value<std::string>()->default_value("layerbench"), "prefix of the two jobs' names")
    ("layerbench", po::value<std::string>(), "the layerbench binary as the nodes see it (default: this one)")
    ("nodes", po::value<int>()->default_value(1), "data-parallel: nodes per task; the task runs 'srun layerbench run "
                                                  "--world-size <nodes x ntasks-per-node>' (whole models' training steps)")
    ("ntasks-per-node", po::value<int>()->default_value(1), "data-parallel: ranks per node, one GPU each with --device cuda")
    ("submit", "submit the two jobs with sbatch and print their ids (default: write and print the scripts)");
  return options;
}

const std::set<std::string>& slurm_only()
{
  static const std::set<std::string> names = {"out-dir", "shards", "max-running", "partition", "time", "account",
                                              "constraint", "job-name", "layerbench", "submit", "nodes",
                                              "ntasks-per-node"};
  return names;
}

// The run options as typed, so that every task is given exactly what the plan was made from.
std::vector<std::string> run_arguments(const Arguments& arguments, const po::options_description& all)
{
  std::vector<std::string> passed;
  const auto parsed = po::command_line_parser(arguments).options(all).run();
  for (const auto& option : parsed.options) {
    if (slurm_only().count(option.string_key) == 0) {
      passed.insert(passed.end(), option.original_tokens.begin(), option.original_tokens.end());
    }
  }
  return passed;
}

std::string this_binary()
{
  std::error_code error;
  const auto path = fs::read_symlink("/proc/self/exe", error);
  return error ? std::string("layerbench") : path.string();
}

void write_script(const fs::path& path, const std::string& text)
{
  const auto written = util::write_file_atomic(path, text, util::Overwrite::yes);
  if (!written) {
    throw Error(path.string() + ": " + written.error());
  }
}

void prepare_out_dir(const fs::path& dir)
{
  std::error_code error;
  fs::create_directories(dir / "logs", error);
  if (error) {
    throw Error("slurm: --out-dir " + dir.string() + ": cannot create it: " + error.message());
  }
  if (::access(dir.c_str(), W_OK) != 0 || ::access((dir / "logs").c_str(), W_OK) != 0) {
    throw Error("slurm: --out-dir " + dir.string() + ": not writable");
  }
}

// An --out-dir that already holds results is reused only for the same job: the array script is the
// job's whole description (its run arguments, shards and resources), so a different one means that the
// old shards belong to another matrix, and the merge would join them with the new ones.
void check_reuse(const fs::path& dir, const std::string& array_script)
{
  const auto previous = util::read_file(dir / cluster::k_array_script);
  if (!previous || *previous == array_script) {
    return;
  }
  std::vector<std::string> results;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    if (name.rfind("shard-", 0) == 0 || name == cluster::k_merged_file) {
      results.push_back(name);
    }
  }
  if (results.empty()) {
    return;
  }
  std::sort(results.begin(), results.end());
  std::istringstream old_lines(*previous);
  std::istringstream new_lines(array_script);
  std::string old_line;
  std::string new_line;
  while (std::getline(old_lines, old_line) && std::getline(new_lines, new_line) && old_line == new_line) {
  }
  throw Error("slurm: --out-dir " + dir.string() + " holds the results of another job (" + results.front()
              + (results.size() > 1 ? " and " + std::to_string(results.size() - 1) + " more" : "")
              + "), whose " + cluster::k_array_script + " differs: it has '" + old_line + "' where this one has '"
              + new_line + "'; choose a new --out-dir, or remove those files to start afresh");
}

bool on_path(const std::string& program)
{
  const char* path = std::getenv("PATH");
  std::string rest = path ? path : "";
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    const auto dir = rest.substr(0, colon);
    rest = colon == std::string::npos ? "" : rest.substr(colon + 1);
    if (!dir.empty() && ::access((fs::path(dir) / program).c_str(), X_OK) == 0) {
      return true;
    }
  }
  return false;
}

// Runs sbatch; returns the job id, or throws one line with sbatch's own complaint.
std::string sbatch(const std::vector<std::string>& arguments, const fs::path& script)
{
  std::string command = "sbatch --parsable";
  for (const auto& argument : arguments) {
    command += " " + util::shell_quote(argument);
  }
  command += " " + util::shell_quote(script.string()) + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    throw Error("slurm: cannot start sbatch");
  }
  std::string output;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) {
    output += buffer.data();
  }
  const int status = ::pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    while (!output.empty() && output.back() == '\n') {
      output.pop_back();
    }
    const auto last = output.substr(output.find_last_of('\n') == std::string::npos ? 0 : output.find_last_of('\n') + 1);
    throw Error("slurm: sbatch refused " + script.string() + ": " + (last.empty() ? "no message" : last));
  }
  return cluster::parse_job_id(output);
}

std::vector<std::string> describe(const bench::MatrixPlan& plan)
{
  std::vector<std::string> lines{"plan: " + plan.description};
  double longest = 0;
  double total = 0;
  for (size_t i = 0; i < plan.shards.size(); ++i) {
    const auto& shard = plan.shards[i];
    std::string cells;
    for (const auto& cell : shard.cells) {
      cells += (cells.empty() ? "" : ", ") + cell.layer + "@" + std::to_string(cell.batch_size)
               + (cell.axes.is_reference() ? "" : " " + dataset::label(cell.axes));
    }
    lines.push_back("shard " + std::to_string(i + 1) + "/" + std::to_string(plan.shards.size()) + ": expected "
                    + util::format_fixed(shard.seconds, 1) + " s, " + std::to_string(shard.cells.size()) + " cells: " + cells);
    longest = std::max(longest, shard.seconds);
    total += shard.seconds;
  }
  lines.push_back("expected wall time " + util::format_fixed(longest, 1) + " s with every shard at once ("
                  + util::format_fixed(total, 1) + " s in one process); longest shard / mean "
                  + util::format_fixed(dataset::balance(plan.shards), 2));
  return lines;
}

// --nodes and --ntasks-per-node: the ranks of each task, passed on as --world-size, which they set.
void set_ranks(const po::variables_map& values, const RunMatrix& matrix, cluster::SlurmJob& job)
{
  job.nodes = values["nodes"].as<int>();
  job.tasks_per_node = values["ntasks-per-node"].as<int>();
  require(job.nodes >= 1 && job.nodes <= 1 << 16, "slurm: --nodes: " + std::to_string(job.nodes) + " is outside its range, 1 to 65536");
  require(job.tasks_per_node >= 1 && job.tasks_per_node <= 1024,
          "slurm: --ntasks-per-node: " + std::to_string(job.tasks_per_node) + " is outside its range, 1 to 1024");
  require(values["world-size"].defaulted(), "slurm: --world-size is set for each task from --nodes x --ntasks-per-node");
  const int world = cluster::world_size(job);
  if (world == 1) {
    return;
  }
  require(world <= 1 << 20, "slurm: --nodes x --ntasks-per-node: " + std::to_string(world) + " ranks is more than 2^20");
  check_data_parallel(values, matrix, world, OutGiven::per_task);
  job.run_arguments.push_back("--world-size=" + std::to_string(world));
}

cluster::SlurmJob make_job(const po::variables_map& values, const Arguments& arguments, const po::options_description& all)
{
  for (const char* set_per_task : {"out", "shard", "resume"}) {
    require(values.count(set_per_task) == 0, std::string("slurm: --") + set_per_task
                                                  + " is set for each task; give --out-dir (see 'layerbench slurm --help')");
  }
  const auto device = values["device"].as<std::string>();
  require(device == "cpu" || device == "cuda", "slurm: --device: give cpu or cuda (the nodes, not this one, decide "
                                               "what 'auto' would mean), not '" + device + "'");
  cluster::SlurmJob job;
  job.out_dir = fs::absolute(values["out-dir"].as<std::string>()).lexically_normal().string();
  while (job.out_dir.size() > 1 && job.out_dir.back() == '/') {
    job.out_dir.pop_back();
  }
  job.shards = values["shards"].as<int>();
  require(job.shards >= 1, "slurm: --shards: must be at least 1");
  if (values.count("max-running")) {
    job.max_running = values["max-running"].as<int>();
    require(*job.max_running >= 1 && *job.max_running <= job.shards,
            "slurm: --max-running: " + std::to_string(*job.max_running) + " is outside its range, 1 to --shards ("
                + std::to_string(job.shards) + ")");
  }
  job.gpu = device == "cuda" ? cluster::Gpu::one : cluster::Gpu::none;
  const auto text = [&](const char* name) { return values.count(name) ? values[name].as<std::string>() : ""; };
  job.partition = text("partition");
  job.time_limit = text("time");
  job.account = text("account");
  job.constraint = text("constraint");
  job.job_name = text("job-name");
  job.layerbench = values.count("layerbench") ? text("layerbench") : this_binary();
  job.run_arguments = run_arguments(arguments, all);
  job.work_dir = fs::current_path().string();
  cluster::check_job(job);

  const auto matrix = resolve_matrix(values, device == "cuda" ? bench::DeviceKind::cuda : bench::DeviceKind::cpu);
  set_ranks(values, matrix, job);
  const auto source = values.count("plan-from")
                        ? std::optional<bench::PlanSource>(bench::load_plan_source(values["plan-from"].as<std::string>()))
                        : std::nullopt;
  const auto plan = bench::plan_matrix(matrix.layers, matrix.batch_sizes, dataset::corners(matrix.axes), matrix.settings,
                                       device == "cuda" ? bench::DeviceKind::cuda : bench::DeviceKind::cpu, source,
                                       job.shards);
  job.plan_lines = describe(plan);
  return job;
}

int slurm(const po::variables_map& values, const Arguments& arguments, const po::options_description& all)
{
  const auto job = make_job(values, arguments, all);
  const bool submit = values.count("submit") > 0;
  if (submit && !on_path("sbatch")) {
    throw Error("slurm: sbatch is not on PATH; run this on a Slurm login node, or leave out --submit and submit the "
                "scripts by hand");
  }
  const fs::path dir = job.out_dir;
  prepare_out_dir(dir);
  check_reuse(dir, cluster::array_script(job));
  const auto array_path = dir / cluster::k_array_script;
  const auto merge_path = dir / cluster::k_merge_script;
  write_script(array_path, cluster::array_script(job));
  write_script(merge_path, cluster::merge_script(job));
  for (const auto& line : job.plan_lines) {
    std::cerr << "layerbench: " << line << "\n";
  }
  if (!submit) {
    std::cout << "# " << array_path.string() << "\n" << cluster::array_script(job) << "\n# " << merge_path.string()
              << "\n" << cluster::merge_script(job) << "\n# submit with:\n#   id=$(sbatch --parsable "
              << util::shell_quote(array_path.string()) << ") && sbatch --dependency=afterok:${id%%;*} "
              << util::shell_quote(merge_path.string()) << "\n";
    return 0;
  }
  const auto array_id = sbatch({}, array_path);
  const auto merge_id = sbatch({"--dependency=afterok:" + array_id, "--kill-on-invalid-dep=yes"}, merge_path);
  std::cout << "array job " << array_id << " (" << job.shards << " shards), merge job " << merge_id << " -> "
            << (dir / cluster::k_merged_file).string() << "\n";
  return 0;
}

} // namespace

int cmd_slurm(const Arguments& arguments)
{
  po::options_description options = slurm_options();
  options.add(run_options());
  const auto values = parse("slurm", "--out-dir DIR --shards N --device cpu|cuda [run options]\n\n"
                                     "Writes a Slurm array job (one task per shard, each 'layerbench run --shard I/N', "
                                     "resuming when requeued) and a merge job that runs after it; --submit submits them.",
                            options, arguments);
  if (!values) {
    return 0;
  }
  po::options_description all = options;
  all.add_options()("help,h", "");
  return slurm(*values, arguments, all);
}

} // namespace layerbench::cli

#else

namespace layerbench::cli {

int cmd_slurm(const Arguments&)
{
  throw Error("slurm: this layerbench was built without LibTorch (LAYERBENCH_WITH_TORCH=OFF)");
}

} // namespace layerbench::cli

#endif
