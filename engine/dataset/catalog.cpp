// SPDX-License-Identifier: MIT
#include "dataset/catalog.hpp"

#include "dataset/rounds.hpp"

#include "dataset/physics.hpp"

#include "dataset/data_folder.hpp"
#include "dataset/io.hpp"
#include "dataset/json_reader.hpp"
#include "dataset/json_text.hpp"
#include "dataset/memory_check.hpp"
#include "dataset/validate.hpp"
#include "util/error.hpp"
#include "util/format.hpp"
#include "util/file.hpp"
#include "util/sha256.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace layerbench::dataset {

using OrderedJson = nlohmann::ordered_json;

std::string reference(const std::string& id, int version) { return id + "@" + std::to_string(version); }

bool valid_id(const std::string& id)
{
  if (id.empty() || id.front() == '-' || id.back() == '-' || id.find("--") != std::string::npos) {
    return false;
  }
  return id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
}

Reference parse_reference(const std::string& text, const std::string& what)
{
  const auto at = text.rfind('@');
  const std::string digits = at == std::string::npos ? std::string() : text.substr(at + 1);
  const bool number = !digits.empty() && digits.size() <= 6 && digits.front() != '0'
                      && digits.find_first_not_of("0123456789") == std::string::npos;
  if (!number || !valid_id(text.substr(0, at))) {
    throw Error(what + ": \"" + text + "\" is not ID@VERSION (for example a100-reference@1)");
  }
  return Reference{text.substr(0, at), std::stoi(digits)};
}

std::string dataset_path(const std::string& id, int version)
{
  return "datasets/" + id + "-v" + std::to_string(version) + ".json";
}

const CatalogEntry* find_entry(const Catalog& catalog, const std::string& id, int version)
{
  for (const auto& entry : catalog.datasets) {
    if (entry.id == id && entry.version == version) {
      return &entry;
    }
  }
  return nullptr;
}

int latest_version(const Catalog& catalog, const std::string& id)
{
  int latest = 0;
  for (const auto& entry : catalog.datasets) {
    if (entry.id == id) {
      latest = std::max(latest, entry.version);
    }
  }
  return latest;
}

namespace {

// Words of a device's name that say who made it or how fast it clocks, not which one it is.
bool vendor_word(const std::string& word)
{
  static const std::set<std::string> words = {"nvidia", "amd", "intel", "cpu", "gpu", "processor", "tesla", "geforce", "apple"};
  std::string lower;
  for (char c : word) {
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return words.count(lower) > 0;
}

std::string without_marks(std::string word)
{
  word.erase(std::remove_if(word.begin(), word.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }),
             word.end());
  for (const char* mark : {"(R)", "(TM)", "(tm)", "(r)"}) {
    for (size_t at = word.find(mark); at != std::string::npos; at = word.find(mark)) {
      word.erase(at, std::string(mark).size());
    }
  }
  return word;
}

std::string model_words(const std::string& device)
{
  std::string cut = device.substr(0, device.find('@'));
  std::string words;
  int kept = 0;
  int depth = 0;
  std::istringstream stream(cut);
  for (std::string word; stream >> word && kept < 3;) {
    word = without_marks(word);
    if (word.empty()) {
      continue;
    }
    const bool bracketed = depth > 0 || word.front() == '(';
    depth += static_cast<int>(std::count(word.begin(), word.end(), '(')) - static_cast<int>(std::count(word.begin(), word.end(), ')'));
    if (bracketed || vendor_word(word)) {
      continue;
    }
    words += (words.empty() ? "" : " ") + word;
    ++kept;
  }
  return words;
}

} // namespace

std::string default_label(const std::string& device, Kind kind, const std::string& id, int cpu_threads)
{
  std::string label = model_words(device);
  if (label.empty()) {
    label = id.empty() ? std::string("dataset") : id;
  }
  std::string suffix;
  if (kind == Kind::published_reference) {
    suffix = " reference";
  } else if (cpu_threads > 0) {
    suffix = ", " + std::to_string(cpu_threads) + (cpu_threads == 1 ? " thread" : " threads");
  }
  // A long id must not make a label that label_problem() refuses; cut on a character boundary.
  size_t keep = std::min(label.size(), k_max_label_size - std::min(suffix.size(), k_max_label_size));
  while (keep > 0 && keep < label.size() && (static_cast<unsigned char>(label[keep]) & 0xC0) == 0x80) {
    --keep;
  }
  label = label.substr(0, keep);
  while (!label.empty() && label.back() == ' ') {
    label.pop_back();
  }
  return label + suffix;
}

