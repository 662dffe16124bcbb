// SPDX-License-Identifier: MIT
#include "dataset/finding.hpp"

#include "dataset/json_reader.hpp"
#include "dataset/json_text.hpp"
#include "util/error.hpp"

#include <algorithm>
#include <cstdlib>

namespace layerbench::dataset {

namespace {

using detail::Json;
using detail::Reader;

constexpr const char* k_finding_format = "layerbench-finding";

int positive_integer(Reader& reader, const std::string& key)
{
  const int value = reader.small_integer(key);
  if (value < 1) {
    reader.fail(reader.at(key), "expected a positive integer");
  }
  return value;
}

// An object of strings, {"name": "text", ...}, in name order.
NamedTexts named_texts(Reader& reader, const std::string& key)
{
  const Json& value = reader.field(key);
  if (!value.is_object() || value.empty()) {
    reader.fail(reader.at(key), "expected an object of named texts, found " + std::string(value.type_name()));
  }
  NamedTexts texts;
  for (const auto& item : value.items()) {
    if (!item.value().is_string() || item.value().get_ref<const std::string&>().empty()) {
      reader.fail(reader.at(key) + "/" + item.key(), "expected a non-empty string");
    }
    texts.emplace_back(item.key(), item.value().get<std::string>());
  }
  return texts;
}

std::vector<Quartiles> quartiles_list(Reader& reader, const std::string& key)
{
  std::vector<Quartiles> passes;
  const Json& array = reader.array(key);
  for (size_t i = 0; i < array.size(); ++i) {
    Reader pass(array[i], reader.at(key) + "/" + std::to_string(i), reader.origin());
    Quartiles q{detail::positive_number(pass, "median"), detail::positive_number(pass, "p25"),
                detail::positive_number(pass, "p75")};
    pass.done();
    if (q.p25 > q.median || q.median > q.p75) {
      pass.fail(pass.pointer(), "expected p25 <= median <= p75");
    }
    passes.push_back(q);
  }
  return passes;
}

std::optional<OperatorAlone> read_operator_alone(Reader& release)
{
  release.allow_null("operator_alone");
  if (!release.has("operator_alone")) {
    return std::nullopt;
  }
  Reader reader = release.object("operator_alone");
  OperatorAlone alone;
  alone.batch_size = positive_integer(reader, "batch_size");
  alone.cpu_ms_1_thread = quartiles_list(reader, "cpu_ms_1_thread");
  alone.timer_wall_ms_1_thread = quartiles_list(reader, "timer_wall_ms_1_thread");
  reader.done();
  return alone;
}

std::map<int, double> times_by_batch(Reader& reader, const std::string& key)
{
  std::map<int, double> times;
  const Json& value = reader.field(key);
  if (!value.is_object()) {
    reader.fail(reader.at(key), "expected an object of batch size -> ms");
  }
  for (const auto& item : value.items()) {
    const auto pointer = reader.at(key) + "/" + item.key();
    const int batch = std::atoi(item.key().c_str());
    if (batch < 1 || std::to_string(batch) != item.key()) {
      reader.fail(pointer, "\"" + item.key() + "\" is not a batch size");
    }
    if (!item.value().is_number() || !(item.value().get<double>() > 0)) {
      reader.fail(pointer, "expected a positive number of milliseconds");
    }
    times[batch] = item.value().get<double>();
  }
  return times;
}

FindingRelease read_release(Reader reader, const NamedTexts& paths)
{
  FindingRelease release;
  release.torch_version = reader.text("torch_version");
  release.path = reader.text("path");
  const bool known = std::any_of(paths.begin(), paths.end(), [&](const auto& path) { return path.first == release.path; });
  if (!known) {
    reader.fail(reader.at("path"), "\"" + release.path + "\" is not one of the finding's /paths");
  }
  release.why = reader.text("why");
  release.dataset = reader.text("dataset");
  parse_reference(release.dataset, reader.origin() + ": " + reader.at("dataset"));
  release.cell_median_ms = times_by_batch(reader, "cell_median_ms");
  Reader share = reader.object("operator_share_of_cell");
  release.share_batch_size = positive_integer(share, "batch_size");
  release.operator_share = share.number("share");
  if (release.operator_share < 0 || release.operator_share > 1) {
    share.fail(share.at("share"), "expected a fraction from 0 to 1");
  }
  share.done();
  Reader evidence = reader.object("evidence");
  release.evidence_binary = evidence.text("binary");
  evidence.allow_null("behaviour");
  if (evidence.has("behaviour")) {
    release.evidence_behaviour = detail::text_list(evidence, "behaviour");
  }
  evidence.done();
  release.sources = named_texts(reader, "sources");
  release.operator_alone = read_operator_alone(reader);
  release.operator_alone_note = reader.optional_text("operator_alone_note");
  if (!release.operator_alone && release.operator_alone_note.empty()) {
    reader.fail(reader.at("operator_alone"), "null without an operator_alone_note saying why it was not timed");
  }
  reader.done();
  return release;
}

FindingChange read_change(Reader reader)
{
  FindingChange change;
  change.from = reader.text("from");
  change.to = reader.text("to");
  change.change = reader.text("change");
  change.reference = reader.optional_text("reference");
  change.reason = reader.optional_text("reason");
  change.reason_text = reader.optional_text("reason_text");
  change.note = reader.optional_text("note");
  reader.allow_null("history");
  if (reader.has("history")) {
    change.history = detail::text_list(reader, "history");
  }
  reader.done();
  return change;
}

void read_subject(Reader& reader, Finding& finding)
{
  Reader device = reader.object("device");
  finding.device_type = device.text("type");
  finding.device_name = device.text("name");
  finding.device_vendor_id = device.optional_text("vendor_id");
  device.done();
  finding.threads = positive_integer(reader, "threads");
  Reader cell = reader.object("cell");
  finding.layer = cell.text("layer");
  finding.config = cell.text("config");
  finding.mode = cell.text("mode");
  finding.op = cell.text("operator");
  cell.done();
}

void read_measurement(Reader reader, Finding& finding)
{
  finding.measurement_script = reader.text("script");
  finding.measurement_outputs = reader.text("outputs");
  finding.measurement_operator_alone = reader.text("operator_alone");
  finding.measurement_conditions = reader.text("conditions");
  reader.done();
}

} // namespace

Finding parse_finding(const std::string& text, const std::string& origin)
{
  const Json json = parse_json(text, origin);
  Reader reader(json, "", origin);
  if (reader.text("format") != k_finding_format) {
    reader.fail(reader.at("format"), "expected \"" + std::string(k_finding_format) + "\"");
  }
  detail::parse_version(reader, k_oldest_finding_version, k_finding_version, "format_version");
  Finding finding;
  finding.id = reader.text("id");
  if (!valid_id(finding.id)) {
    reader.fail(reader.at("id"), "\"" + finding.id + "\" is not [a-z0-9]+ joined by single hyphens");
  }
  finding.title = reader.text("title");
  finding.created = reader.text("created");
  finding.issue = reader.optional<int64_t>("issue", &Reader::integer).value_or(0);
  read_subject(reader, finding);
  finding.cause = reader.text("cause");
  if (finding.cause.empty()) {
    reader.fail(reader.at("cause"), "expected the cause in one sentence");
  }
  finding.paths = named_texts(reader, "paths");
  const Json& changes = reader.array("changes");
  for (size_t i = 0; i < changes.size(); ++i) {
    finding.changes.push_back(read_change(Reader(changes[i], reader.at("changes") + "/" + std::to_string(i), origin)));
  }
  const Json& releases = reader.array("releases");
  if (releases.empty()) {
    reader.fail(reader.at("releases"), "expected at least one release");
  }
  for (size_t i = 0; i < releases.size(); ++i) {
    const auto pointer = reader.at("releases") + "/" + std::to_string(i);
    finding.releases.push_back(read_release(Reader(releases[i], pointer, origin), finding.paths));
  }
  read_measurement(reader.object("measurement"), finding);
  finding.versions_page = reader.optional_text("versions_page");
  reader.done();
  return finding;
}

std::vector<std::string> check_finding(const Finding& finding, const std::filesystem::path& file, const Catalog* catalog)
{
  std::vector<std::string> found;
  const auto origin = file.string();
  if (finding.id != file.stem().string()) {
    found.push_back(origin + ": /id: \"" + finding.id + "\" differs from the file name");
  }
  for (size_t i = 0; catalog && i < finding.releases.size(); ++i) {
    const auto& release = finding.releases[i];
    const auto named = parse_reference(release.dataset, "dataset");
    if (!find_entry(*catalog, named.id, named.version)) {
      found.push_back(origin + ": /releases/" + std::to_string(i) + "/dataset: " + release.dataset
                      + " is not in the catalog");
    }
  }
  return found;
}

} // namespace layerbench::dataset
