// SPDX-License-Identifier: MIT
#pragma once

// The ranks of a data-parallel run, connected through c10d (docs/scale.md): a TCPStore that rank 0
// serves at the rendezvous, and a communication backend over it, Gloo on the CPU and NCCL on CUDA, as
// torch.distributed.init_process_group would make them. Every wait on a collective is bounded by the
// group's timeout, so that a rank that dies makes the others stop with an Error instead of hanging.
//
// A LibTorch part of engine/bench, like bench/models/. c10d's gloo header is included only by
// process_group.cpp (it needs gloo's own headers, from Debian's libgloo-dev).

#include "bench/ddp/rendezvous.hpp"
#include "bench/detail/torch_compat.hpp"
#include "bench/device_kind.hpp"
#include "util/error.hpp"

#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/torch.h>

#include <chrono>
#include <string>
#include <vector>

namespace layerbench::bench::ddp {

// How long a rank waits for the others, at the rendezvous and in every collective, before it gives
// up with an Error. torch.distributed's default is 30 minutes; a benchmark step takes seconds.
constexpr std::chrono::seconds k_default_timeout{120};

class ProcessGroup
{
public:
  // Meets the other ranks at the rendezvous and connects them. Throws Error naming the port where
  // rank 0 cannot bind it, and naming the rendezvous where the others do not arrive in time.
  ProcessGroup(const Rendezvous& rendezvous, DeviceKind device, std::chrono::milliseconds timeout = k_default_timeout);

  int rank() const { return m_rendezvous.rank; }
  int size() const { return m_rendezvous.world_size; }
  std::chrono::milliseconds timeout() const { return m_timeout; }
  const Rendezvous& rendezvous() const { return m_rendezvous; }

  // Starts a sum of `tensor` over the ranks, in place; finish it with wait(). `what` names it in errors.
  c10::intrusive_ptr<c10d::Work> start_sum(torch::Tensor& tensor, const std::string& what);
  // Rank 0's `tensors` into every rank's, in place.
  void broadcast_from_first(std::vector<torch::Tensor>& tensors, const std::string& what);
  // Waits for a collective within the timeout; throws Error saying `what` failed and why.
  void wait(const c10::intrusive_ptr<c10d::Work>& work, const std::string& what);

private:
  // The Error for a collective that failed: which rank, what, the timeout, and c10d's reason.
  Error failure(const std::string& what, const std::exception& error) const;

  Rendezvous m_rendezvous;
  std::chrono::milliseconds m_timeout;
  c10::intrusive_ptr<c10d::Store> m_store;
  c10::intrusive_ptr<detail::C10dBackend> m_backend;
};

} // namespace layerbench::bench::ddp
