// SPDX-License-Identifier: MIT
#include "cluster/slurm_script.hpp"

#include "test_shell.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <vector>

using namespace layerbench;
namespace fs = std::filesystem;

namespace {

cluster::SlurmJob job()
{
  cluster::SlurmJob job;
  job.layerbench = "/opt/lb/layerbench";
  job.out_dir = "/shared/run one";
  job.work_dir = "/home/me";
  job.shards = 4;
  job.run_arguments = {"--device", "cpu", "--layers", "Conv2d,LSTM", "--plan-from", "old.json"};
  job.plan_lines = {"shard 1/4: expected 2.0 s"};
  return job;
}

bool has(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}

std::string read(const fs::path& path)
{
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A folder name a shell or sbatch would misread in every way: spaces, quotes, substitutions, a
// comment sign, a Slurm %-pattern.
const std::string k_hostile = "run one 'two' \"three\" $(touch injected) `touch injected` #four %a";

// A scratch folder with a layerbench that writes each argument it was given on a line of its own.
struct Scratch
{
  Scratch()
  {
    fs::remove_all(dir);
    fs::create_directories(dir / k_hostile);
    std::ofstream(binary) << "#!/bin/bash\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> "
                          << util::shell_quote(calls.string()) << "\n";
    fs::permissions(binary, fs::perms::owner_all);
  }
  ~Scratch() { fs::remove_all(dir); }

  // Runs `script` with bash in the scratch folder, as Slurm's task `task` would.
  test::ShellResult run(const std::string& script, int task) const
  {
    std::ofstream(dir / "job.sh") << script;
    return test::shell("cd " + util::shell_quote(dir.string()) + " && SLURM_ARRAY_TASK_ID=" + std::to_string(task)
                       + " bash job.sh");
  }

  cluster::SlurmJob hostile_job() const
  {
    auto hostile = job();
    hostile.layerbench = binary.string();
    hostile.out_dir = (dir / k_hostile).string();
    hostile.job_name = "it's #1";
    hostile.run_arguments = {"--layers", "Linear", "--plan-from", "a b;$(touch injected).json"};
    return hostile;
  }

  const fs::path dir = fs::temp_directory_path() / ("layerbench-slurm-script-" + std::to_string(::getpid()));
  const fs::path binary = dir / "fake-layerbench";
  const fs::path calls = dir / "calls";
};

// The arguments of an #SBATCH line as sbatch reads them (src/sbatch/opt.c, _get_argument): words end
// at unquoted white space, quotes of either kind group, a backslash escapes the next character and an
// unquoted '#' ends the line.
std::vector<std::string> sbatch_words(const std::string& line)
{
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (size_t i = std::string("#SBATCH").size(); i < line.size(); ++i) {
    const char c = line[i];
    if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
      in_word = true;
    } else if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else {
        word += c;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == '#') {
      break;
    } else if (c == ' ' || c == '\t') {
      if (in_word) {
        words.push_back(word);
      }
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) {
    words.push_back(word);
  }
  return words;
}

// Every #SBATCH line of a script, each read as sbatch reads it.
std::vector<std::vector<std::string>> directives(const std::string& script)
{
  std::vector<std::vector<std::string>> found;
  std::istringstream lines(script);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("#SBATCH", 0) == 0) {
      found.push_back(sbatch_words(line));
    }
  }
  return found;
}

} // namespace

