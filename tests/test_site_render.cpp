// SPDX-License-Identifier: MIT
#include "site/render.hpp"
#include "util/error.hpp"
#include "util/file.hpp"

#include "test_text.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <chrono>
#include <fcntl.h>
#include <csignal>
#include <map>
#include <optional>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
namespace test = layerbench::test;
using layerbench::Error;
using layerbench::site::RenderOptions;

namespace {

using test::k_source;

fs::path scratch(const std::string& name)
{
  const fs::path path = fs::temp_directory_path() / ("layerbench-test-site-" + name);
  fs::remove_all(path);
  fs::create_directories(path);
  return path;
}

RenderOptions fixture_options(const fs::path& out)
{
  RenderOptions options;
  options.data_dir = k_source / "tests/fixtures/site/data";
  options.templates_dir = k_source / "templates";
  options.out_dir = out;
  return options;
}

std::map<std::string, std::string> snapshot(const fs::path& root)
{
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) {
      files[fs::relative(entry.path(), root).string()] = *layerbench::util::read_file(entry.path());
    }
  }
  return files;
}

} // namespace

TEST_CASE("site::render")
{
  const fs::path work = scratch("render");
  SUBCASE("renders every page of the fixtures")
  {
    const auto report = layerbench::site::render(fixture_options(work / "site"));
    CHECK(report.files_written > 10);
    for (const char* page : {"index.html", "faq.html", "methodology.html", "datasets.html", "compare.html", "404.html",
                             "layers/Conv2d.html", "layers/Dropout.html", "data/fixture-cpu-v1.csv", "style.css"}) {
      CHECK_MESSAGE(fs::exists(work / "site" / page), page);
    }
  }
  SUBCASE("rendering twice gives byte-identical files")
  {
    layerbench::site::render(fixture_options(work / "a"));
    layerbench::site::render(fixture_options(work / "b"));
    CHECK(snapshot(work / "a") == snapshot(work / "b"));
  }
  SUBCASE("figures come from the dataset, and a missing figure is a dash")
  {
    layerbench::site::render(fixture_options(work / "site"));
    const std::string home = test::read_text(work / "site/index.html");
    CHECK(home.find("<table class=\"sortable filterable results-table\" id=\"benchmark\">") != std::string::npos);
    CHECK(home.find(">73,856<") != std::string::npos); // Conv2d params of the fixture
    CHECK(home.find("title=\"p25 ") != std::string::npos);
    CHECK(home.find(">skipped<") != std::string::npos);
    const std::string conv = test::read_text(work / "site/layers/Conv2d.html");
    CHECK(conv.find("<svg class=\"chart\"") != std::string::npos);
    const std::string dropout = test::read_text(work / "site/layers/Dropout.html");
    CHECK(dropout.find("<td class=\"num\">—</td>") != std::string::npos); // the reference has no memory figure
  }
  SUBCASE("the catalog's featured dataset heads the home page")
  {
    layerbench::site::render(fixture_options(work / "site"));
    const std::string home = test::read_text(work / "site/index.html");
    CHECK(home.find("<section id=\"results\" class=\"results featured\">\n<h3><a href=\"datasets/fixture-cpu-v1.html\">")
          != std::string::npos);
  }
  SUBCASE("a dataset whose bytes differ from the catalog's sha256 is refused")
  {
    const fs::path data = work / "edited";
    fs::copy(k_source / "tests/fixtures/site/data", data, fs::copy_options::recursive);
    std::string text = test::read_text(data / "datasets/fixture-cpu-v1.json");
    text.replace(text.find("Fixture CPU run"), 15, "Edited CPU run!");
    layerbench::util::write_file_atomic(data / "datasets/fixture-cpu-v1.json", text, layerbench::util::Overwrite::yes);
    RenderOptions options = fixture_options(work / "site");
    options.data_dir = data;
    CHECK_THROWS_WITH_AS(layerbench::site::render(options), doctest::Contains("differs from the catalog's"), Error);
    CHECK_FALSE(fs::exists(work / "site"));
  }
  SUBCASE("an extra local run is shown beside the published datasets, never featured")
  {
    RenderOptions options = fixture_options(work / "site");
    options.extra_datasets.push_back(k_source / "tests/fixtures/site/data/datasets/fixture-cpu-v1.json");
    layerbench::site::render(options);
    CHECK(fs::exists(work / "site/data/local-fixture-cpu-v1.json"));
    const std::string datasets = test::read_text(work / "site/datasets.html");
    CHECK(datasets.find("<a href=\"datasets/local-fixture-cpu-v1.html\" title=\"Fixture CPU run · v1 (local run)\">")
          != std::string::npos);
    CHECK(test::read_text(work / "site/datasets/local-fixture-cpu-v1.html").find("<h1>Fixture CPU run · v1 (local run)</h1>") != std::string::npos);
    const std::string home = test::read_text(work / "site/index.html");
    // A table of its own, called "your run", first in the device switch after the featured dataset.
    const size_t featured = home.find("<li><a href=\"#results\">");
    const size_t mine = home.find("<li><a href=\"#results-local-fixture-cpu-v1\">your run</a></li>");
    CHECK(featured != std::string::npos);
    CHECK(mine != std::string::npos);
    CHECK(featured < mine);
    CHECK(mine < home.find("<li><a href=\"#results-fixture-reference-v1\">"));
    CHECK(home.find("<section id=\"results-local-fixture-cpu-v1\" class=\"results\">") != std::string::npos);
  }
  SUBCASE("the home page shows one table, the featured dataset's; the others are a link away, no script needed")
  {
    layerbench::site::render(fixture_options(work / "site"));
    const std::string home = test::read_text(work / "site/index.html");
    CHECK(layerbench::test::count_of(home, "<table class=\"sortable filterable results-table\"") == 2); // the fixture's two devices
    const size_t other = home.find("<section id=\"results-fixture-reference-v1\" class=\"results\">");
    const size_t featured = home.find("<section id=\"results\" class=\"results featured\">");
    CHECK(other != std::string::npos);
    CHECK(other < featured); // so that `.results:target ~ .results.featured` hides the featured one
    CHECK(home.find("(transcribed, not measured by LayerBench)") != std::string::npos);
    CHECK(home.find("data-group=") == std::string::npos); // no columns of other datasets
  }
  SUBCASE("--base-url puts the page's address into the citations; without it no address is made up")
  {
    layerbench::site::render(fixture_options(work / "plain"));
    const std::string plain = test::read_text(work / "plain/datasets/fixture-cpu-v1.html");
    CHECK(plain.find("  url = {") == std::string::npos);
    CHECK(plain.find("\nurl: ") == std::string::npos);
    CHECK(plain.find("Address of this version") == std::string::npos);
    RenderOptions options = fixture_options(work / "site");
    options.base_url = "https://example.org/lb";
    layerbench::site::render(options);
    // The address is the dataset's own page.
    const std::string datasets = test::read_text(work / "site/datasets/fixture-cpu-v1.html");
    CHECK(datasets.find("  url = {https://example.org/lb/datasets/fixture-cpu-v1.html},") != std::string::npos);
    CHECK(datasets.find("url: &quot;https://example.org/lb/datasets/fixture-cpu-v1.html&quot;") != std::string::npos);
    // The attribution names the creators and links the page, as CC BY asks.
    CHECK(datasets.find("<blockquote><p>LayerBench tests, &quot;Fixture CPU run&quot;, LayerBench dataset fixture-cpu "
                        "version 1, https://example.org/lb/datasets/fixture-cpu-v1.html, licensed CC-BY-4.0")
          != std::string::npos);
  }
  SUBCASE("no local path, path outside the repository or -dirty commit reaches a page")
  {
    auto json = nlohmann::ordered_json::parse(test::read_text(k_source / "tests/fixtures/site/data/datasets/fixture-cpu-v1.json"));
    json["provenance"]["git_commit"] = "0123abc-dirty";
    json["provenance"]["command_line"] = "layerbench run --out /tmp/private-folder/run.json --layers ../outside/list.txt";
    const fs::path local = work / "local-run.json";
    layerbench::util::write_file_atomic(local, json.dump(2), layerbench::util::Overwrite::yes);
    RenderOptions options = fixture_options(work / "site");
    options.extra_datasets.push_back(local);
    layerbench::site::render(options);
    size_t pages = 0;
    for (const auto& entry : fs::recursive_directory_iterator(work / "site")) {
      if (entry.path().extension() != ".html") {
        continue;
      }
      ++pages;
      const std::string page = test::read_text(entry.path());
      for (const std::string& secret : std::vector<std::string>{"-dirty", "/tmp/", "private-folder", "../outside", work.string()}) {
        CHECK_MESSAGE(page.find(secret) == std::string::npos, (entry.path().string() + " shows " + secret));
      }
    }
    CHECK(pages > 10);
    const std::string datasets = test::read_text(work / "site/datasets/local-fixture-cpu-v1.html");
    CHECK(datasets.find("0123abc (plus uncommitted changes)") != std::string::npos);
    CHECK(datasets.find("git checkout 0123abc\n") != std::string::npos);
    CHECK(datasets.find("build/layerbench run --out my-run.json --layers list.txt") != std::string::npos);
  }
  SUBCASE("the formulas page has every layer's formulas, notes and figures computed from the dataset")
  {
    layerbench::site::render(fixture_options(work / "site"));
    const std::string formulas = test::read_text(work / "site/formulas.html");
    for (const char* layer : {"Conv2d", "Dropout"}) {
      CHECK_MESSAGE(formulas.find(std::string("<a href=\"layers/") + layer + ".html\">" + layer + "</a>") != std::string::npos, std::string(layer));
    }
    // Fixture: at batch 32 Dropout takes 0.036 ms; it is the only layer in train mode.
    CHECK(formulas.find("At batch size 32: 0.036 ms, ") != std::string::npos);
    CHECK(formulas.find("timed in train mode") != std::string::npos);
    CHECK(test::read_text(work / "site/index.html").find("href=\"formulas.html\"") != std::string::npos);
  }
  SUBCASE("the home page says how to reproduce the featured dataset")
  {
    layerbench::site::render(fixture_options(work / "site"));
    const std::string home = test::read_text(work / "site/index.html");
    CHECK(home.find("<h2 id=\"reproduce\">Reproduce this</h2>") != std::string::npos);
    CHECK(home.find("git checkout fixture\nmake build\n") != std::string::npos);
    CHECK(home.find("build/layerbench diff fixture-cpu-v1.json my-run.json") != std::string::npos);
  }
  SUBCASE("the FAQ answers from the featured dataset")
  {
    layerbench::site::render(fixture_options(work / "site"));
    const std::string faq = test::read_text(work / "site/faq.html");
    // Fixture: at batch 32 Dropout takes 0.004 * 9 = 0.036 ms and Conv2d 0.5 * 9 = 4.5 ms.
    CHECK(faq.find("<strong>Dropout</strong> is the fastest layer at 0.036 ms") != std::string::npos);
    CHECK(faq.find("<strong>Conv2d</strong> is the fastest at 4.5 ms") != std::string::npos);
  }
  SUBCASE("the compare page links to the reference's inconsistencies, listed once on their own page")
  {
    layerbench::site::render(fixture_options(work / "site"));
    const std::string compare = test::read_text(work / "site/compare/fixture-reference-v1--fixture-cpu-v1.html");
    CHECK(compare.find("each with both numbers, on <a href=\"../inconsistencies.html\">Known inconsistencies</a>") != std::string::npos);
    CHECK(compare.find("<dt>Values put in</dt>") == std::string::npos);
    const std::string listed = test::read_text(work / "site/inconsistencies.html");
    CHECK(listed.find("<dt>PyTorch&apos;s count</dt><dd>0</dd>") != std::string::npos);
    CHECK(listed.find("<strong>Parameter count differs from PyTorch&apos;s</strong>: <a href=\"layers/Dropout.html\">Dropout</a>") != std::string::npos);
    CHECK(listed.find("<dt>Values put in</dt><dd>p = 0.5, n = 4</dd>") != std::string::npos); // the file's order
    CHECK(listed.find("<dt>The page&apos;s figure over the formula&apos;s</dt><dd>1.5</dd>") != std::string::npos);
  }
  SUBCASE("an invalid dataset stops the render and leaves the previous site untouched")
  {
    layerbench::site::render(fixture_options(work / "site"));
    const auto before = snapshot(work / "site");
    const fs::path data = work / "bad-data";
    fs::create_directories(data / "datasets");
    fs::copy_file(k_source / "tests/fixtures/site/data/datasets/fixture-cpu-v1.json", data / "datasets/a-v1.json");
    layerbench::util::write_file_atomic(data / "datasets/b-v1.json", "{\"schema_version\": \"1.0.0\", \"kind\": 3}",
                                        layerbench::util::Overwrite::yes);
    RenderOptions options = fixture_options(work / "site");
    options.data_dir = data;
    CHECK_THROWS_AS(layerbench::site::render(options), Error);
    CHECK(snapshot(work / "site") == before);
    CHECK_FALSE(fs::exists(work / ("site.tmp-" + std::to_string(::getpid()))));
  }
  SUBCASE("a dataset that breaks the rules (a negative median) stops the render, naming file and pointer")
  {
    const fs::path data = work / "negative-data";
    fs::create_directories(data / "datasets");
    auto json = nlohmann::json::parse(test::read_text(k_source / "tests/fixtures/site/data/datasets/fixture-cpu-v1.json"));
    json["results"][0]["stats"]["median_ms"] = -5;
    layerbench::util::write_file_atomic(data / "datasets/a-v1.json", json.dump(2), layerbench::util::Overwrite::yes);
    RenderOptions options = fixture_options(work / "site");
    options.data_dir = data;
    const std::string expected = (data / "datasets/a-v1.json").string() + ": /results/0/stats/median_ms: time -5.0 ms";
    CHECK_THROWS_WITH_AS(layerbench::site::render(options), doctest::Contains(expected.c_str()), Error);
    CHECK_FALSE(fs::exists(work / "site/index.html"));
  }
  SUBCASE("an unknown field in the reference's inconsistencies stops the render, naming file and pointer")
  {
    const fs::path data = work / "unknown-field-data";
    fs::copy(k_source / "tests/fixtures/site/data", data, fs::copy_options::recursive);
    const auto file = data / "reference/fixture-reference-inconsistencies.json";
    auto json = nlohmann::json::parse(test::read_text(file));
    json["inconsistencies"][0]["pytorch_counts"] = 0;
    layerbench::util::write_file_atomic(file, json.dump(), layerbench::util::Overwrite::yes);
    RenderOptions options = fixture_options(work / "site");
    options.data_dir = data;
    CHECK_THROWS_WITH_AS(layerbench::site::render(options),
                         (file.string() + ": /inconsistencies/0/pytorch_counts: unknown field").c_str(), Error);
  }
  SUBCASE("short labels in running text and headings, full titles on each dataset's page")
  {
    layerbench::site::render(fixture_options(work / "site"));
    // The fixture's catalog is 1.0.0: labels derived from each device ("Fixture CPU"; the reference names none).
    const std::string compare = test::read_text(work / "site/compare/fixture-reference-v1--fixture-cpu-v1.html");
    CHECK(compare.find("<h1>Fixture against Fixture reference</h1>") != std::string::npos);
    const std::string datasets = test::read_text(work / "site/datasets/fixture-cpu-v1.html");
    CHECK(datasets.find("<h1>Fixture CPU run · v1</h1>") != std::string::npos);
    CHECK(datasets.find("<tr><th scope=\"row\">Short name</th><td>Fixture</td></tr>") != std::string::npos);
  }
  SUBCASE("a duplicate key in the reference's inconsistencies stops the render, naming its pointer")
  {
    const fs::path data = work / "duplicate-data";
    fs::copy(k_source / "tests/fixtures/site/data", data, fs::copy_options::recursive);
    const auto file = data / "reference/fixture-reference-inconsistencies.json";
    auto text = test::read_text(file);
    text.replace(text.find('{'), 1, "{\"reference\": 1, ");
    layerbench::util::write_file_atomic(file, text, layerbench::util::Overwrite::yes);
    RenderOptions options = fixture_options(work / "site");
    options.data_dir = data;
    CHECK_THROWS_WITH_AS(layerbench::site::render(options), (file.string() + ": /reference: duplicate key \"reference\"").c_str(),
                         Error);
  }
  SUBCASE("a template error stops the render and leaves the previous site untouched")
  {
    layerbench::site::render(fixture_options(work / "site"));
    const auto before = snapshot(work / "site");
    const fs::path templates = work / "templates";
    fs::copy(k_source / "templates", templates, fs::copy_options::recursive);
    layerbench::util::write_file_atomic(templates / "pages/faq.mustache", "{{>head}}\n{{no_such_figure}}\n{{>foot}}\n",
                                        layerbench::util::Overwrite::yes);
    RenderOptions options = fixture_options(work / "site");
    options.templates_dir = templates;
    const std::string expected = (templates / "pages/faq.mustache").string() + ":2: unknown variable 'no_such_figure'";
    CHECK_THROWS_WITH_AS(layerbench::site::render(options), expected.c_str(), Error);
    CHECK(snapshot(work / "site") == before);
  }
  fs::remove_all(work);
}

