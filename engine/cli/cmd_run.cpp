// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "util/error.hpp"

#if LAYERBENCH_WITH_TORCH

#include "catalog/catalog.hpp"
#include "bench/cpu_memory.hpp"
#include "bench/runner.hpp"
#include "bench/shard_plan.hpp"
#include "cli/run_options.hpp"
#include "cli/run_output.hpp"
#include "cli/run_ranks.hpp"
#include "cli/run_rounds.hpp"
#include "dataset/memory_check.hpp"
#include "dataset/shard.hpp"
#include "dataset/io.hpp"
#include "util/format.hpp"
#include "util/time.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <iostream>
#include <algorithm>

namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int)
{
  g_interrupted.store(true);
  // A second Ctrl-C ends the process at once.
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

void print_estimate(const bench::RunOptions& options, const bench::DeviceBackend& backend)
{
  const auto e = bench::estimate_run(options, backend);
  std::cerr << "layerbench: " << e.cells << " cells (" << e.cells / static_cast<int>(options.batch_sizes.size())
            << " layer x corner pairs x " << options.batch_sizes.size() << " batch sizes), " << e.skipped
            << " of them unsupported and recorded as skipped, " << e.train << " train cells of "
            << bench::k_train_parts << " timed parts"
            << (e.compiles == 0 ? std::string()
                                : ", " + std::to_string(e.compiles) + " AOTInductor packages to export (not in the cache, about "
                                      + util::format_fixed(bench::k_aoti_compile_seconds, 0) + " s each)")
            << "; estimate about " << util::format_fixed(e.seconds / 60, 1)
            << " min (budget, warm-up and " << util::format_fixed(bench::k_cell_overhead_seconds, 1)
            << " s overhead per part; layers whose single call outlasts the budget take longer)\n";
}

// A layer whose parameters, input and output at the largest batch (dataset::memory_floor, which every
// forward holds at once) exceed the memory the device has free is refused before anything is measured,
// naming the layer, the bytes and the device's: shapes from the user reach sizes no reference layer has.
void check_fits(const bench::RunOptions& options, const bench::DeviceBackend& backend)
{
  const auto capacity = backend.memory_capacity_bytes();
  if (!capacity || options.batch_sizes.empty()) {
    return;
  }
  const int largest = *std::max_element(options.batch_sizes.begin(), options.batch_sizes.end());
  for (const auto& name : options.layers) {
    const auto& spec = bench::find_layer(name);
    if (spec.kind != dataset::LayerKind::layer) {
      continue;
    }
    dataset::Cell cell;
    cell.layer = name;
    cell.batch_size = largest;
    const auto floor = dataset::memory_floor(bench::describe(spec), cell);
    if (floor && floor->bytes > static_cast<double>(*capacity)) {
      throw Error("--layers: " + name + " at batch " + std::to_string(largest) + " needs at least "
                  + util::format_bytes(floor->bytes) + " (" + floor->arithmetic + "), more than the "
                  + util::format_bytes(static_cast<double>(*capacity)) + " the "
                  + (backend.kind() == bench::DeviceKind::cuda ? "GPU has free" : "CPU's memory has available")
                  + "; nothing was measured");
    }
  }
}

// In a data-parallel run each rank takes the GPU of its rank on the node.
bench::DeviceSelection rank_device(const po::variables_map& values, const std::optional<bench::ddp::Rendezvous>& rendezvous)
{
  const auto text = values["device"].as<std::string>();
  auto choice = bench::parse_device_choice(text);
  if (!rendezvous || choice.choice == bench::DeviceChoice::cpu) {
    return choice;
  }
  require(text.find(':') == std::string::npos,
          "--device " + text + ": in a data-parallel run each rank takes the GPU of its LOCAL_RANK; give --device cuda");
  if (choice.choice == bench::DeviceChoice::cuda || bench::cuda_available()) {
    choice.choice = bench::DeviceChoice::cuda;
    choice.cuda_index = rendezvous->local_rank;
  }
  return choice;
}

int run(const po::variables_map& values)
{
  const int world_size = parse_world_size(values);
  const auto rendezvous = world_size > 1 ? std::optional(rank_rendezvous(world_size, bench::ddp::process_environment()))
                                         : std::nullopt;
  const bool writes = !rendezvous || rendezvous->rank == 0;
  const auto choice = rank_device(values, rendezvous);
  bench::RunOptions options;
  options.rendezvous = rendezvous;
  // Checked before the lock and the device, so a misspelt layer or axis costs nothing.
  check_matrix_arguments(values);
  options.resume = values.count("resume") ? bench::Resume::yes : bench::Resume::no;
  options.peaks = values.count("no-peaks") ? bench::PeakMeasurement::skip : bench::PeakMeasurement::measure;
  options.threads = parse_threads(values);
  options.cpu_memory = bench::parse_cpu_memory_policy(values["cpu-memory"].as<std::string>());
  if (values.count("aoti-cache")) {
    options.aoti_cache = values["aoti-cache"].as<std::string>();
  }
  std::optional<dataset::Shard> shard;
  if (values.count("shard")) {
    options.shard = values["shard"].as<std::string>();
    try {
      shard = dataset::parse_shard(options.shard);
    } catch (const Error& error) {
      throw UsageError(std::string("--shard: ") + error.what());
    }
  }
  require(shard || !values.count("plan-from"), "--plan-from: plans shards, so it needs --shard");
  const auto source = values.count("plan-from")
                        ? std::optional<bench::PlanSource>(bench::load_plan_source(values["plan-from"].as<std::string>()))
                        : std::nullopt;
  options.out = output_path(values);
  options.order_seed = parse_seed(values, "order-seed");
  options.profiles = values.count("no-profiles") ? bench::Profiles::skip : bench::Profiles::take;
  options.command_line = recorded_invocation();
  check_directory(options.out);
  // Rank 0 writes the dataset; the other ranks hold no lock and write nothing.
  std::optional<RunLock> lock;
  if (writes) {
    lock.emplace(options.out);
    check_output(options.out, options.resume);
  }

  auto backend = bench::make_backend(choice);
  if (choice.choice == bench::DeviceChoice::automatic && backend->kind() != bench::DeviceKind::cuda) {
    std::cerr << "layerbench: no CUDA GPU found; measuring on the CPU\n";
  }
  auto matrix = resolve_matrix(values, backend->kind());
  options.layers = std::move(matrix.layers);
  options.batch_sizes = std::move(matrix.batch_sizes);
  options.axes = matrix.axes;
  options.settings = matrix.settings;
  check_fits(options, *backend);
  print_estimate(options, *backend);
  if (shard) {
    const auto plan = bench::plan_matrix(options.layers, options.batch_sizes, dataset::corners(options.axes),
                                         options.settings, backend->kind(), source, shard->count);
    const auto& mine = plan.shards[static_cast<size_t>(shard->index - 1)];
    options.shard_plan = plan.description;
    options.shard_cells = mine.cells;
    std::cerr << "layerbench: shard " << options.shard << ": " << mine.cells.size() << " cells, expected "
              << util::format_fixed(mine.seconds, 1) << " s (plan: " << plan.description << ")\n";
  }

  std::cerr << "layerbench: measuring on " << (backend->kind() == bench::DeviceKind::cuda ? "CUDA" : "CPU")
            << (writes ? ", checkpoint " + bench::checkpoint_path(options.out).string() : std::string()) << "\n";
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  const auto start = std::chrono::steady_clock::now();
  const auto result = bench::run_matrix(options, *backend, g_interrupted);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
  if (!writes) {
    std::cerr << "layerbench: " << bench::ddp::describe(*rendezvous) << ": measured " << result.results.size()
              << " cells; rank 0 writes " << options.out.string() << "\n";
    return 0;
  }

  try {
    dataset::save(options.out, result, util::Overwrite::no);
  } catch (const Error& error) {
    throw Error(std::string(error.what()) + "; all " + std::to_string(result.results.size()) + " cells are safe in "
                + bench::checkpoint_path(options.out).string()
                + ": free space or make the folder writable, then run the same command with --resume to write the "
                  "file without measuring again");
  }
  std::filesystem::remove(bench::checkpoint_path(options.out));

  size_t skipped = 0;
  size_t met = 0;
  for (const auto& cell : result.results) {
    skipped += cell.status == dataset::CellStatus::skipped ? 1 : 0;
    met += cell.stats && cell.stats->noise_target_met.value_or(false) ? 1 : 0;
  }
  std::cout << "wrote " << options.out.string() << ": " << result.results.size() << " cells, " << skipped
            << " skipped, " << met << " met the noise target of "
            << util::format_fixed(options.settings.stopping.noise_target * 100, 1) << "%; wall time "
            << util::format_fixed(wall.count(), 1) << " s\n";
  return 0;
}

} // namespace