std::string default_label(const Dataset& dataset)
{
  if (dataset.environment) {
    const auto& environment = *dataset.environment;
    const int threads = environment.device.type == "cpu" ? environment.threads : 0;
    return default_label(environment.device.name, dataset.kind, dataset.id, threads);
  }
  const std::string device = dataset.provenance.source ? dataset.provenance.source->device : std::string();
  return default_label(device, dataset.kind, dataset.id);
}

std::string label_problem(const std::string& label)
{
  if (!util::is_valid_utf8(label)) {
    return "not valid UTF-8";
  }
  // Characters as the JSON Schema's maxLength counts them: UTF-8 lead bytes.
  const auto characters = static_cast<size_t>(std::count_if(
    label.begin(), label.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  if (characters == 0 || characters > k_max_label_size) {
    return "a label is 1 to " + std::to_string(k_max_label_size) + " characters, found " + std::to_string(characters);
  }
  if (std::any_of(label.begin(), label.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; })) {
    return "a label is one line without control characters";
  }
  if (label.front() == ' ' || label.back() == ' ') {
    return "a label does not start or end with a space";
  }
  return "";
}

CatalogEntry describe(const Dataset& dataset, const std::string& sha256, const std::string& label)
{
  CatalogEntry entry;
  entry.id = dataset.id;
  entry.version = dataset.version;
  entry.title = dataset.title;
  entry.label = label.empty() ? default_label(dataset) : label;
  entry.kind = dataset.kind;
  if (dataset.environment) {
    entry.device = dataset.environment->device.name;
    entry.torch_version = dataset.environment->torch_version;
  } else if (dataset.provenance.source) {
    entry.device = dataset.provenance.source->device;
    entry.torch_version = dataset.provenance.source->torch_version;
  }
  entry.created = dataset.created;
  entry.cells = static_cast<int>(dataset.results.size());
  entry.sha256 = sha256;
  entry.path = dataset_path(dataset.id, dataset.version);
  entry.replaces = dataset.replaces;
  return entry;
}

std::vector<std::string> entry_mismatches(const CatalogEntry& entry, const Dataset& dataset)
{
  const CatalogEntry expected = describe(dataset, entry.sha256, entry.label);
  std::vector<std::string> differ;
  auto compare = [&](const char* field, const std::string& listed, const std::string& actual) {
    if (listed != actual) {
      differ.push_back(std::string(field) + " \"" + listed + "\" where the file has \"" + actual + "\"");
    }
  };
  compare("id", entry.id, expected.id);
  compare("version", std::to_string(entry.version), std::to_string(expected.version));
  compare("title", entry.title, expected.title);
  compare("kind", to_string(entry.kind), to_string(expected.kind));
  compare("device", entry.device, expected.device);
  compare("torch_version", entry.torch_version, expected.torch_version);
  compare("created", entry.created, expected.created);
  compare("cells", std::to_string(entry.cells), std::to_string(expected.cells));
  compare("replaces", entry.replaces, expected.replaces);
  return differ;
}

// ---------------------------------------------------------------------------------------------------
// Reading and writing

namespace {

using detail::Reader;

CatalogEntry parse_entry(Reader reader)
{
  CatalogEntry entry;
  entry.id = reader.text("id");
  entry.version = reader.small_integer("version");
  entry.title = reader.text("title");
  entry.label = reader.optional_text("label");
  entry.kind = detail::parse_enum<Kind>(
    reader, "kind", {{"measured", Kind::measured}, {"published-reference", Kind::published_reference}});
  entry.device = reader.text("device");
  entry.torch_version = reader.text("torch_version");
  entry.created = reader.text("created");
  entry.cells = reader.small_integer("cells");
  entry.sha256 = reader.text("sha256");
  entry.path = reader.text("path");
  entry.replaces = reader.optional_text("replaces");
  if (!valid_id(entry.id)) {
    reader.fail(reader.at("id"), "\"" + entry.id + "\" is not a dataset id ([a-z0-9] words joined by '-')");
  }
  if (entry.version < 1) {
    reader.fail(reader.at("version"), "a published version counts from 1");
  }
  if (entry.sha256.size() != 64 || entry.sha256.find_first_not_of("0123456789abcdef") != std::string::npos) {
    reader.fail(reader.at("sha256"), "expected 64 lowercase hex digits");
  }
  if (entry.path != dataset_path(entry.id, entry.version)) {
    reader.fail(reader.at("path"), "expected \"" + dataset_path(entry.id, entry.version) + "\"");
  }
  if (!entry.replaces.empty()) {
    parse_reference(entry.replaces, reader.origin() + ": " + reader.at("replaces"));
  }
  if (!reader.has("label")) {
    // Catalogs before 1.1.0 have no labels.
    entry.label = default_label(entry.device, entry.kind, entry.id);
  }
  const auto problem = label_problem(entry.label);
  if (!problem.empty()) {
    reader.fail(reader.at("label"), problem);
  }
  entry.errata = detail::parse_errata(reader);
  reader.done();
  return entry;
}

} // namespace

Catalog parse_catalog(const std::string& text, const std::string& origin)
{
  const auto json = parse_json(text, origin);
  if (!json.is_object() || !json.contains("datasets")) {
    throw Error(origin + ": not a layerbench catalog (no \"datasets\" at the top level)");
  }
  Reader reader(json, "", origin);
  Catalog catalog;
  catalog.schema_version = detail::parse_version(reader, k_oldest_catalog_schema_version, k_catalog_schema_version);
  catalog.featured = reader.optional_text("featured");
  const auto& datasets = reader.array("datasets");
  for (size_t i = 0; i < datasets.size(); ++i) {
    const auto pointer = reader.at("datasets") + "/" + std::to_string(i);
    auto entry = parse_entry(Reader(datasets[i], pointer, origin));
    if (find_entry(catalog, entry.id, entry.version)) {
      reader.fail(pointer, reference(entry.id, entry.version) + " is listed twice");
    }
    catalog.datasets.push_back(entry);
  }
  if (!catalog.featured.empty()) {
    const auto featured = parse_reference(catalog.featured, origin + ": /featured");
    if (!find_entry(catalog, featured.id, featured.version)) {
      reader.fail(reader.at("featured"), catalog.featured + " is not in the catalog");
    }
  }
  reader.done();
  return catalog;
}

Catalog load_catalog(const std::filesystem::path& path)
{
  auto text = util::read_file(path);
  if (!text) {
    throw Error(path.string() + ": " + text.error());
  }
  return parse_catalog(*text, path.string());
}

std::string serialize(const Catalog& catalog)
{
  OrderedJson json;
  json["schema_version"] = to_string(k_catalog_schema_version); // an older catalog is written anew in the current form
  json["featured"] = catalog.featured.empty() ? OrderedJson(nullptr) : OrderedJson(catalog.featured);
  json["datasets"] = OrderedJson::array();
  for (const auto& entry : catalog.datasets) {
    json["datasets"].push_back({{"id", entry.id},
                                {"version", entry.version},
                                {"title", entry.title},
                                {"label", entry.label},
                                {"kind", to_string(entry.kind)},
                                {"device", entry.device},
                                {"torch_version", entry.torch_version},
                                {"created", entry.created},
                                {"cells", entry.cells},
                                {"sha256", entry.sha256},
                                {"path", entry.path},
                                {"replaces", entry.replaces.empty() ? OrderedJson(nullptr) : OrderedJson(entry.replaces)}});
    if (!entry.errata.empty()) {
      json["datasets"].back()["errata"] = detail::errata_json(entry.errata);
    }
  }
  return json.dump(2) + "\n";
}

// ---------------------------------------------------------------------------------------------------
// Publishing

namespace {

void require_valid(const Dataset& run, const std::string& origin, const DatasheetPeaks& datasheet)
{
  auto problems = check(run);
  for (const auto& finding : check_physics(run, datasheet)) {
    if (finding.severity == Severity::error) {
      problems.push_back({finding.pointer, finding.message});
    }
  }
  if (problems.empty()) {
    return;
  }
  std::string message = origin + ": not publishable, " + std::to_string(problems.size()) + " problem(s):";
  for (const auto& problem : problems) {
    message += "\n  " + (problem.pointer.empty() ? std::string("/") : problem.pointer) + ": " + problem.message;
  }
  throw Error(message);
}

void write(const std::filesystem::path& path, const std::string& content, util::Overwrite overwrite)
{
  const auto written = util::write_file_atomic(path, content, overwrite);
  if (!written) {
    throw Error(path.string() + ": " + written.error());
  }
}

} // namespace

namespace {

// A new version continues its id's line: the same kind of dataset, of the same device. An EPYC run
// is not version 2 of an A100 reference.
void check_same_line(const CatalogEntry& earlier, const CatalogEntry& entry, const std::string& relation)
{
  const auto differ = [&](const char* field, const std::string& theirs, const std::string& mine) {
    if (theirs != mine) {
      throw Error("\"" + entry.id + "\" " + relation + " " + reference(earlier.id, earlier.version) + ", whose " + field
                  + " is \"" + theirs + "\" where this dataset's is \"" + mine
                  + "\"; publish it under an id of its own (--id)");
    }
  };
  differ("kind", to_string(earlier.kind), to_string(entry.kind));
  differ("device", earlier.device, entry.device);
}

// The text publish adds to the run, refused here, before anything is written, with the numbers
// the readers of the data folder use.
void check_text(const std::string& what, const std::string& text)
{
  const auto problem = text_problem(text);
  if (!problem.empty()) {
    throw Error(what + ": " + problem);
  }
}

} // namespace

CatalogEntry publish(Dataset run, const PublishOptions& options)
{
  const auto catalog_path = DataFolder::catalog_file(options.data_dir);
  std::filesystem::create_directories(options.data_dir);
  // Held from reading the catalog to writing it back, so two publishes at once both land.
  const auto lock_path = DataFolder::catalog_lock_file(options.data_dir);
  const auto lock = util::FileLock::acquire(lock_path);
  if (!lock) {
    throw Error(lock_path.string() + ": " + lock.error());
  }
  // The folder as it stands is read, and its published files verified, before anything is added to it.
  Catalog catalog = std::filesystem::exists(catalog_path) ? DataFolder::load(options.data_dir).catalog() : Catalog{};
  if (!options.id.empty()) {
    run.id = options.id;
  }
  if (!options.title.empty()) {
    check_text("title", options.title);
    run.title = options.title;
  }
  if (!options.creators.empty()) {
    for (const auto& creator : options.creators) {
      check_text("creator \"" + creator.name.substr(0, 40) + "\"", creator.name);
    }
    run.creators = options.creators;
  }
  if (!valid_id(run.id)) {
    throw Error("\"" + run.id + "\" is not a dataset id ([a-z0-9] words joined by '-', e.g. h100-sxm-fp32)");
  }
  if (run.title.empty()) {
    throw Error("the dataset has no title; give it one");
  }
  const int latest = latest_version(catalog, run.id);
  run.version = latest + 1;
  run.replaces = options.replaces.empty() && latest > 0 ? reference(run.id, latest) : options.replaces;
  const CatalogEntry* replaced = nullptr;
  if (!run.replaces.empty()) {
    const auto named = parse_reference(run.replaces, "replaces");
    replaced = find_entry(catalog, named.id, named.version);
    if (!replaced) {
      throw Error("it replaces " + run.replaces + ", which is not in " + catalog_path.string());
    }
  }
  const auto label_error = options.label.empty() ? std::string() : label_problem(options.label);
  if (!label_error.empty()) {
    throw Error("label \"" + options.label + "\": " + label_error);
  }
  require_memory_figures(run, "publish " + reference(run.id, run.version));
  const auto refusals = publish_refusals(run);
  if (!refusals.empty() && options.forced.empty()) {
    std::string list;
    for (const auto& refusal : refusals) {
      list += (list.empty() ? "" : "; ") + refusal;
    }
    throw Error("refused: " + list + ". Measure again on a quiet machine from a clean tree with --rounds "
                + std::to_string(k_publish_rounds) + ", or publish it anyway with --force REASON (the reason is "
                "recorded in the dataset and shown on its page)");
  }
  if (!options.forced.empty()) {
    check_text("--force reason", options.forced);
    std::string overrode;
    for (const auto& refusal : refusals) {
      overrode += (overrode.empty() ? "" : "; ") + refusal;
    }
    run.provenance.forced = options.forced + (overrode.empty() ? "" : " (overrode: " + overrode + ")");
    check_text("--force reason with what it overrode", run.provenance.forced);
  }
  // The datasheet of the folder published into: the floor of a run made with --no-peaks.
  require_valid(run, "publish " + reference(run.id, run.version), datasheet_for(options.data_dir / "datasets" / (run.id + ".json")));

  // Everything is serialized, and read back as every later reader will read it, before the first
  // byte is written: a publish is all or nothing.
  const auto content = serialize(run);
  const auto entry = describe(run, util::sha256_hex(content), options.label);
  if (latest > 0) {
    check_same_line(*find_entry(catalog, run.id, latest), entry, "continues");
  }
  if (replaced) {
    check_same_line(*replaced, entry, "replaces");
  }
  catalog.datasets.push_back(entry);
  const bool replaced_featured = !run.replaces.empty() && catalog.featured == run.replaces;
  if (catalog.featured.empty() || replaced_featured || options.feature == PublishOptions::Feature::make_featured) {
    catalog.featured = reference(entry.id, entry.version);
  }
  const auto catalog_text = serialize(catalog);
  parse(content, (options.data_dir / entry.path).string());
  parse_catalog(catalog_text, catalog_path.string());

  // An earlier attempt of this very publish that stopped before the catalog left this file: completed.
  const bool adopted = adopt_unlisted(options.data_dir, catalog, options.data_dir / entry.path, content);
  std::filesystem::create_directories((options.data_dir / entry.path).parent_path());
  if (!adopted) {
    write(options.data_dir / entry.path, content, util::Overwrite::no);
  }
  try {
    write(catalog_path, catalog_text, util::Overwrite::yes);
  } catch (...) {
    // Without its catalog entry the new file is an orphan that would block the next attempt.
    if (!adopted) {
      std::filesystem::remove(options.data_dir / entry.path);
    }
    throw;
  }
  return entry;
}

std::vector<std::string> publish_refusals(const Dataset& run)
{
  std::vector<std::string> refusals;
  if (run.kind != Kind::measured) {
    return refusals;
  }
  const auto& commit = run.provenance.git_commit;
  const std::string dirty = "-dirty";
  if (commit == "unknown" || commit.empty()) {
    refusals.push_back("it was built outside a git checkout, so its source cannot be named");
  } else if (commit.size() > dirty.size() && commit.compare(commit.size() - dirty.size(), dirty.size(), dirty) == 0) {
    refusals.push_back("it was built from a tree with uncommitted changes (" + commit + ")");
  }
  if (run.environment && run.environment->other_cores_busy
      && *run.environment->other_cores_busy >= k_busy_cores_threshold) {
    refusals.push_back("the machine was busy: other processes kept " + util::format_fixed(*run.environment->other_cores_busy, 2)
                       + " cores busy on average while it measured");
  }
  const int rounds = run.rounds ? run.rounds->count : 1;
  if (rounds < k_publish_rounds) {
    refusals.push_back("it measured " + std::to_string(rounds) + (rounds == 1 ? " round" : " rounds") + "; publishing wants "
                       + std::to_string(k_publish_rounds) + " or more (run --rounds " + std::to_string(k_publish_rounds) + ")");
  }
  return refusals;
}

std::vector<std::string> publish_warnings(const Dataset& run, const Dataset* featured)
{
  std::vector<std::string> warnings;
  if (run.methodology && !run.methodology->shard.empty()) {
    warnings.push_back("it measured shard " + run.methodology->shard
                       + " of its matrix only (join the shards with 'layerbench merge' first)");
  }
  size_t skipped = 0;
  size_t timed = 0;
  size_t missed = 0;
  for (const auto& cell : run.results) {
    if (cell.status == CellStatus::skipped) {
      ++skipped;
      continue;
    }
    ++timed;
    missed += cell.stats && cell.stats->noise_target_met == false ? 1 : 0;
  }
  if (skipped > 0) {
    warnings.push_back(std::to_string(skipped) + " of its " + std::to_string(run.results.size())
                       + " cells were skipped");
  }
  if (missed > 0) {
    warnings.push_back(std::to_string(missed) + " of its " + std::to_string(timed)
                       + " timed cells missed their noise target (marked on the site)");
  }
  // The featured dataset's matrix is of layers: a dataset of whole models only is not a part of it.
  const bool models_only = !run.layers.empty() && std::all_of(run.layers.begin(), run.layers.end(), [](const Layer& layer) {
    return layer.kind == LayerKind::model;
  });
  if (featured && featured->methodology && run.methodology && !models_only) {
    const auto& mine = *run.methodology;
    const auto& theirs = *featured->methodology;
    if (mine.layers.size() * mine.batch_sizes.size() < theirs.layers.size() * theirs.batch_sizes.size()) {
      warnings.push_back("its matrix is partial: " + std::to_string(mine.layers.size()) + " layers x "
                         + std::to_string(mine.batch_sizes.size()) + " batch sizes, where the featured dataset "
                         + reference(featured->id, featured->version) + " has " + std::to_string(theirs.layers.size())
                         + " x " + std::to_string(theirs.batch_sizes.size()));
    }
  }
  return warnings;
}

} // namespace layerbench::dataset
