// SPDX-License-Identifier: MIT
#include "dataset/scaling_reference.hpp"

#include "dataset/json_reader.hpp"
#include "util/error.hpp"
#include "util/file.hpp"

namespace layerbench::dataset {

namespace {

using detail::Reader;

const char* const k_file = "reference/data-parallel-scaling.json";
const char* const k_scaling_reference_format = "layerbench-scaling-reference";

int at_least(Reader& reader, const std::string& key, int low)
{
  const int value = reader.small_integer(key);
  if (value < low) {
    reader.fail(reader.at(key), "expected at least " + std::to_string(low));
  }
  return value;
}

ScalingSource parse_source(Reader reader)
{
  ScalingSource source;
  source.title = reader.text("title");
  source.url = reader.optional_text("url");
  if (!source.url.empty() && source.url.rfind("https://", 0) != 0) {
    reader.fail(reader.at("url"), "expected an https:// address");
  }
  source.note = reader.optional_text("note");
  reader.done();
  return source;
}

// A range must hold its middle: low <= factor <= high.
void check_range(Reader& reader, double low, double middle, double high, const std::string& key)
{
  if (!(low <= middle && middle <= high)) {
    reader.fail(reader.at(key), "expected low <= factor <= high");
  }
}

MeasuredScaling parse_measured(Reader reader)
{
  MeasuredScaling row;
  row.model = reader.text("model");
  set_axis(row.axes, "mode", reader.text("mode"));
  set_axis(row.axes, "precision", reader.text("precision"));
  row.batch_per_rank = at_least(reader, "batch_per_rank", 1);
  row.world_size = at_least(reader, "world_size", 2);
  row.device = reader.text("device");
  row.device_type = detail::parse_enum<std::string>(reader, "device_type", {{"cpu", "cpu"}, {"cuda", "cuda"}});
  row.cores = reader.has("cores") ? at_least(reader, "cores", 1) : 0;
  reader.allow_null("cores");
  row.one_process_samples_per_s = detail::positive_number(reader, "one_process_samples_per_s");
  row.all_ranks_samples_per_s = detail::positive_number(reader, "all_ranks_samples_per_s");
  row.factor = detail::positive_number(reader, "factor");
  row.factor_low = detail::positive_number(reader, "factor_low");
  row.factor_high = detail::positive_number(reader, "factor_high");
  check_range(reader, row.factor_low, row.factor, row.factor_high, "factor");
  row.all_reduce_ms = detail::positive_number(reader, "all_reduce_ms");
  row.date = reader.text("date");
  row.files = detail::text_list(reader, "files");
  row.command = reader.text("command");
  row.note = reader.text("note");
  reader.done();
  return row;
}

PublishedScaling parse_published(Reader reader)
{
  PublishedScaling row;
  row.source = parse_source(reader.object("source"));
  row.model = reader.text("model");
  row.setting = reader.text("setting");
  row.device = reader.text("device");
  row.one_samples_per_s = reader.optional<double>("one_samples_per_s", &Reader::number);
  row.all_samples_per_s = reader.optional<double>("all_samples_per_s", &Reader::number);
  row.factor_low = reader.optional<double>("factor_low", &Reader::number);
  row.factor_high = reader.optional<double>("factor_high", &Reader::number);
  const bool throughputs = row.one_samples_per_s && row.all_samples_per_s;
  const bool range = row.factor_low && row.factor_high;
  if (throughputs == range) {
    reader.fail(reader.pointer(), "expected either one_samples_per_s and all_samples_per_s with devices, or factor_low and factor_high");
  }
  if (throughputs) {
    row.devices = at_least(reader, "devices", 2);
  }
  if (range) {
    check_range(reader, *row.factor_low, *row.factor_low, *row.factor_high, "factor_high");
  }
  reader.done();
  return row;
}

AllReduceModel parse_model(Reader reader)
{
  AllReduceModel model;
  model.model = reader.text("model");
  model.devices = at_least(reader, "devices", 2);
  model.gradient_bytes_per_parameter = at_least(reader, "gradient_bytes_per_parameter", 1);
  const auto& links = reader.array("links");
  for (size_t i = 0; i < links.size(); ++i) {
    Reader link(links[i], reader.at("links") + "/" + std::to_string(i), reader.origin());
    Link parsed;
    parsed.name = link.text("name");
    parsed.bidirectional_bytes_per_s = detail::positive_number(link, "bidirectional_bytes_per_s");
    parsed.source = parse_source(link.object("source"));
    link.done();
    model.links.push_back(parsed);
  }
  reader.done();
  return model;
}

} // namespace

ScalingReference parse_scaling_reference(const std::string& text, const std::string& origin)
{
  const auto json = parse_json(text, origin);
  Reader reader(json, "", origin);
  ScalingReference file;
  if (reader.text("format") != k_scaling_reference_format) {
    reader.fail(reader.at("format"), "expected \"" + std::string(k_scaling_reference_format) + "\"");
  }
  file.format_version = detail::parse_version(reader, k_scaling_reference_version, k_scaling_reference_version, "format_version");
  file.about = reader.text("about");
  const auto& measured = reader.array("measured");
  for (size_t i = 0; i < measured.size(); ++i) {
    file.measured.push_back(parse_measured(Reader(measured[i], reader.at("measured") + "/" + std::to_string(i), origin)));
  }
  const auto& published = reader.array("published");
  for (size_t i = 0; i < published.size(); ++i) {
    file.published.push_back(parse_published(Reader(published[i], reader.at("published") + "/" + std::to_string(i), origin)));
  }
  if (reader.has("all_reduce_model")) {
    file.all_reduce_model = parse_model(reader.object("all_reduce_model"));
  }
  reader.allow_null("all_reduce_model");
  reader.done();
  return file;
}

std::optional<ScalingReference> load_scaling_reference(const std::filesystem::path& data_dir)
{
  const auto path = data_dir / k_file;
  if (!std::filesystem::exists(path)) {
    return std::nullopt;
  }
  auto text = util::read_file(path);
  if (!text) {
    throw Error(path.string() + ": " + text.error());
  }
  return parse_scaling_reference(*text, path.string());
}

} // namespace layerbench::dataset
