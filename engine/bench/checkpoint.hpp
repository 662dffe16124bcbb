// SPDX-License-Identifier: MIT
#pragma once

// Where a run keeps its finished cells while it is under way, so that an interrupted run goes on with
// `--resume` where it stopped. Saved after every cell; the run's caller removes it once the dataset is written.

#include "dataset/dataset.hpp"

#include <cstddef>
#include <filesystem>
#include <string>

namespace layerbench::bench {

// Where finished cells are checkpointed while a run is under way.
std::filesystem::path checkpoint_path(const std::filesystem::path& out);

class Checkpoint
{
public:
  explicit Checkpoint(std::filesystem::path path) : m_path(std::move(path)) {}

  const std::filesystem::path& path() const { return m_path; }

  // Takes the saved cells (and the time the run was started) into `fresh`, the dataset a new run of
  // the same options begins with. Throws Error when there is no checkpoint, when it breaks the rules
  // `validate` applies (all but completeness), or when it was taken by another matrix, device or set
  // of measurement options.
  void resume_into(dataset::Dataset& fresh);

  // Writes `partial` over the checkpoint (nothing where the path is empty: a rank other than 0 of a
  // data-parallel run). On failure (a full disk, a read-only folder) throws Error
  // saying how many cells the checkpoint still keeps and how to go on.
  void save(const dataset::Dataset& partial);

private:
  std::filesystem::path m_path;
  size_t m_saved = 0; // cells the file held after its last successful save
};

// A checkpoint may only be continued by the run that started it: the same environment (device,
// threads, torch), methodology (matrix, knobs, shard), layers and build, as `merge` holds shards to
// (dataset/same_run.hpp). Throws Error naming `origin`, the first field that differs and both values
// (exposed for tests).
void check_resumable(const dataset::Dataset& saved, const dataset::Dataset& fresh, const std::string& origin);

} // namespace layerbench::bench
