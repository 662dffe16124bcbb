// SPDX-License-Identifier: MIT
#pragma once

// How to cite one dataset version, generated from the dataset itself so that the snippet on the
// site can never disagree with the file. For a published reference the snippet also names the page
// its figures come from, since they are the page's, not ours.

#include "dataset/dataset.hpp"

#include <string>

namespace layerbench::dataset {

// "layerbench-<id>-v<N>" (BibTeX key).
std::string citation_key(const Dataset& dataset);

// A BibTeX @misc entry.
std::string bibtex(const Dataset& dataset);

// A complete CITATION.cff document (CFF 1.2.0, type: dataset) for this version.
std::string cff(const Dataset& dataset);

} // namespace layerbench::dataset
