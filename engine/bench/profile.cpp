// SPDX-License-Identifier: MIT
#include "bench/profile.hpp"

#include "bench/detail/torch_compat.hpp"

#include "dataset/json_text.hpp"

#include <torch/csrc/autograd/profiler_kineto.h>

#include <algorithm>
#include <map>

namespace layerbench::bench {

namespace {

namespace profiler = torch::autograd::profiler;
using torch::profiler::impl::ActivityType;
using torch::profiler::impl::ProfilerConfig;
using torch::profiler::impl::ProfilerState;

bool is_aten(const std::string& name) { return name.rfind("aten::", 0) == 0; }

} // namespace

std::string recordable_name(const std::string& name)
{
  // A dataset's readers take strings of at most k_max_text_bytes; a templated CUDA kernel's name can be
  // longer, and the run's own dataset must stay readable.
  if (name.size() <= dataset::k_max_text_bytes) {
    return name;
  }
  size_t cut = dataset::k_max_text_bytes - 3;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) {
    --cut; // not inside a UTF-8 sequence
  }
  return name.substr(0, cut) + "...";
}

namespace {

template<typename Entry, typename Share>
void sort_by_share(std::vector<Entry>& entries, Share share)
{
  std::stable_sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) {
    return share(a) != share(b) ? share(a) > share(b) : a.name < b.name;
  });
}

std::vector<dataset::Kernel> aggregate_kernels(const std::vector<profiler::KinetoEvent>& events)
{
  std::map<std::string, std::pair<int64_t, double>> by_name;
  double total = 0;
  for (const auto& event : events) {
    const auto times = detail::event_times(event);
    const auto duration = static_cast<double>(times.end_ns - times.start_ns);
    if (event.deviceType() != c10::DeviceType::CUDA || duration == 0) {
      continue;
    }
    auto& entry = by_name[recordable_name(event.name())];
    entry.first += 1;
    entry.second += duration;
    total += duration;
  }
  std::vector<dataset::Kernel> kernels;
  for (const auto& [name, entry] : by_name) {
    kernels.push_back({name, entry.first, total > 0 ? entry.second / total : 0.0});
  }
  sort_by_share(kernels, [](const dataset::Kernel& k) { return k.device_fraction; });
  return kernels;
}

} // namespace

std::vector<dataset::Operator> aggregate_operators(std::vector<OpSpan> spans)
{
  // Per thread, in start order, a span's parent is the innermost open span that contains it.
  std::stable_sort(spans.begin(), spans.end(), [](const OpSpan& a, const OpSpan& b) {
    if (a.thread != b.thread) {
      return a.thread < b.thread;
    }
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns > b.end_ns;
  });
  std::vector<double> self(spans.size());
  std::vector<size_t> open;
  for (size_t i = 0; i < spans.size(); ++i) {
    while (!open.empty()
           && (spans[open.back()].thread != spans[i].thread || spans[open.back()].end_ns <= spans[i].start_ns)) {
      open.pop_back();
    }
    const double duration = static_cast<double>(spans[i].end_ns - spans[i].start_ns);
    self[i] = duration;
    if (!open.empty()) {
      self[open.back()] -= duration;
    }
    open.push_back(i);
  }
  std::map<std::string, std::pair<int64_t, double>> by_name;
  double total = 0;
  for (size_t i = 0; i < spans.size(); ++i) {
    if (!is_aten(spans[i].name)) {
      continue;
    }
    const double own = std::max(0.0, self[i]);
    auto& entry = by_name[recordable_name(spans[i].name)];
    entry.first += 1;
    entry.second += own;
    total += own;
  }
  std::vector<dataset::Operator> operators;
  for (const auto& [name, entry] : by_name) {
    dataset::Operator op;
    op.name = name;
    op.calls = entry.first;
    op.self_cpu_fraction = total > 0 ? entry.second / total : 0.0;
    operators.push_back(op);
  }
  sort_by_share(operators, [](const dataset::Operator& op) { return op.self_cpu_fraction; });
  return operators;
}

Profile profile_forward(const std::function<void()>& forward, const std::function<void()>& synchronize, ProfileDevice device)
{
  std::set<ActivityType> activities{ActivityType::CPU};
  if (device == ProfileDevice::cuda) {
    activities.insert(ActivityType::CUDA);
  }
  const ProfilerConfig config(ProfilerState::KINETO);
  profiler::prepareProfiler(config, activities);
  profiler::enableProfiler(config, activities);
  try {
    forward();
    synchronize();
  } catch (...) {
    profiler::disableProfiler();
    throw;
  }
  const auto result = profiler::disableProfiler();

  std::vector<OpSpan> spans;
  for (const auto& event : result->events()) {
    const auto times = detail::event_times(event);
    if (event.deviceType() == c10::DeviceType::CPU && times.end_ns >= times.start_ns) {
      spans.push_back({event.name(), event.startThreadId(), times.start_ns, times.end_ns});
    }
  }
  Profile profile;
  profile.operators = aggregate_operators(std::move(spans));
  if (device == ProfileDevice::cuda) {
    profile.kernels = aggregate_kernels(result->events());
  }
  return profile;
}

} // namespace layerbench::bench
