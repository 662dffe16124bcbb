// SPDX-License-Identifier: MIT
#include "bench/detail/lockstep.hpp"

namespace layerbench::bench::detail {

namespace {

thread_local Lockstep* t_lockstep = nullptr;

} // namespace

LockstepScope::LockstepScope(Lockstep& lockstep) : m_outer(t_lockstep) { t_lockstep = &lockstep; }

LockstepScope::~LockstepScope() { t_lockstep = m_outer; }

Agreement agree(double value, bool interrupted)
{
  if (t_lockstep == nullptr) {
    return {value, interrupted};
  }
  return t_lockstep->agree(value, interrupted);
}

bool in_lockstep() { return t_lockstep != nullptr; }

} // namespace layerbench::bench::detail
