// SPDX-License-Identifier: MIT
#include "cli/run_ranks.hpp"

#if LAYERBENCH_WITH_TORCH

#include "catalog/catalog.hpp"
#include "bench/ddp/launcher.hpp"
#include "bench/ddp/rank_capacity.hpp"
#include "bench/device.hpp"
#include "cli/run_output.hpp"
#include "util/error.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

void refuse_other_size(int world_size, const std::string& name, const std::string& value)
{
  throw UsageError("--world-size " + std::to_string(world_size) + ": the rendezvous in the environment has " + name + "="
                   + value + " ranks");
}

} // namespace

RankRole rank_role(int world_size, const bench::ddp::Environment& environment)
{
  const auto world = environment("WORLD_SIZE");
  const auto tasks = environment("SLURM_NTASKS");
  const bool torchrun = environment("RANK").has_value();
  const bool srun = !torchrun && environment("SLURM_PROCID") && tasks && *tasks != "1" && !tasks->empty();
  if (world_size == 1) {
    if (torchrun && world && *world != "1") {
      refuse_other_size(world_size, "WORLD_SIZE", *world);
    }
    if (srun) {
      refuse_other_size(world_size, "SLURM_NTASKS", *tasks);
    }
    return RankRole::single;
  }
  return torchrun || srun ? RankRole::rank : RankRole::launcher;
}

void check_data_parallel(const po::variables_map& values, const RunMatrix& matrix, int world_size, OutGiven out)
{
  const auto option = "--world-size " + std::to_string(world_size);
  for (const auto& name : matrix.layers) {
    if (bench::find_layer(name).kind != dataset::LayerKind::model) {
      throw UsageError(option + ": " + name + " is a layer, not a whole model; a data-parallel run times whole models' "
                       "training steps (--layers with the models of 'layerbench layers --models')");
    }
  }
  for (const auto mode : matrix.axes[dataset::k_mode]) {
    if (mode != dataset::GradMode::train) {
      throw UsageError(option + ": mode " + dataset::to_string(mode) + " is not a training step; a data-parallel run "
                       "measures training steps only (--axes mode=train)");
    }
  }
  for (const auto compiled : matrix.axes[dataset::k_compiled]) {
    if (compiled != dataset::Compiled::eager) {
      throw UsageError(option + ": compiled " + dataset::to_string(compiled) + " is not run data-parallel; give --axes compiled=eager");
    }
  }
  if (out == OutGiven::option && !values.count("out")) {
    throw UsageError(option + ": needs --out, the one file that rank 0 writes (every rank must name the same)");
  }
}

void check_world_fits(const po::variables_map& values, const RunMatrix& matrix, int world_size)
{
  std::vector<bench::ddp::ModelSize> models;
  for (const auto& name : matrix.layers) {
    models.push_back({name, bench::find_layer(name).params()});
  }
  const auto device = bench::parse_device_choice(values["device"].as<std::string>()).choice;
  const bool on_gpu = device == bench::DeviceChoice::cuda || (device == bench::DeviceChoice::automatic && bench::cuda_available());
  const auto rank = bench::ddp::rank_footprint(models, on_gpu ? bench::ddp::ModelPlace::device : bench::ddp::ModelPlace::host);
  if (const auto problem = bench::ddp::world_size_problem(world_size, bench::ddp::this_machine(), rank)) {
    throw UsageError("--world-size " + std::to_string(world_size) + ": " + *problem);
  }
}

bench::ddp::Rendezvous rank_rendezvous(int world_size, const bench::ddp::Environment& environment)
{
  const auto rendezvous = bench::ddp::rendezvous_from(environment);
  if (rendezvous.world_size != world_size) {
    const auto* name = rendezvous.source == bench::ddp::RendezvousSource::slurm ? "SLURM_NTASKS" : "WORLD_SIZE";
    refuse_other_size(world_size, name, std::to_string(rendezvous.world_size));
  }
  // Named at once: an address no rank can resolve would otherwise surface as the store's timeout.
  bench::ddp::resolve_master(rendezvous);
  return rendezvous;
}

int launch_ranks(const po::variables_map& values, int world_size)
{
  const auto out = output_path(values);
  check_directory(out);
  check_output(out, values.count("resume") ? bench::Resume::yes : bench::Resume::no);
  std::cerr << "layerbench: starting " << world_size << " ranks on this machine; rank 0 writes " << out.string() << "\n";
  const auto failed = bench::ddp::failed_ranks(bench::ddp::launch_local(world_size, bench::ddp::this_command_line()));
  if (!failed.empty()) {
    throw Error("--world-size " + std::to_string(world_size) + ": ranks failed, and " + out.string()
                + " was not written:\n" + failed);
  }
  return 0;
}

} // namespace layerbench::cli

#endif
