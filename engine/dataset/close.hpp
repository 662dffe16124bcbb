// SPDX-License-Identifier: MIT
#pragma once

// Closes the checkpoint of a run that cannot be continued: its machine is gone, as a GPU lease's is when
// its time ends mid-run. `run --resume` continues a checkpoint where the machine is still at hand; this
// keeps what the checkpoint measured and records every declared cell it never reached as skipped, so the
// run becomes a dataset that says what it lacks instead of a file nothing reads.

#include "dataset/dataset.hpp"

#include <string>

namespace layerbench::dataset {

// `run` is a measured run's checkpoint (OUT.partial, Completeness::partial): one process, no shard, no
// rounds. The result holds its cells unchanged and, for each cell of its declared matrix that it lacks, a
// skipped cell whose reason is "not measured: " + `reason`, all in matrix order. Throws Error when the run
// is not such a checkpoint, when no cell is missing (nothing to close: publish it as it is), when none
// was measured, or when `reason` is empty or holds control characters.
Dataset close_unfinished(Dataset run, const std::string& reason);

} // namespace layerbench::dataset