TEST_CASE("cluster::array_script")
{
  SUBCASE("one task per shard, each running its shard into the shared folder and resuming its checkpoint")
  {
    const auto script = cluster::array_script(job());
    CHECK(script.rfind("#!/bin/bash\n", 0) == 0);
    CHECK(has(script, "#SBATCH --array=0-3\n"));
    CHECK(has(script, "#SBATCH --requeue\n"));
    CHECK(has(script, "#SBATCH --chdir=/home/me\n"));
    CHECK(has(script, "#SBATCH --output=\"/shared/run one/logs/shard-%a.log\"\n"));
    CHECK(has(script, "shard=$((SLURM_ARRAY_TASK_ID + 1))\n"));
    CHECK(has(script, "out='/shared/run one'/shard-${shard}-of-4.json\n"));
    CHECK(has(script, "if [[ -e \"$out.partial\" ]]; then\n  resume=--resume\n"));
    CHECK(has(script, "exec /opt/lb/layerbench run --device cpu --layers Conv2d,LSTM --plan-from old.json "
                      "--shard \"$shard/4\" --out \"$out\" $resume\n"));
    CHECK(has(script, "# shard 1/4: expected 2.0 s\n"));
    CHECK_FALSE(has(script, "--gres"));
    CHECK_FALSE(has(script, "--partition"));
  }
  SUBCASE("a GPU per task, the concurrency cap and the pass-through options")
  {
    auto gpu = job();
    gpu.gpu = cluster::Gpu::one;
    gpu.max_running = 2;
    gpu.partition = "gpu";
    gpu.time_limit = "2:00:00";
    gpu.account = "proj42";
    gpu.constraint = "h100";
    const auto script = cluster::array_script(gpu);
    CHECK(has(script, "#SBATCH --array=0-3%2\n"));
    CHECK(has(script, "#SBATCH --gres=gpu:1\n"));
    CHECK(has(script, "#SBATCH --partition=gpu\n"));
    CHECK(has(script, "#SBATCH --time=2:00:00\n"));
    CHECK(has(script, "#SBATCH --account=proj42\n"));
    CHECK(has(script, "#SBATCH --constraint=h100\n"));
  }
}

TEST_CASE("cluster::merge_script")
{
  const auto script = cluster::merge_script(job());
  CHECK(has(script, "/opt/lb/layerbench merge '/shared/run one'/shard-1-of-4.json '/shared/run one'/shard-2-of-4.json "
                    "'/shared/run one'/shard-3-of-4.json '/shared/run one'/shard-4-of-4.json --out \"$merged\"\n"));
  CHECK(has(script, "/opt/lb/layerbench validate \"$merged\"\n"));
  CHECK_FALSE(has(script, "--array"));
  CHECK_FALSE(has(script, "--gres"));
}

TEST_CASE("cluster::parse_job_id")
{
  SUBCASE("a plain id and one with its cluster")
  {
    CHECK(cluster::parse_job_id("1234\n") == "1234");
    CHECK(cluster::parse_job_id("77;cluster2\n") == "77");
  }
  SUBCASE("anything else is an Error quoting the answer")
  {
    CHECK_THROWS_WITH_AS(cluster::parse_job_id("sbatch: error: Batch job submission failed\n"),
                         "sbatch answered \"sbatch: error: Batch job submission failed\", not a job id", Error);
    CHECK_THROWS_AS(cluster::parse_job_id(""), Error);
  }
}

TEST_CASE("cluster::check_job")
{
  SUBCASE("a newline in an option that reaches an #SBATCH line is refused, naming the option")
  {
    auto bad = job();
    bad.partition = "gpu\ntouch injected";
    CHECK_THROWS_WITH_AS(cluster::check_job(bad), "--partition: control character U+000A at byte 3; a job script "
                                                  "takes one line per option", Error);
    CHECK_THROWS_AS(cluster::array_script(bad), Error);
    CHECK_THROWS_AS(cluster::merge_script(bad), Error);
  }
  SUBCASE("every other option value, the output folder and the run arguments too")
  {
    auto name = job();
    name.job_name = "x\rtouch injected";
    CHECK_THROWS_WITH_AS(cluster::check_job(name), doctest::Contains("--job-name: control character U+000D"), Error);
    auto dir = job();
    dir.out_dir = "/shared/a\nb";
    CHECK_THROWS_WITH_AS(cluster::check_job(dir), doctest::Contains("--out-dir: control character"), Error);
    auto time = job();
    time.time_limit = "1:00\t";
    CHECK_THROWS_WITH_AS(cluster::check_job(time), doctest::Contains("--time: control character U+0009"), Error);
    auto argument = job();
    argument.run_arguments = {"--layers", "Linear\x1b[2J"};
    CHECK_THROWS_WITH_AS(cluster::check_job(argument), doctest::Contains("run argument \"Linear...\": control character U+001B"),
                         Error);
  }
  SUBCASE("a backslash in the output folder, which would stop Slurm naming each task's log")
  {
    auto bad = job();
    bad.out_dir = "/shared/a\\b";
    CHECK_THROWS_WITH_AS(cluster::check_job(bad), doctest::Contains("--out-dir: /shared/a\\b: a backslash"), Error);
  }
  SUBCASE("printable text of any kind is accepted")
  {
    Scratch scratch;
    CHECK_NOTHROW(cluster::check_job(scratch.hostile_job()));
  }
}

