// SPDX-License-Identifier: MIT
#pragma once

// The reader's words for the performance settings (dataset/axes.hpp): a page names a setting as
// "bf16, channels-last, no-grad mode", never as the key and value that the files and the command line
// spell ("precision=bf16"); the files keep their keys.

#include "dataset/axes.hpp"

#include <string>

namespace layerbench::site {

// Where a dataset ran: a corner described for a CPU leaves out the CUDA-only settings (cudnn.benchmark),
// which its kernels never read.
enum class DeviceKind { cpu, cuda };

// One value of one axis in words: ("memory_format", "channels_last") -> "channels-last"; a value the
// table does not know (a test's own axis) as it is spelled.
std::string value_words(const std::string& axis, const std::string& value);
// The values that differ from the reference corner, "bf16, channels-last, no-grad mode"; "baseline"
// for the reference corner. Unique per corner, as dataset::label is.
std::string setting_words(const dataset::Axes& axes);
// Every axis of the corner, "fp32, contiguous memory, inference mode, eager" on a CPU, with
// "cuDNN benchmark off" before the mode on CUDA.
std::string corner_words(const dataset::Axes& axes, DeviceKind device);
// Text recorded in a dataset (a skip reason, a source note) with the keys it quotes in words:
// "memory_format=channels_last: ..." -> "channels-last: ...", "median_ms is derived" -> "Median
// time is derived".
std::string reader_prose(const std::string& text);

} // namespace layerbench::site
