// SPDX-License-Identifier: MIT
// Data-parallel training through real processes (engine/bench/ddp/, docs/scale.md), run by CTest:
//
//   bench_ddp_driver equal-weights FOLDER   one rank at batch 2B and two ranks at batch B end one SGD
//                                           step of a tiny ResNet with the same weights
//   bench_ddp_driver dead-rank              a rank that exits early makes the other fail with an error
//
// Each check starts its ranks with launch_local, which runs this executable again with RANK set; such
// a process is a rank and does what its arguments say ("step", "die").
#include "bench/detail/ddp/gradient_reducer.hpp"
#include "bench/ddp/launcher.hpp"
#include "bench/detail/models/resnet.hpp"
#include "bench/torch_error.hpp"
#include "util/error.hpp"

#include <torch/torch.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

using namespace layerbench;
using namespace layerbench::bench;
using namespace layerbench::bench::ddp;

namespace {

constexpr int64_t k_batch = 4;      // B, per rank of two
constexpr int64_t k_classes = 5;
constexpr int64_t k_image = 32;
constexpr double k_learning_rate = 0.1;
// fp32 sums in another order: the two runs may differ by rounding, not by more.
constexpr double k_tolerance = 1e-5;
const auto k_timeout = std::chrono::seconds(10);

// A ResNet of one bottleneck per stage. Its BatchNorms are in eval mode: with batch statistics, a
// sample's output would depend on the other samples of its batch, and a batch of 2B is not two of B;
// with the running statistics every sample is computed alone, so the mean gradient over 2B samples
// equals the mean of two means over B in exact arithmetic.
models::ResNet tiny_resnet(int seed)
{
  torch::manual_seed(seed);
  models::ResNet model(models::ResNetOptions{{1, 1, 1, 1}, k_classes});
  model->eval();
  return model;
}

std::vector<torch::Tensor> copies(const std::vector<torch::Tensor>& tensors)
{
  std::vector<torch::Tensor> result;
  for (const auto& tensor : tensors) {
    result.push_back(tensor.detach().clone());
  }
  return result;
}

// One rank's training step on its slice of a global batch of world_size x batch samples.
int step(const Rendezvous& rendezvous, int64_t batch, const std::string& prefix)
{
  ProcessGroup group(rendezvous, DeviceKind::cpu, k_timeout);
  // Another seed per rank: the weights agree only because rank 0's are broadcast.
  auto model = tiny_resnet(rendezvous.rank + 7);
  broadcast_module_state(group, *model);
  if (rendezvous.rank == 0) {
    torch::save(copies(model->parameters()), prefix + ".initial.pt");
  }
  torch::manual_seed(1);
  const auto images = torch::randn({rendezvous.world_size * batch, 3, k_image, k_image});
  const auto labels = torch::randint(0, k_classes, {rendezvous.world_size * batch});
  const auto mine = torch::indexing::Slice(rendezvous.rank * batch, (rendezvous.rank + 1) * batch);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(k_learning_rate));
  optimizer.zero_grad();
  torch::nn::functional::cross_entropy(model->forward(images.index({mine})), labels.index({mine})).backward();
  GradientReducer reducer(group, model->parameters());
  reducer.reduce();
  optimizer.step();
  torch::save(copies(model->parameters()), prefix + ".rank" + std::to_string(rendezvous.rank) + ".pt");
  std::cout << describe(rendezvous) << ": " << reducer.buckets().size() << " buckets (";
  for (const auto& bucket : reducer.buckets()) {
    std::cout << (&bucket == &reducer.buckets().front() ? "" : ", ") << bucket.bytes << " B";
  }
  std::cout << "), the all-reduce took " << reducer.last_reduce_ms() << " ms\n";
  return 0;
}

