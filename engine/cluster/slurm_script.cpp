// SPDX-License-Identifier: MIT
#include "cluster/slurm_script.hpp"

#include "util/error.hpp"
#include "util/text.hpp"

#include <cstdio>
#include <sstream>

namespace layerbench::cluster {

namespace {

// The value of an #SBATCH directive as sbatch reads it: a word ends at white space and an unquoted '#'
// starts a comment, so anything but a plain word is double-quoted, with '"', '\\' and '#' escaped by a
// backslash (older sbatch ends a directive at '#' even inside quotes).
std::string directive_value(const std::string& value)
{
  if (!value.empty() && value.find_first_of(" \t\"'\\#") == std::string::npos) {
    return value;
  }
  std::string quoted = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\' || c == '#') {
      quoted += '\\';
    }
    quoted += c;
  }
  return quoted + "\"";
}

// Slurm expands %-patterns in the --output file name (%a: the task); a '%' of the folder is literal.
std::string literal_percent(const std::string& path)
{
  std::string literal;
  for (char c : path) {
    literal += c == '%' ? std::string("%%") : std::string(1, c);
  }
  return literal;
}

void directive(std::ostringstream& script, const std::string& option, const std::string& value)
{
  script << "#SBATCH --" << option << "=" << directive_value(value) << "\n";
}

enum class Tasks { one, ranks };

void header(std::ostringstream& script, const SlurmJob& job, const std::string& name, const std::string& log, Tasks tasks)
{
  script << "#!/bin/bash\n";
  directive(script, "job-name", name);
  directive(script, "output", literal_percent(job.out_dir) + "/logs/" + log);
  script << "#SBATCH --open-mode=append\n";
  if (tasks == Tasks::ranks && world_size(job) > 1) {
    script << "#SBATCH --nodes=" << job.nodes << "\n"
           << "#SBATCH --ntasks-per-node=" << job.tasks_per_node << "\n";
  } else {
    script << "#SBATCH --ntasks=1\n";
  }
  if (!job.work_dir.empty()) {
    directive(script, "chdir", job.work_dir);
  }
  const std::pair<const char*, const std::string*> passed[] = {
    {"partition", &job.partition}, {"time", &job.time_limit}, {"account", &job.account}, {"constraint", &job.constraint}};
  for (const auto& [option, value] : passed) {
    if (!value->empty()) {
      directive(script, option, *value);
    }
  }
}

std::string joined(const std::vector<std::string>& words)
{
  std::string line;
  for (const auto& word : words) {
    line += " " + util::shell_quote(word);
  }
  return line;
}

// A comment line stays one line whatever the plan's text holds.
std::string comment(std::string text)
{
  for (auto at = util::control_character_at(text); at; at = util::control_character_at(text)) {
    text[*at] = ' ';
  }
  return "# " + text + "\n";
}

void refuse_control_characters(const std::string& what, const std::string& value)
{
  const auto at = util::control_character_at(value);
  if (!at) {
    return;
  }
  char code[8];
  std::snprintf(code, sizeof code, "%02X", static_cast<unsigned char>(value[*at]));
  throw Error(what + ": control character U+00" + code + " at byte " + std::to_string(*at)
              + "; a job script takes one line per option");
}

// A data-parallel task's ranks are one job step: srun starts them on the task's nodes, sets the
// variables the rendezvous reads (SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURM_STEP_NODELIST), and
// ends them all when one fails instead of leaving the others to their timeout.
std::string launch(const SlurmJob& job)
{
  if (world_size(job) == 1) {
    return "";
  }
  return "srun --kill-on-bad-exit=1 ";
}

} // namespace

void check_job(const SlurmJob& job)
{
  const std::pair<const char*, const std::string*> named[] = {
    {"--layerbench", &job.layerbench}, {"--out-dir", &job.out_dir},   {"the working folder", &job.work_dir},
    {"--partition", &job.partition},   {"--time", &job.time_limit},   {"--account", &job.account},
    {"--constraint", &job.constraint}, {"--job-name", &job.job_name}};
  for (const auto& [what, value] : named) {
    refuse_control_characters(what, *value);
  }
  for (const auto& argument : job.run_arguments) {
    const auto at = util::control_character_at(argument);
    refuse_control_characters("run argument \"" + argument.substr(0, at.value_or(argument.size())) + "...\"", argument);
  }
  // Slurm takes a backslash anywhere in the --output name as "expand no pattern": every task's log
  // would go to one file named shard-%a.log.
  if (job.out_dir.find('\\') != std::string::npos) {
    throw Error("--out-dir: " + job.out_dir + ": a backslash stops Slurm from naming each task's log; "
                "choose a folder without one");
  }
}

std::string shard_file(int index, int count)
{
  return "shard-" + std::to_string(index) + "-of-" + std::to_string(count) + ".json";
}

std::string array_script(const SlurmJob& job)
{
  check_job(job);
  std::ostringstream script;
  header(script, job, job.job_name + "-shards", "shard-%a.log", Tasks::ranks);
  script << "#SBATCH --array=0-" << job.shards - 1;
  if (job.max_running) {
    script << "%" << *job.max_running;
  }
  script << "\n";
  if (job.gpu == Gpu::one) {
    script << "#SBATCH --gres=gpu:" << job.tasks_per_node << "\n";
  }
  // A preempted or requeued task starts again from the top and picks up its checkpoint.
  script << "#SBATCH --requeue\n";
  for (const auto& line : job.plan_lines) {
    script << comment(line);
  }
  const auto dir = util::shell_quote(job.out_dir);
  script << "set -euo pipefail\n"
         << "shard=$((SLURM_ARRAY_TASK_ID + 1))\n"
         << "out=" << dir << "/shard-${shard}-of-" << job.shards << ".json\n"
         << "if [[ -e \"$out\" ]]; then\n"
         << "  echo \"layerbench: $out is already measured\"\n"
         << "  exit 0\n"
         << "fi\n"
         << "resume=\n"
         << "if [[ -e \"$out.partial\" ]]; then\n"
         << "  resume=--resume\n"
         << "fi\n"
         // exec, so that Slurm's SIGTERM on requeue or preemption reaches run, which saves its checkpoint.
         << "exec " << launch(job) << util::shell_quote(job.layerbench) << " run" << joined(job.run_arguments) << " --shard \"$shard/"
         << job.shards << "\" --out \"$out\" $resume\n";
  return script.str();
}

std::string merge_script(const SlurmJob& job)
{
  check_job(job);
  std::ostringstream script;
  header(script, job, job.job_name + "-merge", "merge.log", Tasks::one);
  const auto dir = util::shell_quote(job.out_dir);
  const auto binary = util::shell_quote(job.layerbench);
  script << "set -euo pipefail\n"
         << "merged=" << dir << "/" << k_merged_file << "\n"
         << "if [[ ! -e \"$merged\" ]]; then\n"
         << "  " << binary << " merge";
  for (int index = 1; index <= job.shards; ++index) {
    script << " " << dir << "/" << shard_file(index, job.shards);
  }
  script << " --out \"$merged\"\n"
         << "fi\n"
         << binary << " validate \"$merged\"\n";
  return script.str();
}

std::string parse_job_id(const std::string& sbatch_output)
{
  std::string text = sbatch_output;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) {
    text.pop_back();
  }
  const auto id = text.substr(0, text.find(';'));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    throw Error("sbatch answered \"" + text + "\", not a job id");
  }
  return id;
}

} // namespace layerbench::cluster
