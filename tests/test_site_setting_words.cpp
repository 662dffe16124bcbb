// SPDX-License-Identifier: MIT
// The reader's words for the performance settings: no page shows a key or value as the files spell it.
#include "site/setting_words.hpp"
#include "site/view_pages.hpp"

#include <doctest/doctest.h>

#include <string>

namespace dataset = layerbench::dataset;
namespace site = layerbench::site;

namespace {

dataset::Axes corner(std::initializer_list<std::pair<const char*, const char*>> values)
{
  dataset::Axes axes;
  for (const auto& [axis, value] : values) {
    dataset::set_axis(axes, axis, value);
  }
  return axes;
}

} // namespace

TEST_CASE("site::setting_words")
{
  SUBCASE("the values that differ from the reference, in words")
  {
    CHECK(site::setting_words(corner({{"precision", "bf16"}, {"memory_format", "channels_last"}, {"mode", "no_grad"}}))
          == "bf16, channels-last, no-grad mode");
    CHECK(site::setting_words(corner({{"compiled", "aot_inductor"}})) == "AOTInductor");
    CHECK(site::setting_words(corner({{"cudnn_benchmark", "on"}, {"mode", "train"}})) == "cuDNN benchmark on, training");
  }
  SUBCASE("the reference corner is the baseline")
  {
    CHECK(site::setting_words(dataset::Axes{}) == "baseline");
  }
  SUBCASE("a value the table does not know is shown as it is spelled")
  {
    dataset::ScopedAxis extra({"threads_pinned", {"no", "yes"}, "test axis"});
    dataset::Axes axes;
    axes.set_value_index(extra.index(), 1);
    CHECK(site::setting_words(axes) == "yes");
  }
}

TEST_CASE("site::corner_words")
{
  SUBCASE("a CPU corner leaves out cuDNN, which its kernels never read")
  {
    CHECK(site::corner_words(dataset::Axes{}, site::DeviceKind::cpu) == "fp32, contiguous memory, inference mode, eager");
  }
  SUBCASE("a CUDA corner names it")
  {
    CHECK(site::corner_words(dataset::Axes{}, site::DeviceKind::cuda)
          == "fp32, contiguous memory, cuDNN benchmark off, inference mode, eager");
  }
}

TEST_CASE("site::model_setting_label")
{
  CHECK(site::model_setting_label(corner({{"mode", "train"}, {"compiled", "torch_compile"}})) == "training, fp32, torch.compile");
  CHECK(site::model_setting_label(corner({{"compiled", "aot_inductor"}})) == "inference mode, fp32, AOTInductor");
}

TEST_CASE("site::reader_prose")
{
  SUBCASE("a skip reason's axis=value in words")
  {
    CHECK(site::reader_prose("memory_format=channels_last: a layout of 4-D tensors; LSTM takes no 4-D input")
          == "channels-last: a layout of 4-D tensors; LSTM takes no 4-D input");
  }
  SUBCASE("a key that begins a sentence becomes its words, with a capital")
  {
    CHECK(site::reader_prose("median_ms is derived, not printed. median_ms again; the median_ms column")
          == "Median time is derived, not printed. Median time again; the median time column");
  }
  SUBCASE("a longer key that holds one is left alone")
  {
    CHECK(site::reader_prose("cell_median_ms and memory_format=channels_lastish") == "cell_median_ms and memory_format=channels_lastish");
  }
}