TEST_CASE("site::unsafe_out_dir")
{
  const fs::path work = scratch("out-dir");
  RenderOptions options = fixture_options(work / "site");
  SUBCASE("a missing or empty folder is safe")
  {
    CHECK_FALSE(layerbench::site::unsafe_out_dir(options));
    fs::create_directories(options.out_dir);
    CHECK_FALSE(layerbench::site::unsafe_out_dir(options));
  }
  SUBCASE("a folder with files and no marker is refused, and render leaves it alone")
  {
    fs::create_directories(work / "site");
    REQUIRE(layerbench::util::write_file_atomic(work / "site" / "notes.txt", "mine", layerbench::util::Overwrite::yes));
    const auto reason = layerbench::site::unsafe_out_dir(options);
    REQUIRE(reason);
    CHECK(reason->find(layerbench::site::k_site_marker) != std::string::npos);
    CHECK_THROWS_AS(layerbench::site::render(options), Error);
    CHECK(test::read_text(work / "site" / "notes.txt") == "mine");
  }
  SUBCASE("a rendered site carries the marker and may be rendered again")
  {
    layerbench::site::render(options);
    CHECK(fs::is_regular_file(work / "site" / layerbench::site::k_site_marker));
    CHECK_FALSE(layerbench::site::unsafe_out_dir(options));
  }
  SUBCASE("the data, the templates, a folder holding them or one inside them are refused")
  {
    for (const fs::path& out : {options.data_dir, options.templates_dir / "..//templates/", k_source,
                                options.data_dir / "datasets", fs::path("/")}) {
      options.out_dir = out;
      CHECK_MESSAGE(layerbench::site::unsafe_out_dir(options), out.string());
    }
  }
  SUBCASE("the home folder and the current folder are refused")
  {
    fs::create_directories(work / "home");
    ::setenv("HOME", (work / "home").c_str(), 1);
    options.out_dir = work / "home";
    CHECK(layerbench::site::unsafe_out_dir(options));
    options.out_dir = fs::current_path();
    CHECK(layerbench::site::unsafe_out_dir(options));
  }
  SUBCASE("a symlink to a folder holding the data is refused")
  {
    fs::create_directory_symlink(k_source / "tests/fixtures/site", work / "alias");
    options.out_dir = work / "alias";
    CHECK(layerbench::site::unsafe_out_dir(options));
  }
}

