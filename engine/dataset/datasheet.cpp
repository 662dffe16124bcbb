// SPDX-License-Identifier: MIT
#include "dataset/datasheet.hpp"

#include "dataset/json_reader.hpp"
#include "util/error.hpp"
#include "util/file.hpp"

#include <set>

namespace layerbench::dataset {

namespace {

using detail::Reader;

void positive(Reader& reader, const std::string& key, double value)
{
  if (!(value > 0 && value <= 1e18)) {
    reader.fail(reader.at(key), "expected a rate in (0, 1e18]");
  }
}

DatasheetRate parse_rate(Reader reader)
{
  DatasheetRate rate;
  rate.precision = detail::parse_enum<std::string>(
    reader, "precision", {{"fp32", "fp32"}, {"tf32", "tf32"}, {"bf16", "bf16"}, {"fp16", "fp16"}});
  rate.flop_per_s = reader.number("flop_per_s");
  positive(reader, "flop_per_s", rate.flop_per_s);
  rate.note = reader.optional_text("note");
  reader.done();
  return rate;
}

DatasheetDevice parse_device(Reader reader)
{
  DatasheetDevice device;
  device.id = reader.text("id");
  device.name = reader.text("name");
  device.matches = detail::text_list(reader, "matches");
  if (device.matches.empty()) {
    reader.fail(reader.at("matches"), "expected at least one name");
  }
  for (size_t i = 0; i < device.matches.size(); ++i) {
    if (device.matches[i].empty()) {
      reader.fail(reader.at("matches") + "/" + std::to_string(i), "empty name would match every device");
    }
  }
  const auto& compute = reader.array("compute");
  std::set<std::string> seen;
  for (size_t i = 0; i < compute.size(); ++i) {
    const auto pointer = reader.at("compute") + "/" + std::to_string(i);
    device.compute.push_back(parse_rate(Reader(compute[i], pointer, reader.origin())));
    if (!seen.insert(device.compute.back().precision).second) {
      reader.fail(pointer + "/precision", "precision \"" + device.compute.back().precision + "\" is given twice");
    }
  }
  if (device.compute.empty()) {
    reader.fail(reader.at("compute"), "expected at least one rate");
  }
  {
    auto memory = reader.object("memory");
    device.memory_kind = memory.text("kind");
    device.memory_bytes_per_s = memory.number("bytes_per_s");
    positive(memory, "bytes_per_s", device.memory_bytes_per_s);
    device.last_level_cache_bytes = memory.optional<int64_t>("last_level_cache_bytes", &Reader::integer);
    memory.optional_text("last_level_cache_note");
    if (device.last_level_cache_bytes && *device.last_level_cache_bytes < 1) {
      memory.fail(memory.at("last_level_cache_bytes"), "expected a size of at least 1 byte");
    }
    memory.done();
  }
  {
    auto source = reader.object("source");
    device.source_title = source.text("title");
    device.source_publisher = source.text("publisher");
    device.source_url = source.text("url");
    if (device.source_url.rfind("https://", 0) != 0) {
      source.fail(source.at("url"), "expected an https:// address");
    }
    device.source_note = source.optional_text("note");
    source.done();
  }
  reader.done();
  return device;
}

} // namespace

DatasheetPeaks parse_datasheet_peaks(const std::string& text, const std::string& origin)
{
  const auto json = parse_json(text, origin);
  Reader reader(json, "", origin);
  DatasheetPeaks peaks;
  peaks.schema_version = detail::parse_version(reader, k_datasheet_schema_version, k_datasheet_schema_version);
  peaks.about = reader.text("about");
  const auto& devices = reader.array("devices");
  std::set<std::string> ids;
  for (size_t i = 0; i < devices.size(); ++i) {
    const auto pointer = reader.at("devices") + "/" + std::to_string(i);
    peaks.devices.push_back(parse_device(Reader(devices[i], pointer, origin)));
    if (!ids.insert(peaks.devices.back().id).second) {
      reader.fail(pointer + "/id", "device \"" + peaks.devices.back().id + "\" is listed twice");
    }
  }
  reader.done();
  return peaks;
}

DatasheetPeaks load_datasheet_peaks(const std::filesystem::path& path)
{
  auto text = util::read_file(path);
  if (!text) {
    throw Error(path.string() + ": " + text.error());
  }
  return parse_datasheet_peaks(*text, path.string());
}

const DatasheetDevice* match_device(const DatasheetPeaks& peaks, const std::string& device_name)
{
  for (const auto& device : peaks.devices) {
    for (const auto& name : device.matches) {
      if (device_name.find(name) != std::string::npos) {
        return &device;
      }
    }
  }
  return nullptr;
}

const DatasheetRate* find_rate(const DatasheetDevice& device, const std::string& precision)
{
  for (const auto& rate : device.compute) {
    if (rate.precision == precision) {
      return &rate;
    }
  }
  return nullptr;
}

std::string device_name(const Dataset& dataset)
{
  if (dataset.environment) {
    return dataset.environment->device.name;
  }
  return dataset.provenance.source ? dataset.provenance.source->device : std::string();
}

} // namespace layerbench::dataset
