// SPDX-License-Identifier: MIT
#pragma once

// The models page's section on data-parallel training (issue 38 item 4): the scaling factor measured
// here, each published factor beside it, and the all-reduce model of docs/scale.md computed from its
// inputs (the model's parameters, a reference's step time, the links' published bandwidths). A factor
// from a published dataset of data/ (results[].data_parallel) is computed as `layerbench scaling` does;
// the rest comes from data/reference/data-parallel-scaling.json. Where no GPU was measured with several
// ranks, the section says so.

#include "site/site_data.hpp"
#include "site/template_check.hpp"

namespace layerbench::site {

// {measured, has_gpu, published, model}, or false where the site has neither a data-parallel cell nor
// the reference file.
Data scaling_section(const SiteData& site);

} // namespace layerbench::site