// Rank 1 leaves once the ranks have met; rank 0 then all-reduces alone and must fail, not hang.
int die(const Rendezvous& rendezvous)
{
  ProcessGroup group(rendezvous, DeviceKind::cpu, k_timeout);
  auto model = tiny_resnet(0);
  broadcast_module_state(group, *model);
  if (rendezvous.rank == 1) {
    std::cerr << "rank 1 leaves without a word\n";
    _exit(3);
  }
  model->forward(torch::randn({2, 3, k_image, k_image})).sum().backward();
  GradientReducer reducer(group, model->parameters());
  reducer.reduce();
  return 0;
}

int rank_main(const std::vector<std::string>& arguments)
{
  const auto rendezvous = rendezvous_from(process_environment());
  if (arguments.at(1) == "step") {
    return step(rendezvous, std::stoll(arguments.at(2)), arguments.at(3));
  }
  if (arguments.at(1) == "die") {
    return die(rendezvous);
  }
  throw Error("unknown rank command " + arguments.at(1));
}

std::vector<torch::Tensor> load(const std::string& path)
{
  std::vector<torch::Tensor> tensors;
  torch::load(tensors, path);
  return tensors;
}

double max_difference(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b)
{
  if (a.size() != b.size()) {
    throw Error("the runs saved " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " parameters");
  }
  double most = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    most = std::max(most, (a[i] - b[i]).abs().max().item<double>());
  }
  return most;
}

void launch(int world_size, const std::vector<std::string>& arguments)
{
  const auto failed = failed_ranks(launch_local(world_size, arguments));
  if (!failed.empty()) {
    throw Error("the ranks of a world of " + std::to_string(world_size) + " failed:\n" + failed);
  }
}

int equal_weights(const std::string& self, const std::filesystem::path& folder)
{
  std::filesystem::create_directories(folder);
  const auto one = (folder / "one").string();
  const auto two = (folder / "two").string();
  launch(1, {self, "step", std::to_string(2 * k_batch), one});
  launch(2, {self, "step", std::to_string(k_batch), two});
  const auto single = load(one + ".rank0.pt");
  const auto moved = max_difference(single, load(one + ".initial.pt"));
  const auto between_ranks = max_difference(load(two + ".rank0.pt"), load(two + ".rank1.pt"));
  const auto across_worlds = max_difference(single, load(two + ".rank0.pt"));
  std::cout << "the step moved a weight by up to " << moved << "; the two ranks differ by " << between_ranks
            << "; one rank at batch " << 2 * k_batch << " and two at batch " << k_batch << " by " << across_worlds
            << " (tolerance " << k_tolerance << ")\n";
  // A step that moves nothing would pass the comparison trivially.
  const bool ok = moved > 100 * k_tolerance && between_ranks == 0.0 && across_worlds <= k_tolerance;
  std::cout << (ok ? "PASS" : "FAIL") << "\n";
  return ok ? 0 : 1;
}

int dead_rank(const std::string& self)
{
  const auto exits = launch_local(2, {self, "die"});
  const auto& survivor = exits.at(0);
  const auto& leaver = exits.at(1);
  std::cout << failed_ranks(exits) << "\n";
  const bool left = WIFEXITED(leaver.status) && WEXITSTATUS(leaver.status) == 3;
  const bool failed = WIFEXITED(survivor.status) && WEXITSTATUS(survivor.status) == 1;
  const bool said_why = survivor.last_error.find("the all-reduce of gradient bucket") != std::string::npos
                        && survivor.last_error.find("a rank has died or stopped answering (the process group's timeout is 10 s)")
                             != std::string::npos;
  const bool ok = left && failed && said_why;
  std::cout << (ok ? "PASS" : "FAIL") << "\n";
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
  const std::vector<std::string> arguments(argv, argv + argc);
  try {
    if (std::getenv("RANK") != nullptr) {
      return rank_main(arguments);
    }
    if (arguments.size() == 3 && arguments[1] == "equal-weights") {
      return equal_weights(arguments[0], arguments[2]);
    }
    if (arguments.size() == 2 && arguments[1] == "dead-rank") {
      return dead_rank(arguments[0]);
    }
    std::cerr << "usage: bench_ddp_driver equal-weights FOLDER | dead-rank\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "layerbench: error: " << error_line(error) << "\n";
    return 1;
  }
}