TEST_CASE("cluster::array_script under bash and sbatch")
{
  Scratch scratch;
  const auto hostile = scratch.hostile_job();
  const auto script = cluster::array_script(hostile);
  SUBCASE("bash runs the task's layerbench with the folder and the run arguments as they were given, and nothing else")
  {
    const auto result = scratch.run(script, 1);
    CHECK(result.status == 0);
    CHECK(read(scratch.calls) == "run\n--layers\nLinear\n--plan-from\na b;$(touch injected).json\n--shard\n2/4\n--out\n"
                                 + hostile.out_dir + "/shard-2-of-4.json\n");
    CHECK_FALSE(fs::exists(scratch.dir / "injected"));
  }
  SUBCASE("a shard already measured is not measured again")
  {
    std::ofstream(fs::path(hostile.out_dir) / "shard-1-of-4.json") << "{}";
    const auto result = scratch.run(script, 0);
    CHECK(result.status == 0);
    CHECK(has(result.output, "is already measured"));
    CHECK_FALSE(fs::exists(scratch.calls));
  }
  SUBCASE("sbatch reads every directive as one option with the value given")
  {
    const auto found = directives(script);
    for (const auto& words : found) {
      CHECK(words.size() == 1);
    }
    REQUIRE(found.size() >= 3);
    CHECK(found[0][0] == "--job-name=it's #1-shards");
    CHECK(found[1][0] == "--output=" + scratch.dir.string() + "/run one 'two' \"three\" $(touch injected) `touch injected` "
                         "#four %%a/logs/shard-%a.log");
    const auto chdir = std::find_if(found.begin(), found.end(), [](const auto& words) {
      return words[0].rfind("--chdir=", 0) == 0;
    });
    REQUIRE(chdir != found.end());
    CHECK((*chdir)[0] == "--chdir=/home/me");
  }
}

TEST_CASE("cluster::merge_script under bash")
{
  Scratch scratch;
  const auto hostile = scratch.hostile_job();
  const auto result = scratch.run(cluster::merge_script(hostile), 0);
  CHECK(result.status == 0);
  std::string expected = "merge\n";
  for (int i = 1; i <= 4; ++i) {
    expected += hostile.out_dir + "/shard-" + std::to_string(i) + "-of-4.json\n";
  }
  expected += "--out\n" + hostile.out_dir + "/merged.json\nvalidate\n" + hostile.out_dir + "/merged.json\n";
  CHECK(read(scratch.calls) == expected);
  CHECK_FALSE(fs::exists(scratch.dir / "injected"));
  CHECK(directives(cluster::merge_script(hostile))[0][0] == "--job-name=it's #1-merge");
}

TEST_CASE("cluster::array_script data-parallel")
{
  auto data_parallel = job();
  data_parallel.nodes = 2;
  data_parallel.tasks_per_node = 4;
  data_parallel.gpu = cluster::Gpu::one;
  SUBCASE("each task asks for its nodes and ranks, one GPU per rank, and srun starts the ranks")
  {
    const auto script = cluster::array_script(data_parallel);
    CHECK(has(script, "#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=4\n"));
    CHECK_FALSE(has(script, "#SBATCH --ntasks=1\n"));
    CHECK(has(script, "#SBATCH --gres=gpu:4\n"));
    CHECK(has(script, "exec srun --kill-on-bad-exit=1 /opt/lb/layerbench run"));
  }
  SUBCASE("the merge job stays one task")
  {
    const auto script = cluster::merge_script(data_parallel);
    CHECK(has(script, "#SBATCH --ntasks=1\n"));
    CHECK_FALSE(has(script, "--nodes"));
  }
  SUBCASE("one rank per task: one process, no srun")
  {
    const auto script = cluster::array_script(job());
    CHECK(has(script, "#SBATCH --ntasks=1\n"));
    CHECK_FALSE(has(script, "srun"));
  }
}
