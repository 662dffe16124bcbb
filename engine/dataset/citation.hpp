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

// `url` is the address of the page that serves this version (render --base-url), or empty when none is
// known: then no address is written, rather than one that would not resolve.

// The attribution CC BY asks for: the dataset's creators, its title and version, where it is found and
// its licence; a published reference first names the page its figures come from.
std::string attribution(const Dataset& dataset, const std::string& url);

// A BibTeX @misc entry.
std::string bibtex(const Dataset& dataset, const std::string& url = "");

// A complete CITATION.cff document (CFF 1.2.0, type: dataset) for this version.
std::string cff(const Dataset& dataset, const std::string& url = "");

} // namespace layerbench::dataset