TEST_CASE("site::render static links")
{
  const fs::path work = scratch("static-links");
  fs::copy(k_source / "templates", work / "templates", fs::copy_options::recursive);
  fs::create_directories(work / "outside" / "deep");
  layerbench::util::write_file_atomic(work / "outside" / "deep" / "secret.txt", "secret",
                                      layerbench::util::Overwrite::yes);
  RenderOptions options = fixture_options(work / "a" / "b" / "site");
  options.templates_dir = work / "templates";
  SUBCASE("a link leaving the templates is refused, and nothing is written outside --out")
  {
    fs::create_symlink("../../outside/deep/secret.txt", work / "templates" / "static" / "theme.css");
    CHECK_THROWS_WITH_AS(layerbench::site::render(options), doctest::Contains("a link to"), Error);
    CHECK_FALSE(fs::exists(work / "a" / "b" / "site"));
    CHECK_FALSE(fs::exists(work / "a" / "outside"));
  }
  SUBCASE("a link inside the templates is copied at the link's own path")
  {
    fs::create_symlink("../pages", work / "templates" / "static" / "pages-alias");
    fs::create_symlink("style.css", work / "templates" / "static" / "copy.css");
    layerbench::site::render(options);
    CHECK(test::read_text(work / "a" / "b" / "site" / "copy.css") == test::read_text(work / "templates" / "static" / "style.css"));
    CHECK_FALSE(fs::exists(work / "a" / "b" / "pages"));
  }
}

