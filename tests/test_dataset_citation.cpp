// SPDX-License-Identifier: MIT
#include "dataset/citation.hpp"

#include "test_dataset_fixture.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace layerbench;

namespace {

dataset::Dataset published()
{
  auto d = test::measured();
  d.version = 3;
  d.title = "H100 & friends: 100% of_layers";
  d.creators = {{"Ada Lovelace", "Analytical Engines"}, {"Alan Turing", ""}};
  return d;
}

} // namespace

TEST_CASE("dataset::bibtex")
{
  const auto text = dataset::bibtex(published());
  SUBCASE("key, authors, year, version")
  {
    CHECK(text.rfind("@misc{layerbench-test-cpu-v3,\n", 0) == 0);
    CHECK(text.find("  author = {{Ada Lovelace} and {Alan Turing}},\n") != std::string::npos);
    CHECK(text.find("  year = {2026},\n") != std::string::npos);
    CHECK(text.find("  version = {3},\n") != std::string::npos);
    CHECK(text.find("  howpublished = {LayerBench dataset test-cpu@3}\n}\n") != std::string::npos);
  }
  SUBCASE("TeX specials are escaped")
  {
    CHECK(text.find("  title = {H100 \\& friends: 100\\% of\\_layers},\n") != std::string::npos);
  }
  SUBCASE("braces, a backslash, ~ and ^ in a title or a creator stay text inside their field")
  {
    auto hostile = published();
    hostile.title = "T}, note = {injected} \\input{x} ~^";
    hostile.creators = {{"Eve}, title = {forged", ""}};
    const auto entry = dataset::bibtex(hostile, "https://example.org/a b}{");
    CHECK(entry.find("  title = {T\\textbraceright{}, note = \\textbraceleft{}injected\\textbraceright{} "
                     "\\textbackslash{}input\\textbraceleft{}x\\textbraceright{} \\textasciitilde{}\\textasciicircum{}},\n")
          != std::string::npos);
    CHECK(entry.find("  author = {{Eve\\textbraceright{}, title = \\textbraceleft{}forged}},\n") != std::string::npos);
    CHECK(entry.find("  url = {https://example.org/a%20b%7D%7B},\n") != std::string::npos);
    // Every field's braces balance, so BibTeX ends each where it was meant to end.
    int depth = 0;
    int lowest = 0;
    for (char c : entry) {
      depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      lowest = std::min(lowest, depth);
    }
    CHECK(lowest == 0);
    CHECK(depth == 0);
  }
  SUBCASE("the licence and the creators' attribution go into the note")
  {
    CHECK(text.find("note = {Licence CC-BY-4.0. Ada Lovelace and Alan Turing, \"H100 \\& friends: 100\\% of\\_layers\", "
                    "LayerBench dataset test-cpu version 3, licensed CC-BY-4.0")
          != std::string::npos);
  }
  SUBCASE("without an address no url is written; with one it is the url and part of the note")
  {
    CHECK(text.find("url") == std::string::npos);
    const auto linked = dataset::bibtex(published(), "https://example.org/lb/datasets.html#test-cpu-v3");
    CHECK(linked.find("  url = {https://example.org/lb/datasets.html#test-cpu-v3},\n") != std::string::npos);
    // In the note TeX specials are escaped, the url field keeps the address as it is.
    CHECK(linked.find("version 3, https://example.org/lb/datasets.html\\#test-cpu-v3, licensed") != std::string::npos);
  }
  SUBCASE("a published reference names its page")
  {
    auto reference = published();
    reference.provenance.source = dataset::Source{"PyTorch Layer Performance Benchmark", "", "April 11, 2026",
                                                  "CC BY 4.0", "cite", "", "", "", {}};
    // The copy transcribed gives no address: the note says so rather than leaving it out.
    CHECK(dataset::bibtex(reference).find("Figures as printed by \"PyTorch Layer Performance Benchmark\" (address not "
                                          "known: the copy LayerBench transcribed does not give it), April 11, 2026, CC BY 4.0.")
          != std::string::npos);
    reference.provenance.source->url = "https://example.invalid/page";
    CHECK(dataset::bibtex(reference).find("\"PyTorch Layer Performance Benchmark\" (https://example.invalid/page), April 11")
          != std::string::npos);
  }
}

TEST_CASE("dataset::attribution")
{
  SUBCASE("names the dataset's creators, not a fixed text")
  {
    auto data = published();
    data.license.attribution = "Somebody else";
    const auto text = dataset::attribution(data, "");
    CHECK(text.rfind("Ada Lovelace and Alan Turing, \"H100", 0) == 0);
    CHECK(text.find("Somebody else") == std::string::npos);
    CHECK(text.find("(https://creativecommons.org/licenses/by/4.0/)") != std::string::npos);
  }
  SUBCASE("three creators are listed with commas and a final and")
  {
    auto data = published();
    data.creators.push_back({"Grace Hopper", ""});
    CHECK(dataset::attribution(data, "").rfind("Ada Lovelace, Alan Turing and Grace Hopper, ", 0) == 0);
  }
  SUBCASE("a published reference names its page first, and the page's address when known")
  {
    auto reference = published();
    reference.provenance.source = dataset::Source{"Seed page", "https://example.com/seed", "April 11, 2026",
                                                  "CC BY 4.0", "cite", "", "", "", {}};
    CHECK(dataset::attribution(reference, "").rfind("Figures as printed by \"Seed page\" (https://example.com/seed), "
                                                    "April 11, 2026, CC BY 4.0. Transcribed by Ada Lovelace",
                                                    0)
          == 0);
  }
}

TEST_CASE("dataset::cff")
{
  const auto text = dataset::cff(published());
  SUBCASE("a CFF 1.2.0 dataset document (cffconvert checks it in dataset/citation_cff)")
  {
    CHECK(text.rfind("cff-version: 1.2.0\n", 0) == 0);
    CHECK(text.find("\ntype: dataset\n") != std::string::npos);
    CHECK(text.find("\nversion: \"3\"\n") != std::string::npos);
    CHECK(text.find("\ndate-released: \"2026-11-22\"\n") != std::string::npos);
    CHECK(text.find("\nlicense: CC-BY-4.0\n") != std::string::npos);
  }
  SUBCASE("authors with affiliations, quoted as YAML strings")
  {
    CHECK(text.find("authors:\n  - alias: \"Ada Lovelace\"\n    affiliation: \"Analytical Engines\"\n"
                    "  - name: \"Alan Turing\"\n")
          != std::string::npos);
  }
  SUBCASE("an address goes into url and the abstract only when given")
  {
    CHECK(text.find("\nurl: ") == std::string::npos);
    const auto linked = dataset::cff(published(), "https://example.org/lb/datasets.html#test-cpu-v3");
    CHECK(linked.find("\nurl: \"https://example.org/lb/datasets.html#test-cpu-v3\"\n") != std::string::npos);
  }
  SUBCASE("quotes in a title stay inside the YAML string")
  {
    auto quoted = published();
    quoted.title = "A \"quoted\" title: yes";
    CHECK(dataset::cff(quoted).find("title: \"A \\\"quoted\\\" title: yes\"\n") != std::string::npos);
  }
}
