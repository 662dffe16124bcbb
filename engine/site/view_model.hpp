// SPDX-License-Identifier: MIT
#pragma once

// The view model: everything a page shows, as text. Every number is formatted here (util/format.hpp);
// templates only place strings. A figure a dataset does not have is shown as "—", never invented.

#include "site/site_data.hpp"
#include "site/template_check.hpp"

#include <string>
#include <vector>

namespace layerbench::site {

extern const char* const k_missing; // "—"

// The pages of the site: the template that renders each and where it goes under the site root.
struct PageSpec
{
  std::string template_name;
  std::string path; // "index.html", "layers/Conv2d.html"
  Data view;
  // Markdown prose to render with the same view and insert as {{{prose}}}; empty for none.
  std::string prose;
};

// base_url: where the site is served, for the addresses in citations; empty for none. served_path:
// the path a host serves it at, where the 404 page's links start; empty for base_url's path, if any.
std::vector<PageSpec> build_pages(const SiteData& site, const std::string& base_url = "", const std::string& served_path = "");

} // namespace layerbench::site
