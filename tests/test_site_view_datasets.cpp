// SPDX-License-Identifier: MIT
// A dataset page's "reproduce this" lines, which a reader pastes into a shell, what the methodology
// block says of the cells, and the datasets index: a row per dataset, grouped by device, in release order.
#include "site/view_pages.hpp"

#include "site/site_data.hpp"
#include "site/view_model.hpp"
#include "test_site_fixture.hpp"
#include "util/text.hpp"

#include <doctest/doctest.h>

#include <algorithm>
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
  SUBCASE("the CPU's type and the NVIDIA driver are shown where the run recorded them (1.10.0), and only there")
  {
    auto data = with_cuda_clauses("cuda");
    const auto before = test::page_view(data, "methodology.html");
    const std::string without = rows_text(*before.get("settings")->get("environment"));
    CHECK(without.find("CPU type") == std::string::npos);
    CHECK(without.find("NVIDIA driver") == std::string::npos);
    data.environment->cpu = layerbench::dataset::CpuIdentity{"AuthenticAMD", 25, 17, 1, {"avx2", "avx512f"}, "AVX512"};
    data.environment->device.kernel_driver = "580.159.04";
    const auto after = test::page_view(data, "methodology.html");
    const std::string with = rows_text(*after.get("settings")->get("environment"));
    CHECK(with.find("CPU type: AuthenticAMD family 25 model 17 stepping 1; ATen kernels AVX512; flags avx2 avx512f") != std::string::npos);
    CHECK(with.find("NVIDIA driver: 580.159.04") != std::string::npos);
  }
}

