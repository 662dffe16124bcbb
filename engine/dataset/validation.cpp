// SPDX-License-Identifier: MIT
#include "dataset/validation.hpp"

#include "dataset/json_reader.hpp"
#include "dataset/json_text.hpp"

#include "util/file.hpp"

#include <algorithm>
#include <regex>

namespace layerbench::dataset {

namespace {

using detail::Json;
using detail::Reader;

double ratio_in(Reader& reader, const std::string& key)
{
  const double value = reader.number(key);
  if (!(value > 0)) {
    reader.fail(reader.at(key), "expected a positive number");
  }
  return value;
}

ParityTargets read_targets(Reader reader)
{
  ParityTargets targets;
  targets.median_ratio_low = ratio_in(reader, "median_ratio_low");
  targets.median_ratio_high = ratio_in(reader, "median_ratio_high");
  targets.cell_ratio_low = ratio_in(reader, "cell_ratio_low");
  targets.cell_ratio_high = ratio_in(reader, "cell_ratio_high");
  targets.cell_min_ms = reader.number("cell_min_ms");
  reader.done();
  if (targets.median_ratio_low > targets.median_ratio_high || targets.cell_ratio_low > targets.cell_ratio_high) {
    reader.fail(reader.pointer(), "a band's low end is above its high end");
  }
  return targets;
}

ParitySummary read_summary(Reader reader)
{
  ParitySummary summary;
  summary.cells = reader.small_integer("cells");
  summary.median_ratio = ratio_in(reader, "median_ratio");
  summary.cells_at_least_min_ms = reader.small_integer("cells_at_least_min_ms");
  summary.cells_within = reader.small_integer("cells_within");
  reader.done();
  return summary;
}

ParityCell read_cell(Reader reader)
{
  ParityCell cell;
  cell.layer = reader.text("layer");
  cell.batch_size = reader.small_integer("batch_size");
  if (cell.batch_size < 1) {
    reader.fail(reader.at("batch_size"), "expected a positive integer");
  }
  cell.layerbench_median_ms = ratio_in(reader, "layerbench_median_ms");
  cell.python_median_ms = ratio_in(reader, "python_median_ms");
  cell.ratio = ratio_in(reader, "ratio");
  const Json& rounds = reader.array("round_ratios");
  for (size_t i = 0; i < rounds.size(); ++i) {
    if (!rounds[i].is_number() || !(rounds[i].get<double>() > 0)) {
      reader.fail(reader.at("round_ratios") + "/" + std::to_string(i), "expected a positive number");
    }
    cell.round_ratios.push_back(rounds[i].get<double>());
  }
  cell.within_target = reader.boolean("within_target");
  cell.note = reader.text("note");
  reader.done();
  return cell;
}

} // namespace

Parity parse_parity(const std::string& text, const std::string& origin)
{
  const Json json = parse_json(text, origin);
  Reader reader(json, "", origin);
  if (reader.text("format") != "layerbench-parity") {
    reader.fail(reader.at("format"), "expected \"layerbench-parity\"");
  }
  detail::parse_version(reader, k_oldest_parity_version, k_parity_version, "format_version");
  Parity parity;
  parity.id = reader.text("id");
  if (!std::regex_match(parity.id, std::regex("[a-z0-9-]+"))) {
    reader.fail(reader.at("id"), "\"" + parity.id + "\" is not made of a-z, 0-9 and -");
  }
  parity.title = reader.text("title");
  parity.created = reader.text("created");
  Reader device = reader.object("device");
  parity.device_type = device.text("type");
  parity.device_name = device.text("name");
  device.done();
  parity.threads = reader.small_integer("threads");
  parity.torch_version = reader.text("torch_version");
  parity.cpu_memory_policy = reader.text("cpu_memory_policy");
  parity.rounds = reader.small_integer("rounds");
  parity.method = reader.text("method");
  parity.command = reader.text("command");
  parity.targets = read_targets(reader.object("targets"));
  parity.summary = read_summary(reader.object("summary"));
  const Json& cells = reader.array("cells");
  for (size_t i = 0; i < cells.size(); ++i) {
    parity.cells.push_back(read_cell(Reader(cells[i], reader.at("cells") + "/" + std::to_string(i), origin)));
  }
  reader.done();
  return parity;
}

std::vector<Parity> load_parity_folder(const std::filesystem::path& data_dir)
{
  const std::filesystem::path folder = data_dir / "validation";
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(folder)) {
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.is_regular_file() && entry.path().extension() == ".json") {
        files.push_back(entry.path());
      }
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<Parity> result;
  for (const auto& file : files) {
    const auto text = util::read_file(file);
    if (!text) {
      throw Error(file.string() + ": " + text.error());
    }
    result.push_back(parse_parity(*text, file.string()));
    if (result.back().id != file.stem().string()) {
      throw Error(file.string() + ": /id: \"" + result.back().id + "\" differs from the file name");
    }
  }
  return result;
}

} // namespace layerbench::dataset
