// SPDX-License-Identifier: MIT
#include "cluster/slurm_script.hpp"

#include "util/error.hpp"

#include <sstream>

namespace layerbench::cluster {

namespace {

void header(std::ostringstream& script, const SlurmJob& job, const std::string& name, const std::string& log)
{
  script << "#!/bin/bash\n"
         << "#SBATCH --job-name=" << name << "\n"
         << "#SBATCH --output=" << job.out_dir << "/logs/" << log << "\n"
         << "#SBATCH --open-mode=append\n"
         << "#SBATCH --ntasks=1\n";
  if (!job.work_dir.empty()) {
    script << "#SBATCH --chdir=" << job.work_dir << "\n";
  }
  const std::pair<const char*, const std::string*> passed[] = {
    {"partition", &job.partition}, {"time", &job.time_limit}, {"account", &job.account}, {"constraint", &job.constraint}};
  for (const auto& [option, value] : passed) {
    if (!value->empty()) {
      script << "#SBATCH --" << option << "=" << *value << "\n";
    }
  }
}

std::string joined(const std::vector<std::string>& words)
{
  std::string line;
  for (const auto& word : words) {
    line += " " + shell_quote(word);
  }
  return line;
}

} // namespace

std::string shell_quote(const std::string& word)
{
  const bool plain = !word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                             "0123456789@%+=:,./_-") == std::string::npos;
  if (plain) {
    return word;
  }
  std::string quoted = "'";
  for (char c : word) {
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return quoted + "'";
}

std::string shard_file(int index, int count)
{
  return "shard-" + std::to_string(index) + "-of-" + std::to_string(count) + ".json";
}

std::string array_script(const SlurmJob& job)
{
  std::ostringstream script;
  header(script, job, job.job_name + "-shards", "shard-%a.log");
  script << "#SBATCH --array=0-" << job.shards - 1;
  if (job.max_running) {
    script << "%" << *job.max_running;
  }
  script << "\n";
  if (job.gpu == Gpu::one) {
    script << "#SBATCH --gres=gpu:1\n";
  }
  // A preempted or requeued task starts again from the top and picks up its checkpoint.
  script << "#SBATCH --requeue\n";
  for (const auto& line : job.plan_lines) {
    script << "# " << line << "\n";
  }
  const auto dir = shell_quote(job.out_dir);
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
         << "exec " << shell_quote(job.layerbench) << " run" << joined(job.run_arguments) << " --shard \"$shard/"
         << job.shards << "\" --out \"$out\" $resume\n";
  return script.str();
}

std::string merge_script(const SlurmJob& job)
{
  std::ostringstream script;
  header(script, job, job.job_name + "-merge", "merge.log");
  const auto dir = shell_quote(job.out_dir);
  const auto binary = shell_quote(job.layerbench);
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
