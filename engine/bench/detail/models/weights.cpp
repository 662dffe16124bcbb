// SPDX-License-Identifier: MIT
#include "bench/detail/models/weights.hpp"

#include "util/error.hpp"

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <vector>

namespace layerbench::bench::models {

namespace {

std::string shape_text(const torch::Tensor& tensor)
{
  std::ostringstream text;
  text << tensor.sizes() << " " << tensor.dtype();
  return text.str();
}

// At most a few names, so that a wholly different model gives a readable message.
std::string listed(const std::vector<std::string>& names)
{
  constexpr size_t k_shown = 5;
  std::string text;
  for (size_t i = 0; i < names.size() && i < k_shown; ++i) {
    text += (i > 0 ? ", " : "") + names[i];
  }
  if (names.size() > k_shown) {
    text += " and " + std::to_string(names.size() - k_shown) + " more";
  }
  return text;
}

} // namespace

NamedTensors read_named_tensors(const std::filesystem::path& file)
{
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error(file.string() + ": cannot be opened");
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  torch::IValue value;
  try {
    value = torch::pickle_load(bytes);
  } catch (const c10::Error& error) {
    throw Error(file.string() + ": not a file of torch.save (" + error.what_without_backtrace() + ")");
  }
  if (!value.isGenericDict()) {
    throw Error(file.string() + ": holds a " + value.tagKind() + ", not a dict of tensors");
  }
  NamedTensors tensors;
  for (const auto& entry : value.toGenericDict()) {
    if (!entry.key().isString() || !entry.value().isTensor()) {
      throw Error(file.string() + ": holds an entry that is not a name and a tensor");
    }
    tensors.emplace(entry.key().toStringRef(), entry.value().toTensor());
  }
  return tensors;
}

void write_named_tensors(const std::filesystem::path& file, const NamedTensors& tensors)
{
  c10::Dict<std::string, torch::Tensor> dict;
  for (const auto& [name, tensor] : tensors) {
    dict.insert(name, tensor);
  }
  const auto bytes = torch::pickle_save(dict);
  std::ofstream out(file, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    throw Error(file.string() + ": cannot be written");
  }
}

NamedTensors named_state(const torch::nn::Module& module)
{
  NamedTensors state;
  for (const auto& item : module.named_parameters()) {
    state.emplace(item.key(), item.value());
  }
  for (const auto& item : module.named_buffers()) {
    state.emplace(item.key(), item.value());
  }
  return state;
}

void load_named_tensors(torch::nn::Module& module, const NamedTensors& tensors)
{
  const auto targets = named_state(module);
  std::vector<std::string> missing, unexpected, mismatched;
  for (const auto& [name, target] : targets) {
    const auto source = tensors.find(name);
    if (source == tensors.end()) {
      missing.push_back(name);
    } else if (source->second.sizes() != target.sizes() || source->second.dtype() != target.dtype()) {
      mismatched.push_back(name + " (" + shape_text(source->second) + " into " + shape_text(target) + ")");
    }
  }
  for (const auto& [name, tensor] : tensors) {
    if (targets.count(name) == 0) {
      unexpected.push_back(name);
    }
  }
  if (!missing.empty() || !unexpected.empty() || !mismatched.empty()) {
    std::string message = "the tensors do not fit the module:";
    if (!missing.empty()) {
      message += " missing " + listed(missing) + ";";
    }
    if (!unexpected.empty()) {
      message += " unexpected " + listed(unexpected) + ";";
    }
    if (!mismatched.empty()) {
      message += " mismatched " + listed(mismatched) + ";";
    }
    message.pop_back();
    throw Error(message);
  }
  torch::NoGradGuard no_grad;
  for (const auto& [name, target] : targets) {
    target.copy_(tensors.at(name));
  }
}

int64_t count_unique_parameters(const torch::nn::Module& module)
{
  std::set<const c10::TensorImpl*> seen;
  int64_t total = 0;
  for (const auto& parameter : module.parameters()) {
    if (seen.insert(parameter.unsafeGetTensorImpl()).second) {
      total += parameter.numel();
    }
  }
  return total;
}

} // namespace layerbench::bench::models
