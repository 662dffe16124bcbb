// SPDX-License-Identifier: MIT
#include "serve/mime.hpp"

#include <doctest/doctest.h>

using layerbench::serve::mime_type;

TEST_CASE("serve::mime_type")
{
  SUBCASE("each type the site uses")
  {
    CHECK(mime_type("index.html") == "text/html; charset=utf-8");
    CHECK(mime_type("style.css") == "text/css; charset=utf-8");
    CHECK(mime_type("sort.js") == "text/javascript; charset=utf-8");
    CHECK(mime_type("chart.svg") == "image/svg+xml");
    CHECK(mime_type("data/a100.json") == "application/json");
    CHECK(mime_type("data/a100.csv") == "text/csv; charset=utf-8");
    CHECK(mime_type("shot.png") == "image/png");
    CHECK(mime_type("font.woff2") == "font/woff2");
    CHECK(mime_type("CITATION.cff") == "application/yaml");
    CHECK(mime_type("robots.txt") == "text/plain; charset=utf-8");
  }
  SUBCASE("the extension is matched without regard to case")
  {
    CHECK(mime_type("INDEX.HTML") == "text/html; charset=utf-8");
  }
  SUBCASE("unknown and missing extensions are octet streams")
  {
    CHECK(mime_type("archive.xyz") == "application/octet-stream");
    CHECK(mime_type("Makefile") == "application/octet-stream");
  }
}
