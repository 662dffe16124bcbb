// SPDX-License-Identifier: MIT
#include "cluster/slurm_script.hpp"

#include "util/error.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

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

TEST_CASE("cluster::shell_quote")
{
  CHECK(cluster::shell_quote("--layers=Conv2d,LSTM") == "--layers=Conv2d,LSTM");
  CHECK(cluster::shell_quote("a b") == "'a b'");
  CHECK(cluster::shell_quote("it's") == "'it'\\''s'");
  CHECK(cluster::shell_quote("") == "''");
  CHECK(cluster::shell_quote("$HOME") == "'$HOME'");
}