TEST_CASE("site::dataset_page provenance of a transcription")
{
  auto data = test::measured({"Linear", "Dropout"}, {1, 8});
  data.kind = layerbench::dataset::Kind::published_reference;
  data.environment.reset();
  data.provenance.tool = "layerbench";
  data.provenance.git_commit = "ff69ab35e871d8ff3371afff978875fe225960b3-dirty";
  data.provenance.command_line = "python3 data/reference/transcribe_seed.py ../shared/seeds/000_3d1e0c631eabe186.txt "
                                 "build-dataset/layerbench /tmp/a100-reference-run.json";
  const Data view = test::page_view(data, "datasets/test-cpu-v1.html");
  const std::string provenance = rows_text(*view.get("dataset")->get("provenance"));
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

namespace {

// A published entry of `data` as the site loads it, its slug "<id>-v<version>".
site::SiteDataset published(layerbench::dataset::Dataset data)
{
  site::SiteDataset entry;
  entry.slug = data.id + "-v" + std::to_string(data.version);
  entry.label = data.id;
  entry.data = std::move(data);
  return entry;
}

layerbench::dataset::Dataset on(const std::string& device, const std::string& torch, const std::string& created)
{
  auto data = test::measured({"Linear"}, {1});
  data.environment->device.name = device;
  data.environment->torch_version = torch;
  data.created = created;
  data.id = "epyc-torch-" + torch;
  data.version = 1;
  return data;
}

// Releases out of order in the catalog, as the versions series publishes them, and one machine whose
// name carries its clock in one run only.
site::SiteData index_site()
{
  site::SiteData site;
  site.datasets.push_back(published(on("AMD EPYC", "2.11.0", "2026-11-24T05:31:04Z")));
  site.datasets.push_back(published(on("AMD EPYC", "2.9.1", "2026-11-24T05:42:08Z")));
  auto older = on("AMD EPYC", "2.7.1", "2026-11-24T05:23:18Z");
  site.datasets.push_back(published(older));
  older.version = 2;
  older.created = "2026-11-24T05:45:16Z";
  older.replaces = "epyc-torch-2.7.1@1";
  site.datasets.push_back(published(older));
  auto xeon = on("Intel(R) Xeon(R) Processor", "2.11.0", "2026-11-22T05:33:04Z");
  xeon.id = "xeon";
  site.datasets.push_back(published(xeon));
  xeon.environment->device.name = "Intel(R) Xeon(R) Processor @ 2.80GHz";
  xeon.id = "xeon-clocked";
  site.datasets.push_back(published(xeon));
  return site;
}

std::string field(const Data& view, const std::string& key) { return view.get(key)->string_value(); }

} // namespace

TEST_CASE("site::datasets_page")
{
  auto site = index_site();
  SUBCASE("one group per device, named without the clock some runs add to a CPU's name")
  {
    const auto groups = test::page_of(site, "datasets.html").get("groups")->list_value();
    REQUIRE(groups.size() == 2);
    CHECK(field(groups[0], "device") == "AMD EPYC");
    CHECK(field(groups[0], "anchor") == "device-amd-epyc");
    CHECK(field(groups[1], "device") == "Intel(R) Xeon(R) Processor");
    CHECK(field(groups[1], "anchor") == "device-intel-r-xeon-r-processor");
    CHECK(groups[1].get("rows")->list_value().size() == 2);
  }
  SUBCASE("a device's rows in release order as numbers (2.11 after 2.9), then by date")
  {
    const auto rows = test::page_of(site, "datasets.html").get("groups")->list_value()[0].get("rows")->list_value();
    std::vector<std::string> order;
    for (const auto& row : rows) {
      order.push_back(field(row, "torch") + " " + field(row, "version"));
    }
    CHECK(order == std::vector<std::string>{"2.7.1 v1", "2.7.1 v2", "2.9.1 v1", "2.11.0 v1"});
    // The script sorts a column by one number: 2.11.0 must come after 2.9.1 there too.
    CHECK(field(rows[2], "torch_sort") == "2009001");
    CHECK(field(rows[3], "torch_sort") == "2011000");
  }
  SUBCASE("a row links to the dataset's own page, keeps its old anchor and says what tells it apart")
  {
    const auto row = test::page_of(site, "datasets.html").get("groups")->list_value()[0].get("rows")->list_value()[3];
    CHECK(field(row, "href") == "datasets/epyc-torch-2.11.0-v1.html");
    CHECK(field(row, "anchor") == "epyc-torch-2.11.0-v1");
    CHECK(field(row, "kind") == "measured");
    CHECK(field(row, "date") == "2026-11-24");
    CHECK(field(row, "created_sort") == "20261124053104"); // one number for the script, in time order
    CHECK(field(row, "cells") == "1");
    CHECK(field(row, "settings") == "float32");
    CHECK(field(row, "rounds") == "1");
    CHECK(row.get("notes")->list_value().empty());
  }
  SUBCASE("a replaced version and an erratum are marked, each with a link")
  {
    site.datasets[2].errata = {{layerbench::dataset::WithdrawnField::peak_memory_bytes, "Counted the canary.", "2026-11-27", "0123abcd"}};
    const auto row = test::page_of(site, "datasets.html").get("groups")->list_value()[0].get("rows")->list_value()[0];
    const auto notes = row.get("notes")->list_value();
    REQUIRE(notes.size() == 2);
    CHECK(field(notes[0], "text") == "peak memory withdrawn");
    CHECK(field(notes[0], "href") == "datasets/epyc-torch-2.7.1-v1.html#erratum-epyc-torch-2.7.1-v1-peak_memory_bytes");
    CHECK(field(notes[1], "text") == "replaced by v2");
    CHECK(field(notes[1], "href") == "datasets/epyc-torch-2.7.1-v2.html");
  }
  SUBCASE("a transcribed reference states its release as the page gives it, and no rounds")
  {
    auto reference = test::measured({"Linear"}, {1});
    reference.id = "a100-reference";
    reference.kind = layerbench::dataset::Kind::published_reference;
    reference.environment.reset();
    reference.methodology.reset();
    reference.provenance.source = layerbench::dataset::Source{};
    reference.provenance.source->device = "NVIDIA A100";
    reference.provenance.source->torch_version = "2.6";
    site.datasets.push_back(published(reference));
    const auto groups = test::page_of(site, "datasets.html").get("groups")->list_value();
    REQUIRE(groups.size() == 3);
    const auto row = groups[2].get("rows")->list_value().front();
    CHECK(field(groups[2], "device") == "NVIDIA A100");
    CHECK(field(row, "kind") == "reference");
    CHECK(field(row, "torch") == "2.6, as stated");
    CHECK(field(row, "torch_sort") == "2006000");
    CHECK(field(row, "settings") == "not stated");
    CHECK(field(row, "rounds") == "—");
  }
}

TEST_CASE("site::dataset_page")
{
  const auto site = index_site();
  const auto pages = site::build_pages(site, "https://example.org/lb/");
  const auto page = std::find_if(pages.begin(), pages.end(), [](const auto& p) { return p.path == "datasets/xeon-v1.html"; });
  REQUIRE(page != pages.end());
  const Data* block = page->view.get("dataset");
  REQUIRE(block != nullptr);
  SUBCASE("its links climb out of datasets/ to the downloads")
  {
    CHECK(field(page->view, "root") == "../");
    CHECK(field(*block, "json_href") == "../data/xeon-v1.json");
    CHECK(field(*block, "csv_href") == "../data/xeon-v1.csv");
  }
  SUBCASE("its citation gives the page's own address")
  {
    CHECK(field(*block, "url") == "https://example.org/lb/datasets/xeon-v1.html");
    CHECK(field(*block, "bibtex").find("url = {https://example.org/lb/datasets/xeon-v1.html}") != std::string::npos);
  }
  SUBCASE("the menu marks the datasets index as where it is")
  {
    bool current = false;
    for (const auto& item : page->view.get("nav")->list_value()) {
      if (field(item, "label") == "Datasets") {
        current = !item.get("current")->is_false();
        CHECK(field(item, "href") == "../datasets.html");
      }
    }
    CHECK(current);
  }
}

TEST_CASE("site::dataset_page versions")
{
  const auto site = index_site();
  SUBCASE("a replaced version's page links forward to the one that replaces it")
  {
    const auto block = *test::page_of(site, "datasets/epyc-torch-2.7.1-v1.html").get("dataset");
    REQUIRE(block.get("replaced_by")->is_object());
    CHECK(field(*block.get("replaced_by"), "href") == "../datasets/epyc-torch-2.7.1-v2.html");
    CHECK(field(*block.get("replaced_by"), "label") == "v2, created 2026-11-24");
    CHECK(block.get("replaces_link")->is_false());
  }
  SUBCASE("the newest links back to the version it names in replaces")
  {
    const auto block = *test::page_of(site, "datasets/epyc-torch-2.7.1-v2.html").get("dataset");
    CHECK(block.get("replaced_by")->is_false());
    REQUIRE(block.get("replaces_link")->is_object());
    CHECK(field(*block.get("replaces_link"), "href") == "../datasets/epyc-torch-2.7.1-v1.html");
  }
  SUBCASE("a dataset of one version links to none")
  {
    const auto block = *test::page_of(site, "datasets/xeon-v1.html").get("dataset");
    CHECK(block.get("replaced_by")->is_false());
    CHECK(block.get("replaces_link")->is_false());
  }
}
