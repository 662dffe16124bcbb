// SPDX-License-Identifier: MIT
#pragma once

// A transcribed reference's whole-model figures (NVIDIA DeepLearningExamples' A100 training throughput)
// beside ours, with the ratio of our samples per second to the reference's (issue 38). A row pairs a
// reference cell with one measured dataset's cell of the same model and mode and the same kind of
// precision: full (fp32, or TF32 math on fp32 tensors) or mixed (bf16 or fp16 autocast). What still
// differs, the batch size, the exact precision or the memory format, is said in the row. One row per
// reference cell and device.

#include "site/site_data.hpp"
#include "site/template_check.hpp"

#include <string>

namespace layerbench::site {

// {rows, sources} for `model` (empty: every model), or false where no measured cell matches any
// reference cell: a page then shows nothing of it.
Data reference_beside(const SiteData& site, const std::string& model);

} // namespace layerbench::site
