// SPDX-License-Identifier: MIT
#pragma once

// The ranks of a data-parallel cell time it together (docs/scale.md). Every iteration of a
// data-parallel training step runs collectives, so every rank must run the same number of
// iterations: each decision of the timing loop (another warm-up iteration, the block's length,
// another sample) is rank 0's, and an interrupt on any rank stops them all. Torch-free.
//
// The loop asks through agree(), which returns its own value where no data-parallel run is in force;
// the run installs its ranks with a LockstepScope for its cells, as torch's InferenceMode and
// autocast are thread-local guards, so that the measurers keep their signatures.

namespace layerbench::bench::detail {

struct Agreement
{
  double value = 0;         // rank 0's
  bool interrupted = false; // on any rank
};

class Lockstep
{
public:
  virtual ~Lockstep() = default;
  // Rank 0's `value` on every rank, and whether any rank was interrupted. Collective: every rank calls
  // it the same number of times.
  virtual Agreement agree(double value, bool interrupted) = 0;
};

// Installs `lockstep` for this thread until destroyed (scopes nest).
class LockstepScope
{
public:
  explicit LockstepScope(Lockstep& lockstep);
  ~LockstepScope();
  LockstepScope(const LockstepScope&) = delete;
  LockstepScope& operator=(const LockstepScope&) = delete;

private:
  Lockstep* m_outer;
};

// The installed lockstep's agreement, or {value, interrupted} where none is installed.
Agreement agree(double value, bool interrupted);

// Whether a data-parallel run is in force on this thread.
bool in_lockstep();

} // namespace layerbench::bench::detail
