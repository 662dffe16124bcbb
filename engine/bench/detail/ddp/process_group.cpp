// SPDX-License-Identifier: MIT
#include "bench/detail/ddp/process_group.hpp"

#include "bench/torch_error.hpp"
#include "util/error.hpp"

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#if LAYERBENCH_WITH_CUDA && defined(USE_C10D_NCCL)
#include <c10/cuda/CUDAFunctions.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <cstdlib>

namespace layerbench::bench::ddp {

namespace {

std::string seconds(std::chrono::milliseconds timeout)
{
  return std::to_string(timeout.count() / 1000) + " s";
}

bool port_in_use(const std::string& message)
{
  return message.find("EADDRINUSE") != std::string::npos || message.find("ddress already in use") != std::string::npos;
}

c10::intrusive_ptr<c10d::Store> connect_store(const Rendezvous& rendezvous, std::chrono::milliseconds timeout)
{
  c10d::TCPStoreOptions options;
  options.port = static_cast<std::uint16_t>(rendezvous.master_port);
  options.isServer = rendezvous.rank == 0;
  options.numWorkers = static_cast<std::size_t>(rendezvous.world_size);
  options.waitWorkers = true;
  options.timeout = timeout;
  try {
    return c10::make_intrusive<c10d::TCPStore>(rendezvous.master_addr, options);
  } catch (const std::exception& error) {
    const auto reason = error_line(error);
    if (rendezvous.rank == 0 && port_in_use(reason)) {
      throw Error("MASTER_PORT=" + std::to_string(rendezvous.master_port) + ": port " + std::to_string(rendezvous.master_port)
                  + " is in use on this host; rank 0 cannot serve the rendezvous there (choose another MASTER_PORT)");
    }
    throw Error(describe(rendezvous) + ": the ranks did not all meet within the process group's timeout of "
                + seconds(timeout) + ": " + reason);
  }
}

// Gloo's network device: the interface GLOO_SOCKET_IFNAME names, as torch.distributed reads it; the
// loopback where the rendezvous is local; otherwise the address this host's name resolves to.
std::shared_ptr<::gloo::transport::Device> gloo_device(const Rendezvous& rendezvous)
{
  const char* interface = std::getenv("GLOO_SOCKET_IFNAME");
  if (interface != nullptr && *interface != '\0') {
    return c10d::ProcessGroupGloo::createDeviceForInterface(interface);
  }
  const auto& address = rendezvous.master_addr;
  if (address == "localhost" || address.rfind("127.", 0) == 0) {
    return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
  }
  return c10d::ProcessGroupGloo::createDefaultDevice();
}

c10::intrusive_ptr<detail::C10dBackend> gloo(const c10::intrusive_ptr<c10d::Store>& store,
                                             const Rendezvous& rendezvous, std::chrono::milliseconds timeout)
{
  auto options = c10d::ProcessGroupGloo::Options::create(timeout);
  options->devices.push_back(gloo_device(rendezvous));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rendezvous.rank, rendezvous.world_size, options);
}

c10::intrusive_ptr<detail::C10dBackend> nccl(const c10::intrusive_ptr<c10d::Store>& store,
                                             const Rendezvous& rendezvous, std::chrono::milliseconds timeout)
{
#if LAYERBENCH_WITH_CUDA && defined(USE_C10D_NCCL)
  // One GPU per rank: the local rank's. Untested on this project's CPU machines (docs/scale.md).
  c10::cuda::set_device(static_cast<c10::DeviceIndex>(rendezvous.local_rank));
  auto options = c10d::ProcessGroupNCCL::Options::create();
  options->timeout = timeout;
  return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rendezvous.rank, rendezvous.world_size, options);
#else
  (void)store;
  (void)timeout;
  throw Error(describe(rendezvous) + ": this layerbench was built without CUDA and NCCL; data-parallel runs on CUDA need both");
#endif
}

} // namespace

ProcessGroup::ProcessGroup(const Rendezvous& rendezvous, DeviceKind device, std::chrono::milliseconds timeout)
  : m_rendezvous(rendezvous), m_timeout(timeout)
{
  m_store = connect_store(rendezvous, timeout);
  try {
    m_backend = device == DeviceKind::cuda ? nccl(m_store, rendezvous, timeout) : gloo(m_store, rendezvous, timeout);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& error) {
    throw Error(describe(rendezvous) + ": connecting the ranks failed within the process group's timeout of "
                + seconds(timeout) + ": " + error_line(error));
  }
}

c10::intrusive_ptr<c10d::Work> ProcessGroup::start_sum(torch::Tensor& tensor, const std::string& what)
{
  std::vector<torch::Tensor> tensors{tensor};
  c10d::AllreduceOptions options;
  options.reduceOp = c10d::ReduceOp::SUM;
  options.timeout = m_timeout;
  try {
    return m_backend->allreduce(tensors, options);
  } catch (const std::exception& error) {
    throw failure(what, error);
  }
}

void ProcessGroup::broadcast_from_first(std::vector<torch::Tensor>& tensors, const std::string& what)
{
  c10d::BroadcastOptions options;
  options.rootRank = 0;
  options.timeout = m_timeout;
  for (auto& tensor : tensors) {
    std::vector<torch::Tensor> one{tensor};
    c10::intrusive_ptr<c10d::Work> work;
    try {
      work = m_backend->broadcast(one, options);
    } catch (const std::exception& error) {
      throw failure(what, error);
    }
    wait(work, what);
  }
}

void ProcessGroup::wait(const c10::intrusive_ptr<c10d::Work>& work, const std::string& what)
{
  try {
    work->wait(m_timeout);
  } catch (const std::exception& error) {
    throw failure(what, error);
  }
}

Error ProcessGroup::failure(const std::string& what, const std::exception& error) const
{
  return Error(describe(m_rendezvous) + ": " + what + " failed: a rank has died or stopped answering (the process "
               + "group's timeout is " + seconds(m_timeout) + "): " + error_line(error));
}

} // namespace layerbench::bench::ddp
