// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "dataset/catalog.hpp"
#include "dataset/citation_check.hpp"
#include "dataset/data_folder.hpp"
#include "dataset/io.hpp"
#include "dataset/json_text.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

#include <filesystem>
#include <iostream>
#include <memory>

namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

// The featured dataset of the data folder, if it has a catalog that names one.
std::unique_ptr<dataset::Dataset> featured_dataset(const std::filesystem::path& data_dir)
{
  if (!dataset::DataFolder::holds_catalog(data_dir)) {
    return nullptr;
  }
  const auto folder = dataset::DataFolder::load(data_dir);
  const auto* featured = folder.featured();
  return featured ? std::make_unique<dataset::Dataset>(featured->data) : nullptr;
}

// The options the dataset layer would refuse, named as the command line names them.
void check_options(const dataset::PublishOptions& publish, const po::variables_map& values)
{
  if (!publish.id.empty() && !dataset::valid_id(publish.id)) {
    throw UsageError("--id: \"" + publish.id + "\" is not a dataset id ([a-z0-9] words joined by '-', e.g. h100-sxm-fp32)");
  }
  if (!publish.replaces.empty()) {
    dataset::parse_reference(publish.replaces, "--replaces");
  }
  const auto problem = values.count("label") ? dataset::label_problem(publish.label) : std::string();
  if (!problem.empty()) {
    throw UsageError("--label: \"" + publish.label + "\": " + problem);
  }
  // Refused here with the readers' limits: accepted, a title over them would make the data folder
  // unreadable for every later publish, validate and render.
  // A title or creator that no citation can carry (a control character, only white space) is refused too.
  const auto check_text = [](const std::string& option, const std::string& text) {
    const auto text_problem = dataset::text_problem(text);
    if (!text_problem.empty()) {
      throw UsageError(option + ": " + text_problem);
    }
    const auto citation_problem = dataset::citation_text_problem(text);
    if (!citation_problem.empty()) {
      throw UsageError(option + ": " + citation_problem);
    }
  };
  check_text("--title", publish.title);
  for (const auto& creator : publish.creators) {
    check_text("--creator", creator.name);
  }
}

} // namespace

int cmd_publish(const Arguments& arguments)
{
  po::options_description options("publish options");
  options.add_options()("data", po::value<std::string>()->default_value("data"), "the data folder (holds catalog.json)")(
    "id", po::value<std::string>(), "dataset id, [a-z0-9] words joined by '-' (default: the run's id)")(
    "title", po::value<std::string>(), "title (default: the run's title)")(
    "label", po::value<std::string>(), "short name for running text, legends and compare headings, at most 40 characters "
                                       "(default: from the device, e.g. 'EPYC, 2 threads', 'H100 80GB HBM3')")(
    "replaces", po::value<std::string>(), "ID@N this version corrects (default: the id's latest version, if any)")(
    "creator", po::value<std::vector<std::string>>(), "a creator's name (repeat for several; default: the run's)")(
    "feature", "make it the dataset the site shows first")(
    "init", "start a new data folder when DIR holds no catalog.json")(
    "strict", "refuse, instead of warning, a run with a partial matrix, skipped cells or cells that missed their noise target")(
    "force", po::value<std::string>(), "publish a run that publish refuses (built from a dirty tree or outside a checkout, "
                                       "measured on a busy machine or in fewer than 3 rounds), for this reason: it is "
                                       "recorded in the dataset with what it overrode, and shown on its page");
  po::options_description hidden;
  hidden.add_options()("run", po::value<std::string>()->required(), "the run to publish, RUN.json");
  po::positional_options_description positional;
  positional.add("run", 1);
  const auto values = parse("publish", "RUN.json [--data DIR] [--id ID] [--title T] [--label L] [--replaces ID@N] [--creator NAME]... [--feature] [--init] [--strict] [--force REASON]\n\n"
                                       "Validates the run, gives it the next version of its id and writes\n"
                                       "DIR/datasets/ID-vN.json and DIR/catalog.json. Never overwrites.",
                            options, arguments, positional, hidden);
  if (!values) {
    return 0;
  }
  dataset::PublishOptions publish;
  publish.data_dir = (*values)["data"].as<std::string>();
  // A mistyped --data would otherwise start a second, empty data folder without a word.
  if (!values->count("init") && !dataset::DataFolder::holds_catalog(publish.data_dir)) {
    throw Error("publish: " + publish.data_dir.string()
                + " holds no catalog.json; pass --init to start a new data folder there");
  }
  auto text = [&](const char* name) { return values->count(name) ? (*values)[name].as<std::string>() : std::string(); };
  publish.id = text("id");
  publish.title = text("title");
  publish.label = text("label");
  if (values->count("title") && publish.title.empty()) {
    throw UsageError("--title: empty; give a title or leave the option out");
  }
  publish.replaces = text("replaces");
  if (values->count("creator")) {
    for (const auto& name : (*values)["creator"].as<std::vector<std::string>>()) {
      publish.creators.push_back({name, ""});
    }
  }
  publish.forced = text("force");
  if (values->count("force") && publish.forced.find_first_not_of(" \t") == std::string::npos) {
    throw UsageError("--force: give the reason, in words: it is recorded in the dataset and shown on its page");
  }
  check_options(publish, *values);
  publish.feature = values->count("feature") ? dataset::PublishOptions::Feature::make_featured
                                             : dataset::PublishOptions::Feature::keep;
  const auto run_path = (*values)["run"].as<std::string>();
  const auto run = dataset::load(run_path);
  const auto warnings = dataset::publish_warnings(run, featured_dataset(publish.data_dir).get());
  for (const auto& warning : warnings) {
    std::cerr << "layerbench: " << (values->count("strict") ? "error" : "warning") << ": publish: "
              << util::printable(run_path + ": " + warning) << "\n";
  }
  if (!warnings.empty() && values->count("strict")) {
    throw Error("publish: " + run_path + " not published (--strict): " + std::to_string(warnings.size())
                + (warnings.size() == 1 ? " problem" : " problems") + " above");
  }
  const auto entry = dataset::publish(run, publish);
  std::cout << util::printable("published " + dataset::reference(entry.id, entry.version) + " as "
                               + (publish.data_dir / entry.path).string() + " (label \"" + entry.label + "\", sha256 "
                               + entry.sha256 + ")")
            << "\n";
  return 0;
}

} // namespace layerbench::cli
