// SPDX-License-Identifier: MIT
#include "site/setting_words.hpp"

#include <cctype>
#include <map>
#include <utility>
#include <vector>

namespace layerbench::site {

namespace {

using Key = std::pair<std::string, std::string>; // {axis, value}

// Words as PyTorch's own documentation says them ("no-grad mode", "channels-last", "AOTInductor").
const std::map<Key, std::string>& words_table()
{
  static const std::map<Key, std::string> table = {
    {{"precision", "fp32"}, "fp32"},
    {{"precision", "tf32"}, "TF32"},
    {{"precision", "bf16"}, "bf16"},
    {{"precision", "fp16"}, "fp16"},
    {{"memory_format", "contiguous"}, "contiguous memory"},
    {{"memory_format", "channels_last"}, "channels-last"},
    {{"cudnn_benchmark", "off"}, "cuDNN benchmark off"},
    {{"cudnn_benchmark", "on"}, "cuDNN benchmark on"},
    {{"mode", "inference_mode"}, "inference mode"},
    {{"mode", "no_grad"}, "no-grad mode"},
    {{"mode", "train"}, "training"},
    {{"compiled", "eager"}, "eager"},
    {{"compiled", "aot_inductor"}, "AOTInductor"},
    {{"compiled", "torch_compile"}, "torch.compile"},
  };
  return table;
}

// Keys of the dataset format that recorded prose quotes, in words.
const std::vector<std::pair<std::string, std::string>>& key_words()
{
  static const std::vector<std::pair<std::string, std::string>> keys = {
    {"median_ms", "median time"},
  };
  return keys;
}

std::string joined(const std::vector<std::string>& items)
{
  std::string text;
  for (const auto& item : items) {
    text += (text.empty() ? "" : ", ") + item;
  }
  return text;
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Replaces `from` where it stands as a whole token, so "median_ms" leaves "cell_median_ms" alone.
void replace_token(std::string& text, const std::string& from, const std::string& to)
{
  for (size_t at = text.find(from); at != std::string::npos;) {
    const size_t end = at + from.size();
    if ((at > 0 && is_word_char(text[at - 1])) || (end < text.size() && is_word_char(text[end]))) {
      at = text.find(from, end);
      continue;
    }
    text.replace(at, from.size(), to);
    at = text.find(from, at + to.size());
  }
}

// A key quoted at the start of the text or of a sentence begins it with a capital.
void capitalise_sentences(std::string& text, const std::string& words)
{
  std::string capital = words;
  capital[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(capital[0])));
  if (text.compare(0, words.size(), words) == 0) {
    text.replace(0, words.size(), capital);
  }
  for (size_t at = text.find(". " + words); at != std::string::npos; at = text.find(". " + words, at + 2)) {
    text.replace(at + 2, words.size(), capital);
  }
}

} // namespace

std::string value_words(const std::string& axis, const std::string& value)
{
  const auto found = words_table().find({axis, value});
  return found == words_table().end() ? value : found->second;
}

std::string setting_words(const dataset::Axes& axes)
{
  std::vector<std::string> words;
  for (size_t axis = 0; axis < dataset::axis_table().size(); ++axis) {
    const auto& info = dataset::axis_table()[axis];
    if (const int index = axes.value_index(axis); index != 0) {
      words.push_back(value_words(info.name, info.values.at(index)));
    }
  }
  return words.empty() ? "baseline" : joined(words);
}

std::string corner_words(const dataset::Axes& axes, DeviceKind device)
{
  std::vector<std::string> words;
  for (const auto& info : dataset::axis_table()) {
    if (info.name == dataset::k_cudnn_benchmark.name && device == DeviceKind::cpu) {
      continue;
    }
    words.push_back(value_words(info.name, dataset::axis_value(axes, info.name)));
  }
  return joined(words);
}

std::string reader_prose(const std::string& text)
{
  std::string result = text;
  for (const auto& [key, words] : words_table()) {
    replace_token(result, key.first + "=" + key.second, words);
  }
  for (const auto& [key, words] : key_words()) {
    replace_token(result, key, words);
    capitalise_sentences(result, words);
  }
  return result;
}

} // namespace layerbench::site
