// SPDX-License-Identifier: MIT
#pragma once

// The fields a citation is made from (dataset/citation.hpp: the CFF, the BibTeX entry, the attribution
// on the site's datasets page), held to what those formats can carry. Refused where a dataset enters
// (validate, and publish, which validates), so that no exported CFF fails `cffconvert --validate`
// and no control character reaches a page or a BibTeX file.

#include "dataset/dataset.hpp"
#include "dataset/validate.hpp"

#include <string>
#include <vector>

namespace layerbench::dataset {

// Whether `text` is a real UTC date-time written as "2026-11-22T04:05:07Z": a month of 01 to 12, a day
// that month has (29 February in leap years only), hours 00 to 23, minutes and seconds 00 to 59.
bool valid_utc_time(const std::string& text);

// Why `text` cannot stand in a citation, or "" when it can: a control character (C0, DEL, C1), a
// noncharacter (U+FDD0 to U+FDEF, U+xFFFE, U+xFFFF), bytes that are not UTF-8, or, when it is not
// empty, nothing but white space. The message names the character's code point and where it is.
std::string citation_text_problem(const std::string& text);

// The problems of a dataset's citation fields: created, the title, the creators' names and
// affiliations, and what a published reference says of its source. An empty title or name is
// validate's own rule ("empty title"), not repeated here.
std::vector<Problem> check_citation(const Dataset& dataset);

} // namespace layerbench::dataset
