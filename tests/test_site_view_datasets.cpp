// SPDX-License-Identifier: MIT
// The datasets page's "reproduce this" lines, which a reader pastes into a shell, and what the
// methodology block says of the cells.
#include "site/view_pages.hpp"

#include "site/site_data.hpp"
#include "test_site_fixture.hpp"
#include "util/text.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using layerbench::site::Data;
namespace site = layerbench::site;
namespace test = layerbench::test;
namespace util = layerbench::util;

namespace {

std::vector<std::string> lines_of(const site::SiteDataset& entry)
{
  const Data view = site::reproduce_steps(entry);
  const Data* lines = view.get("lines");
  REQUIRE(lines != nullptr);
  std::vector<std::string> found;
  for (const auto& line : lines->list_value()) {
    found.push_back(line.string_value());
  }
  return found;
}

site::SiteDataset entry_of(const layerbench::dataset::Dataset& data)
{
  site::SiteDataset entry;
  entry.data = data;
  entry.slug = data.id + "-v1";
  return entry;
}

} // namespace

TEST_CASE("site::reproduce_steps")
{
  auto data = test::measured();
  data.provenance.git_commit = "0123abc";
  SUBCASE("the recorded run, with the reader's --out")
  {
    data.provenance.command_line = "layerbench run --device cpu --layers Linear,Dropout --out /home/me/run.json";
    const auto lines = lines_of(entry_of(data));
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] == "git checkout 0123abc");
    CHECK(lines[2] == "build/layerbench run --device cpu --layers Linear,Dropout --out my-run.json");
  }
  SUBCASE("a record's text reaches the shell as words, never as commands")
  {
    data.provenance.git_commit = "0123abc; touch injected";
    data.provenance.command_line = "layerbench run --device cpu; touch injected $(touch injected) --out=x.json";
    data.environment->glibc_tunables = "glibc.malloc.arena_max=1 touch injected";
    const auto lines = lines_of(entry_of(data));
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] == "git checkout '0123abc; touch injected'");
    CHECK(lines[2] == "GLIBC_TUNABLES='glibc.malloc.arena_max=1 touch injected' build/layerbench run --device 'cpu;' "
                      "touch injected '$(touch' 'injected)' --out=my-run.json");
    // As the shell reads it: one command, whose words are the record's.
    const auto words = util::shell_words(lines[2]);
    REQUIRE(words.has_value());
    CHECK((*words)[0] == "GLIBC_TUNABLES=glibc.malloc.arena_max=1 touch injected");
    CHECK((*words)[1] == "build/layerbench");
  }
  SUBCASE("a record that is not a run, or that a shell could not split, gets a plain run of the device")
  {
    for (const std::string recorded : {"layerbench merge a.json b.json", "layerbench run --title 'open"}) {
      CAPTURE(recorded);
      data.provenance.command_line = recorded;
      data.environment->device.type = "cpu`touch injected`";
      CHECK(lines_of(entry_of(data))[2] == "build/layerbench run --device 'cpu`touch injected`' --out my-run.json");
    }
  }
}

namespace {

// The methodology block's "CPU memory policy" on the methodology page of a site holding only `data`.
std::string memory_policy_row(const layerbench::dataset::Dataset& data)
{
  const Data view = test::page_view(data, "methodology.html");
  for (const auto& row : view.get("settings")->get("methodology")->get("rows")->list_value()) {
    if (row.get("label")->string_value() == "CPU memory policy") {
      return row.get("value")->string_value();
    }
  }
  FAIL("no CPU memory policy row");
  return "";
}

} // namespace

TEST_CASE("site::methodology_page")
{
  auto data = test::measured({"Linear", "Dropout"}, {1, 8});
  data.methodology->cpu_memory_policy = "steady-state";
  data.methodology->cpu_memory_policy_text = "steady-state: freed memory is reused, so the timed loop takes no page faults";
  for (auto& cell : data.results) {
    cell.page_faults_per_iteration = 0.0;
  }
  SUBCASE("\"the timed loop takes no page faults\" stays while every cell recorded none")
  {
    CHECK(memory_policy_row(data) == "steady-state: freed memory is reused, so the timed loop takes no page faults");
  }
  SUBCASE("a cell with page faults takes the claim out and is named")
  {
    test::cell_of(data, "Linear", 8).page_faults_per_iteration = 1024.0;
    CHECK(memory_policy_row(data)
          == "steady-state: freed memory is reused; even so, 1 of 4 cells took page faults in the timed loop, up to 1,024 "
             "per iteration (Linear at batch size 8)");
  }
  SUBCASE("cells that recorded no page faults at all cannot bear the claim out")
  {
    for (auto& cell : data.results) {
      cell.page_faults_per_iteration.reset();
    }
    CHECK(memory_policy_row(data) == "steady-state: freed memory is reused");
  }
}