int cmd_run(const Arguments& arguments)
{
  const auto values = parse("run", "[options]", run_options(), arguments);
  if (!values) {
    return 0;
  }
  const int world_size = parse_world_size(*values);
  const auto role = rank_role(world_size, bench::ddp::process_environment());
  if (role != RankRole::single) {
    check_matrix_arguments(*values);
    // The device does not change what a data-parallel run may measure: the CPU's matrix is checked here.
    const auto matrix = resolve_matrix(*values, bench::DeviceKind::cpu);
    check_data_parallel(*values, matrix, world_size);
    if (role == RankRole::launcher) {
      check_world_fits(*values, matrix, world_size);
    }
  }
  const int rounds = parse_rounds(*values);
  parse_stop_after_round(*values, rounds); // refused here without rounds, where nothing else reads it
  if (rounds > 1) {
    require(role != RankRole::rank, "--rounds: starts a fresh process per round, which a rank under srun or torchrun "
                                    "cannot; run the rounds as separate runs (--rounds 1) and join them with 'layerbench merge --rounds'");
    return run_rounds(*values);
  }
  if (role == RankRole::launcher) {
    return launch_ranks(*values, world_size);
  }
  return run(*values);
}

} // namespace layerbench::cli

#else

namespace layerbench::cli {

int cmd_run(const Arguments&)
{
  throw Error("run: this layerbench was built without LibTorch (LAYERBENCH_WITH_TORCH=OFF)");
}

} // namespace layerbench::cli

#endif
