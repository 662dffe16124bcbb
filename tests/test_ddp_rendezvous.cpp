// SPDX-License-Identifier: MIT
#include "bench/ddp/rendezvous.hpp"

#include "util/error.hpp"

#include <doctest/doctest.h>
#include <map>
#include <string>

using namespace layerbench;
using namespace layerbench::bench::ddp;

namespace {

using Variables = std::map<std::string, std::string>;

Environment fake(const Variables& variables)
{
  return [variables](const std::string& name) -> std::optional<std::string> {
    const auto found = variables.find(name);
    if (found == variables.end()) {
      return std::nullopt;
    }
    return found->second;
  };
}

const Variables k_torchrun = {{"RANK", "1"}, {"WORLD_SIZE", "4"}, {"LOCAL_RANK", "1"}, {"MASTER_ADDR", "node7"}, {"MASTER_PORT", "29400"}};
const Variables k_slurm = {{"SLURM_PROCID", "5"},  {"SLURM_NTASKS", "8"},           {"SLURM_LOCALID", "1"},
                           {"SLURM_JOB_ID", "123456"}, {"SLURM_STEP_NODELIST", "gpu[03-06],gpu9"}, {"SLURM_JOB_NODELIST", "gpu[01-09]"}};

std::string error_of(const Variables& variables)
{
  try {
    rendezvous_from(fake(variables));
  } catch (const Error& error) {
    return error.what();
  }
  FAIL("no error for a bad environment");
  return "";
}

} // namespace

TEST_CASE("ddp::rendezvous_from")
{
  SUBCASE("torchrun's variables")
  {
    const auto r = rendezvous_from(fake(k_torchrun));
    CHECK(r.rank == 1);
    CHECK(r.world_size == 4);
    CHECK(r.local_rank == 1);
    CHECK(r.master_addr == "node7");
    CHECK(r.master_port == 29400);
    CHECK(r.source == RendezvousSource::environment);
    CHECK(describe(r) == "rank 1 of 4 (MASTER_ADDR=node7, MASTER_PORT=29400)");
  }
  SUBCASE("Slurm's variables: the step's first host, a port from the job id")
  {
    const auto r = rendezvous_from(fake(k_slurm));
    CHECK(r.rank == 5);
    CHECK(r.world_size == 8);
    CHECK(r.local_rank == 1);
    CHECK(r.master_addr == "gpu03");
    CHECK(r.master_port == k_slurm_port_base + 456);
    CHECK(r.source == RendezvousSource::slurm);
  }
  SUBCASE("Slurm: the job's host list without a step's; MASTER_ADDR and MASTER_PORT win where set")
  {
    auto variables = k_slurm;
    variables.erase("SLURM_STEP_NODELIST");
    CHECK(rendezvous_from(fake(variables)).master_addr == "gpu01");
    variables["MASTER_ADDR"] = "head";
    variables["MASTER_PORT"] = "31000";
    const auto r = rendezvous_from(fake(variables));
    CHECK(r.master_addr == "head");
    CHECK(r.master_port == 31000);
  }
  SUBCASE("RANK takes precedence over Slurm's variables")
  {
    auto variables = k_slurm;
    variables.insert(k_torchrun.begin(), k_torchrun.end());
    CHECK(rendezvous_from(fake(variables)).source == RendezvousSource::environment);
  }
  SUBCASE("a missing variable is named")
  {
    for (const std::string name : {"WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"}) {
      CAPTURE(name);
      auto variables = k_torchrun;
      variables.erase(name);
      CHECK(error_of(variables).rfind(name + " is not set (RANK is set", 0) == 0);
    }
    auto slurm = k_slurm;
    slurm.erase("SLURM_NTASKS");
    CHECK(error_of(slurm).rfind("SLURM_NTASKS is not set", 0) == 0);
    slurm = k_slurm;
    slurm.erase("SLURM_JOB_ID");
    CHECK(error_of(slurm).find("SLURM_JOB_ID is not set") != std::string::npos);
    CHECK(error_of(slurm).find("MASTER_PORT is not set either") != std::string::npos);
    CHECK(error_of({}).find("no rendezvous") != std::string::npos);
  }
  SUBCASE("a bad value is named with its value")
  {
    auto variables = k_torchrun;
    variables["RANK"] = "4";
    CHECK(error_of(variables) == "RANK=4 is not below WORLD_SIZE=4");
    variables = k_torchrun;
    variables["WORLD_SIZE"] = "two";
    CHECK(error_of(variables) == "WORLD_SIZE=\"two\" is not a whole number");
    variables = k_torchrun;
    variables["MASTER_PORT"] = "70000";
    CHECK(error_of(variables) == "MASTER_PORT=70000 is outside 1 to 65535");
    variables = k_torchrun;
    variables["RANK"] = "1x";
    CHECK(error_of(variables) == "RANK=\"1x\" is not a whole number");
    auto slurm = k_slurm;
    slurm["SLURM_STEP_NODELIST"] = "gpu[03-06";
    CHECK(error_of(slurm) == "SLURM_STEP_NODELIST: \"gpu[03-06\" has an unclosed '['");
  }
}

TEST_CASE("ddp::first_slurm_host")
{
  CHECK(first_slurm_host("node1") == "node1");
  CHECK(first_slurm_host("node1,node2") == "node1");
  CHECK(first_slurm_host("gpu[07-09,12],login1") == "gpu07");
  CHECK(first_slurm_host("gpu[12,07-09]") == "gpu12");
  CHECK(first_slurm_host("rack[2-3]-n[001-004]") == "rack2-n001");
  CHECK_THROWS_AS(first_slurm_host(""), Error);
}

TEST_CASE("ddp::resolve_master")
{
  Rendezvous rendezvous;
  rendezvous.rank = 1;
  rendezvous.world_size = 2;
  rendezvous.master_port = 29400;
  SUBCASE("an address or a local name resolves")
  {
    for (const char* address : {"127.0.0.1", "localhost", "::1"}) {
      CAPTURE(address);
      rendezvous.master_addr = address;
      CHECK_NOTHROW(resolve_master(rendezvous));
    }
  }
  SUBCASE("a name that resolves to nothing is named at once, with the rank it stops")
  {
    // .invalid never resolves (RFC 2606).
    rendezvous.master_addr = "no-such-host.invalid";
    std::string message;
    try {
      resolve_master(rendezvous);
    } catch (const Error& error) {
      message = error.what();
    }
    CHECK(message.find("MASTER_ADDR=no-such-host.invalid cannot be resolved (") == 0);
    CHECK(message.find("rank 1 of 2 (MASTER_ADDR=no-such-host.invalid, MASTER_PORT=29400) cannot meet the others")
          != std::string::npos);
  }
}
