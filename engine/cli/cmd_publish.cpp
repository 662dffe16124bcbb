// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "dataset/catalog.hpp"
#include "dataset/io.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <iostream>

namespace po = boost::program_options;

namespace layerbench::cli {

int cmd_publish(const Arguments& arguments)
{
  po::options_description options("publish options");
  options.add_options()("data", po::value<std::string>()->default_value("data"), "the data folder (holds catalog.json)")(
    "id", po::value<std::string>(), "dataset id, [a-z0-9] words joined by '-' (default: the run's id)")(
    "title", po::value<std::string>(), "title (default: the run's title)")(
    "replaces", po::value<std::string>(), "ID@N this version corrects (default: the id's latest version, if any)")(
    "creator", po::value<std::vector<std::string>>(), "a creator's name (repeat for several; default: the run's)")(
    "feature", "make it the dataset the site shows first")(
    "init", "start a new data folder when DIR holds no catalog.json");
  po::options_description hidden;
  hidden.add_options()("run", po::value<std::string>()->required(), "the run to publish, RUN.json");
  po::positional_options_description positional;
  positional.add("run", 1);
  const auto values = parse("publish", "RUN.json [--data DIR] [--id ID] [--title T] [--replaces ID@N] [--creator NAME]... [--feature] [--init]\n\n"
                                       "Validates the run, gives it the next version of its id and writes\n"
                                       "DIR/datasets/ID-vN.json and DIR/catalog.json. Never overwrites.",
                            options, arguments, positional, hidden);
  if (!values) {
    return 0;
  }
  dataset::PublishOptions publish;
  publish.data_dir = (*values)["data"].as<std::string>();
  // A mistyped --data would otherwise start a second, empty data folder without a word.
  if (!values->count("init") && !std::filesystem::exists(publish.data_dir / "catalog.json")) {
    throw Error("publish: " + publish.data_dir.string()
                + " holds no catalog.json; pass --init to start a new data folder there");
  }
  auto text = [&](const char* name) { return values->count(name) ? (*values)[name].as<std::string>() : std::string(); };
  publish.id = text("id");
  publish.title = text("title");
  publish.replaces = text("replaces");
  if (values->count("creator")) {
    for (const auto& name : (*values)["creator"].as<std::vector<std::string>>()) {
      publish.creators.push_back({name, ""});
    }
  }
  publish.feature = values->count("feature") ? dataset::PublishOptions::Feature::make_featured
                                             : dataset::PublishOptions::Feature::keep;
  const auto entry = dataset::publish(dataset::load((*values)["run"].as<std::string>()), publish);
  std::cout << "published " << dataset::reference(entry.id, entry.version) << " as "
            << (publish.data_dir / entry.path).string() << " (sha256 " << entry.sha256 << ")\n";
  return 0;
}

} // namespace layerbench::cli
