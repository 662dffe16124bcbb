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

namespace {

// Every label and value of one rows block ("methodology", "environment", "provenance") of the
// methodology page's settings, as "label: value" lines.
std::string rows_text(const Data& block)
{
  std::string text;
  for (const auto& row : block.get("rows")->list_value()) {
    text += row.get("label")->string_value() + ": " + row.get("value")->string_value() + "\n";
  }
  return text;
}

layerbench::dataset::Dataset with_cuda_clauses(const std::string& device_type)
{
  auto data = test::measured({"Linear", "Dropout"}, {1, 8});
  data.environment->device.type = device_type;
  data.methodology->precision = "float32 tensors. In force during this run: CPU (oneDNN): matmul ieee; CUDA (cuBLAS, cuDNN): "
                                "matmul ieee. The CPU's other kernels compute in IEEE fp32.";
  data.methodology->dispatch = "each layer runs the ATen operators. Every profile is taken after the timings: on CUDA a "
                               "profiler session leaves CUPTI attached.";
  return data;
}

} // namespace

TEST_CASE("site::methodology_page for a device type")
{
  SUBCASE("a dataset measured on a CPU is described without CUDA events, cuDNN switches or CUDA clauses")
  {
    const Data view = test::page_view(with_cuda_clauses("cpu"), "methodology.html");
    CHECK(view.get("timed_on_gpu")->is_false());
    const std::string settings = rows_text(*view.get("settings")->get("methodology")) + rows_text(*view.get("settings")->get("environment"));
    CHECK(settings.find("CUDA") == std::string::npos);
    CHECK(settings.find("cuDNN") == std::string::npos);
    CHECK(settings.find("CPU (oneDNN): matmul ieee. The CPU's other kernels compute in IEEE fp32.") != std::string::npos);
    CHECK(settings.find("Every profile is taken after the timings.") != std::string::npos);
  }
  SUBCASE("a dataset measured on CUDA keeps them")
  {
    const Data view = test::page_view(with_cuda_clauses("cuda"), "methodology.html");
    CHECK(!view.get("timed_on_gpu")->is_false());
    const std::string settings = rows_text(*view.get("settings")->get("methodology")) + rows_text(*view.get("settings")->get("environment"));
    CHECK(settings.find("CUDA (cuBLAS, cuDNN): matmul ieee") != std::string::npos);
    CHECK(settings.find("on CUDA a profiler session leaves CUPTI attached") != std::string::npos);
    CHECK(settings.find("cuDNN benchmark mode: no") != std::string::npos);
  }
}

TEST_CASE("site::datasets_page provenance of a transcription")
{
  auto data = test::measured({"Linear", "Dropout"}, {1, 8});
  data.kind = layerbench::dataset::Kind::published_reference;
  data.environment.reset();
  data.provenance.tool = "layerbench";
  data.provenance.git_commit = "ff69ab35e871d8ff3371afff978875fe225960b3-dirty";
  data.provenance.command_line = "python3 data/reference/transcribe_seed.py ../shared/seeds/000_3d1e0c631eabe186.txt "
                                 "build-dataset/layerbench /tmp/a100-reference-run.json";
  const Data view = test::page_view(data, "datasets.html");
  const std::string provenance = rows_text(*view.get("blocks")->list_value().front().get("provenance"));
  SUBCASE("names the script that copied the page's figures")
  {
    CHECK(provenance.find("Transcribed with: data/reference/transcribe_seed.py (layerbench 0.1.0), from a copy of the source page")
          != std::string::npos);
  }
  SUBCASE("shows no scratch file, seed name or uncommitted working tree of the machine that ran it")
  {
    for (const std::string hidden : {"000_3d1e0c631eabe186", "a100-reference-run", "uncommitted", "-dirty", "build-dataset"}) {
      CHECK_MESSAGE(provenance.find(hidden) == std::string::npos, provenance << " shows " << hidden);
    }
  }
}
