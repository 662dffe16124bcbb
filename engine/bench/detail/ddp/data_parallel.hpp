// SPDX-License-Identifier: MIT
#pragma once

// A data-parallel run as its cells see it (docs/scale.md): this rank's process group, the lockstep in
// which the ranks time every cell (bench/detail/lockstep.hpp), and the gradients of each training
// step averaged over the ranks, the all-reduce timed apart and recorded with the cell.
//
// `run --world-size N` installs one DataParallelScope for its cells; a whole model's train corner
// (bench/detail/cell_body.cpp) then all-reduces its gradients after backward, before the optimizer step.

#include "bench/detail/ddp/gradient_reducer.hpp"
#include "bench/detail/ddp/process_group.hpp"
#include "bench/detail/lockstep.hpp"
#include "dataset/dataset.hpp"

#include <torch/torch.h>

#include <memory>
#include <optional>
#include <vector>

namespace layerbench::bench::ddp {

class DataParallelRun : public detail::Lockstep
{
public:
  DataParallelRun(const Rendezvous& rendezvous, DeviceKind device, std::chrono::milliseconds timeout = k_default_timeout);

  int rank() const { return m_group.rank(); }
  int size() const { return m_group.size(); }

  detail::Agreement agree(double value, bool interrupted) override;
  // The sum of `value` over the ranks that run on rank 0's host (the others count 0). Collective.
  double sum_on_first_host(double value);

  // A cell's model joins the run: rank 0's weights into this rank's module, and a new reducer over
  // its parameters (each shared tensor once, as DDP counts a tied weight); the step log starts afresh.
  void start_cell(torch::nn::Module& module, const std::vector<torch::Tensor>& parameters);
  // The gradients of this rank's step averaged over the ranks; its time is logged.
  void reduce_gradients();
  // What the cell records: the buckets and the all-reduce's quartiles over the last `timed_steps`
  // steps (the timed ones: nothing runs a step after them).
  dataset::DataParallel record(int64_t timed_steps) const;

private:
  ProcessGroup m_group;
  torch::Device m_device;
  std::unique_ptr<GradientReducer> m_reducer;
  std::vector<double> m_reduce_ms; // one entry per step of the current cell
};

// Installs `run` (and its lockstep) for this thread until destroyed.
class DataParallelScope
{
public:
  explicit DataParallelScope(DataParallelRun& run);
  ~DataParallelScope();
  DataParallelScope(const DataParallelScope&) = delete;
  DataParallelScope& operator=(const DataParallelScope&) = delete;

private:
  detail::LockstepScope m_lockstep;
  DataParallelRun* m_outer;
};

// The run installed on this thread, or nullptr outside a data-parallel run.
DataParallelRun* current_run();

} // namespace layerbench::bench::ddp