namespace {

// The temporary folders beside `out` (OUT.tmp-PID), by name.
std::vector<std::string> temporary_folders(const fs::path& out)
{
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(out.parent_path())) {
    const auto name = entry.path().filename().string();
    if (name.rfind(out.filename().string() + ".tmp-", 0) == 0) {
      names.push_back(name);
    }
  }
  return names;
}

// `layerbench render` of the fixtures into `out`, interrupted by `signal_number` once its temporary
// folder is there. Returns the wait status, or nullopt where the render finished before it was seen.
std::optional<int> render_interrupted(const fs::path& out, int signal_number)
{
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // On the descriptors, not the streams: closing the streams would flush the test's buffered output twice.
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    const auto data = (k_source / "tests/fixtures/site/data").string();
    const auto templates = (k_source / "templates").string();
    ::execl(LAYERBENCH_BINARY, "layerbench", "render", "--data", data.c_str(), "--templates", templates.c_str(), "--out",
            out.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const fs::path fresh = out.string() + ".tmp-" + std::to_string(child);
  int status = 0;
  while (!fs::exists(fresh)) {
    if (::waitpid(child, &status, WNOHANG) == child) {
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ::kill(child, signal_number);
  ::waitpid(child, &status, 0);
  return status;
}

} // namespace

TEST_CASE("site::render interrupted")
{
  const fs::path work = scratch("interrupted");
  const fs::path out = work / "site";
  layerbench::site::render(fixture_options(out));
  const auto before = snapshot(out);
  SUBCASE("stopped between two files: the temporary folder is removed and the previous site left as it was")
  {
    RenderOptions options = fixture_options(out);
    int asked = 0;
    options.interrupted = [&asked] { return ++asked > 5; };
    CHECK_THROWS_AS(layerbench::site::render(options), layerbench::site::RenderInterrupted);
    CHECK(asked == 6);
    CHECK(temporary_folders(out).empty());
    CHECK(snapshot(out) == before);
  }
  SUBCASE("SIGINT and SIGTERM to `layerbench render`: its temporary folder is removed, and it ends by the signal")
  {
    for (const int signal_number : {SIGINT, SIGTERM}) {
      CAPTURE(signal_number);
      std::optional<int> status;
      for (int attempt = 0; attempt < 30 && !status; ++attempt) {
        status = render_interrupted(out, signal_number);
      }
      REQUIRE_MESSAGE(status, "every render finished before its temporary folder was seen");
      CHECK(WIFSIGNALED(*status));
      CHECK(WTERMSIG(*status) == signal_number);
      CHECK(temporary_folders(out).empty());
      CHECK(snapshot(out) == before);
    }
  }
  SUBCASE("a temporary folder whose render is gone is swept by the next render; a living render's is kept")
  {
    const pid_t gone = ::fork();
    REQUIRE(gone >= 0);
    if (gone == 0) {
      ::_exit(0);
    }
    ::waitpid(gone, nullptr, 0);
    const auto stale = out.string() + ".tmp-" + std::to_string(gone);
    const auto stale_old = out.string() + ".old-" + std::to_string(gone);
    const auto living = out.string() + ".tmp-" + std::to_string(::getppid());
    for (const auto& folder : {stale, stale_old, living}) {
      fs::create_directories(fs::path(folder) / "layers");
    }
    layerbench::site::render(fixture_options(out));
    CHECK_FALSE(fs::exists(stale));
    CHECK_FALSE(fs::exists(stale_old));
    CHECK(fs::exists(living));
    fs::remove_all(living);
  }
}
