// SPDX-License-Identifier: MIT
// The dataset subcommands as a user runs them: exit codes, what they print, what they write.
#include "dataset/catalog.hpp"
#include "dataset/io.hpp"
#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <utility>
#include <vector>

using namespace layerbench;

namespace {

struct Outcome
{
  int status = -1;
  std::string output; // stdout and stderr together
};

// Under timeout(1), so a command that hangs (as every reader once did on a FIFO) fails its test with
// status 124 instead of stalling the suite. With `stdout_to`, standard output goes to that file and
// only standard error is read.
Outcome run_layerbench(const std::string& arguments, const std::string& stdout_to = "")
{
  Outcome outcome;
  const std::string redirect = stdout_to.empty() ? " 2>&1" : " 2>&1 >" + stdout_to;
  FILE* pipe = popen(("timeout 120 " + std::string(LAYERBENCH_BINARY) + " " + arguments + redirect).c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buffer{};
  size_t read = 0;
  while ((read = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    outcome.output.append(buffer.data(), read);
  }
  const int status = pclose(pipe);
  outcome.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

std::string write_dataset(const test::TempFolder& folder, const std::string& name, const dataset::Dataset& d)
{
  const auto path = folder.path() / name;
  test::write_text(path, dataset::serialize(d));
  return path.string();
}

} // namespace

TEST_CASE("layerbench validate")
{
  test::TempFolder folder;
  const auto good = write_dataset(folder, "good.json", test::measured());
  auto broken = test::measured();
  broken.results.pop_back();
  const auto bad = write_dataset(folder, "bad.json", broken);
  SUBCASE("valid files: exit 0")
  {
    const auto outcome = run_layerbench("validate " + good);
    CHECK(outcome.status == 0);
    // The fixture has no measured peaks and its device no datasheet entry: valid, with that said.
    const std::string last = good + ": valid\n";
    REQUIRE(outcome.output.size() >= last.size());
    CHECK(outcome.output.substr(outcome.output.size() - last.size()) == last);
    CHECK(outcome.output.find("no floor bounds the times") != std::string::npos);
  }
  SUBCASE("any invalid file: exit 1, every problem as FILE: /pointer: message")
  {
    test::write_text(folder.path() / "empty.json", "");
    const auto outcome = run_layerbench("validate " + good + " " + bad + " " + (folder.path() / "empty.json").string());
    CHECK(outcome.status == 1);
    CHECK(outcome.output.find(bad + ": /results: cell Dropout at batch size 8 of the declared matrix is missing")
          != std::string::npos);
    CHECK(outcome.output.find((folder.path() / "empty.json").string() + ": empty file, not a dataset") != std::string::npos);
  }
  SUBCASE("every problem of a file, not only the first")
  {
    auto twice_wrong = test::measured();
    twice_wrong.results[0].stats->median_ms = -5;
    twice_wrong.results.pop_back();
    const auto file = write_dataset(folder, "twice.json", twice_wrong);
    const auto outcome = run_layerbench("validate " + file);
    CHECK(outcome.status == 1);
    CHECK(outcome.output.find(file + ": /results/0/stats/median_ms: time -5.0 ms is not in (0, 10000000.0]") != std::string::npos);
    CHECK(outcome.output.find(file + ": /results: cell Dropout at batch size 8 of the declared matrix is missing")
          != std::string::npos);
  }
  SUBCASE("no file: usage error, exit 2, naming the argument as the usage does")
  {
    const auto outcome = run_layerbench("validate");
    CHECK(outcome.status == 2);
    CHECK(outcome.output.find("validate: give at least one FILE") != std::string::npos);
    CHECK(outcome.output.find("--file") == std::string::npos);
  }
  SUBCASE("the committed data folder is valid")
  {
    const auto outcome = run_layerbench("validate data/catalog.json data/datasets/a100-80gb-reference-v1.json");
    CHECK(outcome.status == 0);
  }
}

TEST_CASE("layerbench diff")
{
  test::TempFolder folder;
  auto slower = test::measured();
  test::cell_of(slower, "Linear", 1).stats = test::quartiles(2.0, 1.9, 2.1);
  const auto a = write_dataset(folder, "a.json", test::measured());
  const auto b = write_dataset(folder, "b.json", slower);
  SUBCASE("json")
  {
    const auto outcome = run_layerbench("diff " + a + " " + b + " --format json");
    REQUIRE(outcome.status == 0);
    const auto json = nlohmann::json::parse(outcome.output);
    CHECK(json["summary"]["slower"] == 1);
    CHECK(json["cells"][0]["ratio"] == 2.0);
  }
  SUBCASE("one dataset missing: exit 2 naming B, not --b")
  {
    const auto outcome = run_layerbench("diff " + a);
    CHECK(outcome.status == 2);
    CHECK(outcome.output.find("diff: give the candidate dataset B") != std::string::npos);
    CHECK(outcome.output.find("--b") == std::string::npos);
  }
  SUBCASE("two devices: a warning on stderr, and the comparison still")
  {
    auto other = test::measured();
    other.environment->device.name = "Another CPU";
    const auto c = write_dataset(folder, "c.json", other);
    const auto outcome = run_layerbench("diff " + a + " " + c);
    CHECK(outcome.status == 0);
    CHECK(outcome.output.find("layerbench: warning: diff: " + a + " ran on cpu") != std::string::npos);
    CHECK(outcome.output.find(c + " on cpu \"Another CPU\"") != std::string::npos);
    CHECK(run_layerbench("diff " + a + " " + b).output.find("warning") == std::string::npos);
  }
  SUBCASE("a dataset that breaks the rules: exit 1 naming the file, the pointer and the problem")
  {
    auto negative = test::measured();
    test::cell_of(negative, "Dropout", 8).stats->median_ms = -5;
    const auto c = write_dataset(folder, "c.json", negative);
    const auto outcome = run_layerbench("diff " + a + " " + c);
    CHECK(outcome.status == 1);
    CHECK(outcome.output.rfind("layerbench: error: " + c + ": /results/3/stats/median_ms: time -5.0 ms is not in (0, 10000000.0]", 0)
          == 0);
  }
  SUBCASE("a duplicate key: exit 1 naming its pointer")
  {
    auto text = dataset::serialize(test::measured());
    text.replace(text.find("\"title\""), 7, "\"title\": \"first\", \"title\"");
    const auto c = (folder.path() / "c.json").string();
    test::write_text(c, text);
    const auto outcome = run_layerbench("diff " + c + " " + b);
    CHECK(outcome.status == 1);
    CHECK(outcome.output == "layerbench: error: " + c + ": /title: duplicate key \"title\"\n");
  }
  SUBCASE("a bad format: exit 2 naming --format")
  {
    const auto outcome = run_layerbench("diff " + a + " " + b + " --format html");
    CHECK(outcome.status == 2);
    CHECK(outcome.output.find("--format") != std::string::npos);
  }
}

TEST_CASE("layerbench merge")
{
  test::TempFolder folder;
  auto first = test::measured();
  first.methodology->shard = "1/2";
  first.results = {first.results[0], first.results[2]};
  auto second = test::measured();
  second.methodology->shard = "2/2";
  second.results = {second.results[1], second.results[3]};
  const auto shard1 = write_dataset(folder, "s1.json", first);
  const auto shard2 = write_dataset(folder, "s2.json", second);
  const auto out = (folder.path() / "merged.json").string();
  SUBCASE("writes the whole run, and never over an existing file")
  {
    const auto outcome = run_layerbench("merge " + shard1 + " " + shard2 + " --out " + out);
    CHECK(outcome.status == 0);
    CHECK(dataset::load(out).results.size() == 4);
    CHECK(run_layerbench("merge " + shard1 + " " + shard2 + " --out " + out).status == 1);
  }
  SUBCASE("overlapping shards: exit 1, nothing written")
  {
    const auto outcome = run_layerbench("merge " + shard1 + " " + shard1 + " --out " + out);
    CHECK(outcome.status == 1);
    // The library names the files, not the command (STYLE.md, Errors).
    CHECK(outcome.output.find("layerbench: error: " + shard1 + " and " + shard1 + " are both shard") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out));
  }
  SUBCASE("a shard with a duplicate cell: exit 1 naming the shard, nothing written")
  {
    auto doubled = first;
    doubled.results.push_back(doubled.results.front());
    const auto bad = write_dataset(folder, "s1-bad.json", doubled);
    const auto outcome = run_layerbench("merge " + bad + " " + shard2 + " --out " + out);
    CHECK(outcome.status == 1);
    CHECK(outcome.output.find("layerbench: error: " + bad + ": /results/2: duplicate cell Linear at batch size 1")
          == 0);
    CHECK_FALSE(std::filesystem::exists(out));
  }
}

TEST_CASE("layerbench export")
{
  test::TempFolder folder;
  const auto file = write_dataset(folder, "run.json", test::measured());
  SUBCASE("csv to standard output: header and one row per cell")
  {
    const auto outcome = run_layerbench("export " + file + " --format csv");
    CHECK(outcome.status == 0);
    CHECK(outcome.output.rfind("dataset_id,dataset_version,kind,", 0) == 0);
    CHECK(std::count(outcome.output.begin(), outcome.output.end(), '\n') == 5);
  }
  SUBCASE("an unknown format: exit 2")
  {
    CHECK(run_layerbench("export " + file + " --format xlsx").status == 2);
  }
  SUBCASE("a negative median: exit 1 naming the file and the pointer, no rows")
  {
    auto negative = test::measured();
    negative.results[0].stats->median_ms = -5;
    const auto bad = write_dataset(folder, "bad.json", negative);
    const auto outcome = run_layerbench("export " + bad + " --format csv");
    CHECK(outcome.status == 1);
    CHECK(outcome.output.rfind("layerbench: error: " + bad + ": /results/0/stats/median_ms: time -5.0 ms", 0) == 0);
    CHECK(outcome.output.find("dataset_id,") == std::string::npos);
  }
}

TEST_CASE("layerbench writes standard output or fails")
{
  test::TempFolder folder;
  const auto file = write_dataset(folder, "run.json", test::measured());
  const std::string full = "layerbench: error: cannot write to standard output: No space left on device\n";
  SUBCASE("export, in every format, to a full disk")
  {
    for (const std::string format : {"csv", "bibtex", "cff"}) {
      CAPTURE(format);
      const auto outcome = run_layerbench("export " + file + " --format " + format, "/dev/full");
      CHECK(outcome.status == 1);
      CHECK(outcome.output == full);
    }
  }
  SUBCASE("diff, in both formats, and validate")
  {
    for (const std::string arguments : {"diff " + file + " " + file, "diff " + file + " " + file + " --format json",
                                        "validate " + file}) {
      CAPTURE(arguments);
      const auto outcome = run_layerbench(arguments, "/dev/full");
      CHECK(outcome.status == 1);
      CHECK(outcome.output == full);
    }
  }
  SUBCASE("help too")
  {
    CHECK(run_layerbench("export --help", "/dev/full").output == full);
  }
  SUBCASE("an ordinary file still gets all of it, with status 0")
  {
    const auto outcome = run_layerbench("export " + file + " --format csv", (folder.path() / "out.csv").string());
    CHECK(outcome.status == 0);
    CHECK(outcome.output.empty());
  }
}

// The fixture is one round built outside a checkout, which publish refuses unless forced.
const std::string k_forced = " --force 'test fixture'";

TEST_CASE("layerbench publish")
{
  test::TempFolder folder;
  const auto run = write_dataset(folder, "run.json", test::measured());
  const auto data = (folder.path() / "data").string();
  const auto refused = run_layerbench("publish " + run + k_forced + " --data " + data);
  CHECK(refused.status == 1);
  CHECK(refused.output.find("--init") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(folder.path() / "data"));
  const auto outcome = run_layerbench("publish " + run + k_forced + " --data " + data
                                      + " --init --title 'Test CPU, fp32' --creator 'Ada L.' --creator 'Alan T.'");
  REQUIRE(outcome.status == 0);
  CHECK(outcome.output.find("published test-cpu@1 as ") != std::string::npos);
  SUBCASE("the next publish is version 2 and replaces version 1")
  {
    CHECK(run_layerbench("publish " + run + k_forced + " --data " + data).status == 0);
    const auto catalog = dataset::load_catalog(folder.path() / "data/catalog.json");
    REQUIRE(catalog.datasets.size() == 2);
    CHECK(catalog.datasets[1].replaces == "test-cpu@1");
    const auto first = dataset::load(folder.path() / "data/datasets/test-cpu-v1.json");
    CHECK(first.title == "Test CPU, fp32");
    REQUIRE(first.creators.size() == 2);
    CHECK(first.creators[1].name == "Alan T.");
  }
  SUBCASE("a run publish refuses is refused without --force, and --force without a reason is a usage error")
  {
    const auto refused_run = run_layerbench("publish " + run + " --data " + data);
    CHECK(refused_run.status == 1);
    CHECK(refused_run.output.find("layerbench: error: refused: it was built outside a git checkout") != std::string::npos);
    CHECK(refused_run.output.find("it measured 1 round; publishing wants 3 or more") != std::string::npos);
    const auto empty = run_layerbench("publish " + run + " --data " + data + " --force ' '");
    CHECK(empty.status == 2);
    CHECK(empty.output.find("--force: give the reason") != std::string::npos);
  }
  SUBCASE("a run that missed a noise target is published with a warning, and refused with --strict")
  {
    auto noisy = test::measured();
    noisy.results[0].stats->noise_target_met = false;
    const auto noisy_run = write_dataset(folder, "noisy.json", noisy);
    const auto strict = run_layerbench("publish " + noisy_run + k_forced + " --data " + data + " --strict");
    CHECK(strict.status == 1);
    CHECK(strict.output.find("error: publish: " + noisy_run + ": 1 of its 4 timed cells missed their noise target")
          != std::string::npos);
    CHECK(strict.output.find("not published (--strict)") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(folder.path() / "data/datasets/test-cpu-v2.json"));
    const auto warned = run_layerbench("publish " + noisy_run + k_forced + " --data " + data);
    CHECK(warned.status == 0);
    CHECK(warned.output.find("warning: publish: " + noisy_run + ": 1 of its 4 timed cells") != std::string::npos);
  }
  SUBCASE("--label goes into the catalog; without it the label comes from the device")
  {
    CHECK(outcome.output.find("(label \"Test, 2 threads\", sha256 ") != std::string::npos);
    CHECK(run_layerbench("publish " + run + k_forced + " --data " + data + " --label 'Test box'").status == 0);
    const auto catalog = dataset::load_catalog(folder.path() / "data/catalog.json");
    REQUIRE(catalog.datasets.size() == 2);
    CHECK(catalog.datasets[0].label == "Test, 2 threads");
    CHECK(catalog.datasets[1].label == "Test box");
  }
  SUBCASE("a bad --label or --id: exit 2 naming the option, nothing new")
  {
    const auto label = run_layerbench("publish " + run + k_forced + " --data " + data + " --label ''");
    CHECK(label.status == 2);
    CHECK(label.output == "layerbench: error: --label: \"\": a label is 1 to 40 characters, found 0\n");
    const auto id = run_layerbench("publish " + run + k_forced + " --data " + data + " --id 'Not An Id'");
    CHECK(id.status == 2);
    CHECK(id.output.find("layerbench: error: --id: \"Not An Id\" is not a dataset id") == 0);
    CHECK_FALSE(std::filesystem::exists(folder.path() / "data/datasets/test-cpu-v2.json"));
  }
  SUBCASE("a --title or --creator over the readers' limit, or a --label not UTF-8: exit 2 naming the option, nothing new")
  {
    const auto title = run_layerbench("publish " + run + k_forced + " --data " + data + " --title " + std::string(4097, 't'));
    CHECK(title.status == 2);
    CHECK(title.output == "layerbench: error: --title: string of 4097 bytes exceeds the 4096-byte limit\n");
    const auto creator = run_layerbench("publish " + run + k_forced + " --data " + data + " --creator " + std::string(5000, 'c'));
    CHECK(creator.status == 2);
    CHECK(creator.output == "layerbench: error: --creator: string of 5000 bytes exceeds the 4096-byte limit\n");
    const auto label = run_layerbench("publish " + run + k_forced + " --data " + data + " --label \"$(printf 'A100 \\377')\"");
    CHECK(label.status == 2);
    CHECK(label.output.find("not valid UTF-8") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(folder.path() / "data/datasets/test-cpu-v2.json"));
    // The folder stays readable, and the next publish is version 2.
    CHECK(run_layerbench("validate " + data + "/catalog.json").status == 0);
    CHECK(run_layerbench("publish " + run + k_forced + " --data " + data + " --label 'A100'").status == 0);
  }
  SUBCASE("a bad --replaces: exit 1, nothing new")
  {
    CHECK(run_layerbench("publish " + run + k_forced + " --data " + data + " --replaces nothing@3").status == 1);
    CHECK_FALSE(std::filesystem::exists(folder.path() / "data/datasets/test-cpu-v2.json"));
  }
}

TEST_CASE("layerbench reads regular files only")
{
  // Before: a FIFO hung every command that reads a dataset, /dev/zero grew memory without end and a
  // folder read as an empty file. Each is refused at once, naming the path and what it is.
  test::TempFolder folder;
  const auto good = write_dataset(folder, "run.json", test::measured());
  const auto fifo = (folder.path() / "fifo.json").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto directory = (folder.path() / "folder.json").string();
  std::filesystem::create_directories(directory);
  // Sparse: one byte over the 64 MiB default limit, without taking the disk space.
  const auto huge = (folder.path() / "huge.json").string();
  test::write_text(huge, "");
  std::filesystem::resize_file(huge, 64 * 1024 * 1024 + 1);
  const std::vector<std::pair<std::string, std::string>> inputs = {
    {fifo, "not a regular file (a FIFO)"},
    {directory, "not a regular file (a directory)"},
    {"/dev/zero", "not a regular file (a device)"},
    {huge, "larger than the limit of 67108864 bytes"},
  };
  const auto data = (folder.path() / "data").string();
  const auto out = (folder.path() / "out.json").string();
  SUBCASE("validate, diff, export, merge and publish: a FIFO, a folder, a device, a file over 64 MiB")
  {
    for (const auto& [input, reason] : inputs) {
      for (const std::string command : {"validate " + input, "diff " + good + " " + input, "export " + input + " --format csv",
                                      "merge " + input + " --out " + out, "publish " + input + k_forced + " --data " + data + " --init"}) {
        CAPTURE(command);
        const auto outcome = run_layerbench(command);
        CHECK(outcome.status == 1);
        CHECK(outcome.output.find(input + ": " + reason) != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(out));
      }
    }
  }
  SUBCASE("render: a catalog that is a FIFO")
  {
    std::filesystem::create_directories(data);
    REQUIRE(::mkfifo((data + "/catalog.json").c_str(), 0600) == 0);
    const auto site = (folder.path() / "site").string();
    const auto outcome = run_layerbench("render --data " + data + " --templates " LAYERBENCH_SOURCE_DIR "/templates --out " + site);
    CHECK(outcome.status == 1);
    CHECK(outcome.output.find(data + "/catalog.json: not a regular file (a FIFO)") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(site));
  }
}

TEST_CASE("layerbench prints data escaped")
{
  // Issue 36: an id of "\u001b]0;PWNED\u0007\u001b[2J" retitled and cleared the terminal of whoever ran
  // validate or diff on it, and a refused --label was echoed raw.
  test::TempFolder folder;
  const std::string attack = "\x1b]0;PWNED\x07\x1b[2J";
  const std::string shown = "\\x1b]0;PWNED\\x07\\x1b[2J";
  auto hostile = test::measured();
  hostile.id = attack;
  const auto file = write_dataset(folder, "hostile.json", hostile);
  const auto good = write_dataset(folder, "good.json", test::measured());
  const auto no_control = [](const std::string& output) {
    return std::none_of(output.begin(), output.end(),
                        [](char c) { return c != '\n' && (static_cast<unsigned char>(c) < 0x20 || c == 0x7f); });
  };
  SUBCASE("validate: the problem quotes the id, escaped")
  {
    const auto outcome = run_layerbench("validate " + file);
    CHECK(outcome.status == 1);
    CHECK(outcome.output.find(": /id: \"" + shown + "\" is not a dataset id") != std::string::npos);
    CHECK(no_control(outcome.output));
  }
  SUBCASE("diff: the error naming the id, and a device's name among the settings")
  {
    const auto refused = run_layerbench("diff " + good + " " + file);
    CHECK(refused.status == 1);
    CHECK(refused.output.find(shown) != std::string::npos);
    CHECK(no_control(refused.output));
    auto other = test::measured();
    other.environment->device.name = "CPU" + attack + "\xc2\x9b" "31m";
    const auto device = write_dataset(folder, "device.json", other);
    for (const std::string format : {"text", "markdown", "json"}) {
      CAPTURE(format);
      const auto outcome = run_layerbench("diff " + good + " " + device + " --format " + format);
      CHECK(outcome.status == 0);
      CHECK(no_control(outcome.output));
      CHECK(outcome.output.find("\xc2\x9b") == std::string::npos); // CSI as one C1 character
    }
    CHECK(run_layerbench("diff " + good + " " + device).output.find("cpu CPU" + shown + "\\u009b31m") != std::string::npos);
  }
  SUBCASE("publish: a refused --label is echoed escaped")
  {
    const auto outcome = run_layerbench("publish " + good + k_forced + " --data " + (folder.path() / "data").string()
                                        + " --init --label \"$(printf 'x\\033[2J')\"");
    CHECK(outcome.status == 2);
    CHECK(outcome.output.find("--label: \"x\\x1b[2J\"") != std::string::npos);
    CHECK(no_control(outcome.output));
  }
}

TEST_CASE("layerbench refuses citation fields no citation can carry")
{
  // Issue 36: these validated, published, and gave a CFF that cffconvert rejects, or reached
  // datasets.html and the BibTeX entry raw.
  test::TempFolder folder;
  const auto data = (folder.path() / "data").string();
  SUBCASE("validate: a created time that does not exist, a title of white space, a creator with DEL")
  {
    auto d = test::measured();
    d.created = "2026-13-45T99:99:99Z";
    d.title = "   ";
    d.creators = {{"Ada\x7f", ""}};
    const auto file = write_dataset(folder, "bad.json", d);
    const auto outcome = run_layerbench("validate " + file);
    CHECK(outcome.status == 1);
    CHECK(outcome.output.find(file + ": /created: \"2026-13-45T99:99:99Z\" is not a UTC time") != std::string::npos);
    CHECK(outcome.output.find(file + ": /title: only white space") != std::string::npos);
    CHECK(outcome.output.find(file + ": /creators/0/name: the control character U+007F at character 3") != std::string::npos);
    CHECK(run_layerbench("export " + file + " --format cff").status == 1);
  }
  SUBCASE("publish: --title and --creator, named with the character's code point; nothing written")
  {
    const auto run = write_dataset(folder, "run.json", test::measured());
    const std::vector<std::pair<std::string, std::string>> cases = {
      {" --title \"$(printf 'T\\001')\"", "--title: the control character U+0001 at character 1"},
      {" --title \"$(printf 'T\\033[2J')\"", "--title: the control character U+001B at character 1"},
      {" --title \"$(printf 'T\\357\\277\\276')\"", "--title: the noncharacter U+FFFE at character 1"},
      {" --title ' '", "--title: only white space"},
      {" --creator \"$(printf 'Ada\\302\\205')\"", "--creator: the control character U+0085 at character 3"},
      {" --creator '  '", "--creator: only white space"},
    };
    for (const auto& [option, message] : cases) {
      CAPTURE(option);
      const auto outcome = run_layerbench("publish " + run + k_forced + " --data " + data + " --init" + option);
      CHECK(outcome.status == 2);
      CHECK(outcome.output.find("layerbench: error: " + message) == 0);
      CHECK_FALSE(std::filesystem::exists(data));
    }
  }
  SUBCASE("publish: a run whose own title carries NUL is refused")
  {
    auto d = test::measured();
    d.title = std::string("Run\0x", 5);
    const auto run = write_dataset(folder, "nul.json", d);
    const auto outcome = run_layerbench("publish " + run + k_forced + " --data " + data + " --init");
    CHECK(outcome.status == 1);
    CHECK(outcome.output.find("/title: the control character U+0000 at character 3") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(data + "/catalog.json"));
  }
}
