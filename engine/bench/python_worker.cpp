// SPDX-License-Identifier: MIT
#include "bench/python_worker.hpp"

#include "bench/child_process.hpp"
#include "dataset/io.hpp"
#include "util/build_info.hpp"
#include "util/error.hpp"
#include "util/file.hpp"

#include <nlohmann/json.hpp>

#include <sstream>
#include <unistd.h>

namespace layerbench::bench {

namespace {

std::string number(double value)
{
  std::ostringstream text;
  text.precision(17);
  text << value;
  return text.str();
}

// The cell the worker wrote, checked against the one asked for.
dataset::Cell read_cell(const std::filesystem::path& out, const WorkerRequest& request)
{
  const auto text = util::read_file(out);
  if (!text) {
    throw Error("its output " + out.string() + ": " + text.error());
  }
  auto cell = dataset::cell_from_json(nlohmann::json::parse(*text), out.string());
  if (cell.layer != request.model || cell.batch_size != request.batch_size || cell.axes != request.axes) {
    throw Error("it wrote the cell " + cell.layer + "@" + std::to_string(cell.batch_size) + " "
                + dataset::label(cell.axes) + ", not the one asked for");
  }
  return cell;
}

} // namespace

std::vector<std::string> worker_command(const std::string& python, const std::filesystem::path& script,
                                        const WorkerRequest& r, const std::filesystem::path& out)
{
  const auto& s = r.settings;
  return {python, script.string(), "--model", r.model, "--batch-size", std::to_string(r.batch_size),
          "--mode", dataset::to_string(r.axes[dataset::k_mode]), "--precision", dataset::to_string(r.axes[dataset::k_precision]),
          "--device", r.device == DeviceKind::cuda ? "cuda" : "cpu", "--threads", std::to_string(r.threads),
          "--warmup", number(s.warmup_seconds), "--warmup-iterations", std::to_string(s.warmup_min_iterations),
          "--block-target", number(s.block_target_seconds), "--noise-target", number(s.stopping.noise_target),
          "--min-samples", std::to_string(s.stopping.min_samples), "--max-samples",
          std::to_string(s.stopping.max_samples), "--cell-budget", number(s.stopping.budget_seconds),
          "--out", out.string()};
}

std::optional<dataset::Cell> measure_in_worker(const WorkerRequest& request, const std::atomic<bool>& interrupted)
{
  const auto script = std::filesystem::path(build_info::k_source_dir) / "bench" / "models" / "compiled_train.py";
  const auto folder = std::filesystem::temp_directory_path()
                      / ("layerbench-worker-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const auto out = folder / "cell.json";
  const auto log = folder / "worker.log";
  std::error_code ignored;
  std::filesystem::remove(out, ignored);
  const auto python = helper_python();
  const auto status = run_logged(worker_command(python, script, request, out), log, interrupted);
  if (status.interrupted) {
    return std::nullopt;
  }
  const auto skipped = [&](const std::string& why) {
    return skipped_cell(request.model, request.batch_size, request.axes, "torch.compile worker: " + why);
  };
  if (!status.spawn_error.empty()) {
    return skipped("cannot start " + python + ": " + status.spawn_error + " (set LAYERBENCH_PYTHON to the venv's python)");
  }
  if (status.code != 0) {
    const auto output = util::read_file(log);
    const auto reason = output ? last_line(*output) : std::string();
    return skipped("exit " + std::to_string(status.code) + ": " + (reason.empty() ? "no output" : reason));
  }
  try {
    return read_cell(out, request);
  } catch (const std::exception& error) {
    return skipped(error.what());
  }
}

} // namespace layerbench::bench
