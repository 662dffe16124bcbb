// SPDX-License-Identifier: MIT
#include "dataset/inconsistencies.hpp"

#include "dataset/catalog.hpp"
#include "dataset/json_reader.hpp"
#include "dataset/json_text.hpp"

namespace layerbench::dataset {

namespace {

using detail::Json;
using detail::Reader;
// The same document with its keys in the file's order: Json sorts them, and a formula's bindings and a
// table's batch sizes read best as the file gives them.
using Ordered = nlohmann::ordered_json;

constexpr const char* k_inconsistencies_format = "layerbench-inconsistencies";

// What the page claims is a number or a text; what its table gives, a number or a text per key.
enum class FigureShape { number_or_text, number_or_table };

Figure read_figure(Reader& reader, const std::string& key, FigureShape shape, const Ordered& ordered, const std::string& origin)
{
  const Json& value = reader.field(key);
  Figure figure;
  if (value.is_number()) {
    figure.number = reader.number(key);
    return figure;
  }
  if (shape == FigureShape::number_or_text) {
    figure.text = reader.text(key); // fails naming the type when it is not a string
    return figure;
  }
  if (!value.is_object()) {
    reader.fail(reader.at(key), "expected a number or an object of strings, found " + std::string(value.type_name()));
  }
  Reader entries(value, reader.at(key), origin);
  for (const auto& item : ordered.at(key).items()) {
    if (!item.value().is_array()) {
      figure.by_key.emplace_back(item.key(), entries.text(item.key()));
      continue;
    }
    std::string joined;
    for (const auto& text : detail::text_list(entries, item.key())) {
      joined += (joined.empty() ? "" : ", ") + text;
    }
    figure.by_key.emplace_back(item.key(), joined);
  }
  entries.done();
  return figure;
}

// An object of numbers, in the file's order.
std::vector<std::pair<std::string, double>> read_numbers(Reader reader, const Ordered& ordered)
{
  std::vector<std::pair<std::string, double>> bindings;
  for (const auto& item : ordered.items()) {
    bindings.emplace_back(item.key(), reader.number(item.key()));
  }
  reader.done();
  return bindings;
}

void read_formula_fields(Reader& reader, Inconsistency& item, const Ordered& ordered, const std::string& origin)
{
  item.formula = reader.text("formula");
  Reader bindings(reader.field("bindings"), reader.at("bindings"), origin); // refuses a non-object first
  item.bindings = read_numbers(bindings, ordered.at("bindings"));
}

std::vector<std::pair<std::string, double>> read_number_object(Reader& reader, const std::string& key, const Ordered& ordered,
                                                               const std::string& origin)
{
  Reader object(reader.field(key), reader.at(key), origin); // refuses a non-object first
  return read_numbers(object, ordered.at(key));
}

void read_rate_fields(Reader& reader, Inconsistency& item)
{
  item.batch_size = static_cast<int>(reader.integer("batch_size"));
  item.page_ms = reader.number("page_ms");
  item.flops_per_sample = reader.number("flops_per_sample");
  item.implied_flop_per_s = reader.number("implied_flop_per_s");
  item.peak_flop_per_s = reader.number("peak_flop_per_s");
  item.peak_source = reader.text("peak_source");
  item.computation = reader.text("computation");
}

void read_bandwidth_fields(Reader& reader, Inconsistency& item)
{
  item.batch_size = static_cast<int>(reader.integer("batch_size"));
  item.page_ms = reader.number("page_ms");
  item.bytes = reader.number("bytes");
  item.implied_bytes_per_s = reader.number("implied_bytes_per_s");
  item.peak_bytes_per_s = reader.number("peak_bytes_per_s");
  item.last_level_cache_bytes = reader.integer("last_level_cache_bytes");
  item.peak_source = reader.text("peak_source");
  item.computation = reader.text("computation");
}

void read_memory_fields(Reader& reader, Inconsistency& item)
{
  item.batch_size = static_cast<int>(reader.integer("batch_size"));
  item.page_memory_bytes = reader.integer("page_memory_bytes");
  item.input_bytes = reader.integer("input_bytes");
  item.computation = reader.text("computation");
}

Inconsistency read_item(Reader reader, const Ordered& ordered, const std::string& origin)
{
  Inconsistency item;
  item.kind = detail::parse_enum<InconsistencyKind>(
    reader, "kind",
    {{"params_differ_from_pytorch", InconsistencyKind::params_differ_from_pytorch},
     {"params_differ_from_page_formula", InconsistencyKind::params_differ_from_page_formula},
     {"flops_differ_from_page_formula", InconsistencyKind::flops_differ_from_page_formula},
     {"claim_differs_from_table", InconsistencyKind::claim_differs_from_table},
     {"flops_per_mac_differs", InconsistencyKind::flops_per_mac_differs},
     {"implied_rate_above_peak", InconsistencyKind::implied_rate_above_peak},
     {"memory_below_input", InconsistencyKind::memory_below_input},
     {"implied_bandwidth_above_peak", InconsistencyKind::implied_bandwidth_above_peak}});
  item.note = reader.optional_text("note");
  if (item.kind == InconsistencyKind::claim_differs_from_table) {
    item.layer = reader.optional_text("layer");
    item.config = reader.optional_text("config");
    item.claim = reader.text("claim");
    item.where = reader.text("where");
    item.claimed = read_figure(reader, "claimed", FigureShape::number_or_text, ordered, origin);
    item.table = read_figure(reader, "table", FigureShape::number_or_table, ordered, origin);
    item.computation = reader.text("computation");
    reader.done();
    return item;
  }
  item.layer = reader.text("layer");
  item.config = reader.text("config");
  switch (item.kind) {
  case InconsistencyKind::params_differ_from_pytorch:
    item.page = static_cast<double>(reader.integer("page"));
    item.pytorch = reader.integer("pytorch");
    item.pytorch_source = reader.text("pytorch_source");
    break;
  case InconsistencyKind::params_differ_from_page_formula:
  case InconsistencyKind::flops_differ_from_page_formula:
    read_formula_fields(reader, item, ordered, origin);
    item.page = reader.number("page");
    item.formula_value = reader.number("formula_value");
    item.page_over_formula = reader.optional<double>("page_over_formula", &Reader::number);
    break;
  case InconsistencyKind::flops_per_mac_differs:
    read_formula_fields(reader, item, ordered, origin);
    item.flops_per_mac = read_number_object(reader, "flops_per_mac", ordered, origin);
    item.elsewhere = read_number_object(reader, "elsewhere", ordered, origin);
    item.computation = reader.text("computation");
    break;
  case InconsistencyKind::implied_rate_above_peak: read_rate_fields(reader, item); break;
  case InconsistencyKind::memory_below_input: read_memory_fields(reader, item); break;
  case InconsistencyKind::implied_bandwidth_above_peak: read_bandwidth_fields(reader, item); break;
  case InconsistencyKind::claim_differs_from_table: break; // read above
  }
  reader.done();
  return item;
}

} // namespace

std::string to_string(InconsistencyKind kind)
{
  switch (kind) {
  case InconsistencyKind::params_differ_from_pytorch: return "params_differ_from_pytorch";
  case InconsistencyKind::params_differ_from_page_formula: return "params_differ_from_page_formula";
  case InconsistencyKind::flops_differ_from_page_formula: return "flops_differ_from_page_formula";
  case InconsistencyKind::claim_differs_from_table: return "claim_differs_from_table";
  case InconsistencyKind::flops_per_mac_differs: return "flops_per_mac_differs";
  case InconsistencyKind::implied_rate_above_peak: return "implied_rate_above_peak";
  case InconsistencyKind::memory_below_input: return "memory_below_input";
  case InconsistencyKind::implied_bandwidth_above_peak: return "implied_bandwidth_above_peak";
  }
  return "";
}

InconsistencyFile parse_inconsistencies(const std::string& text, const std::string& origin)
{
  const Json json = parse_json(text, origin);
  const Ordered ordered = parse_ordered_json(text, origin);
  Reader reader(json, "", origin);
  if (reader.text("format") != k_inconsistencies_format) {
    reader.fail(reader.at("format"), std::string("expected \"") + k_inconsistencies_format + "\"");
  }
  detail::parse_version(reader, k_oldest_inconsistencies_version, k_inconsistencies_version, "format_version");
  InconsistencyFile file;
  file.origin = origin;
  file.about = reader.text("about");
  Reader reference = reader.object("reference");
  file.reference = reference.text("dataset");
  parse_reference(file.reference, origin + ": " + reference.at("dataset"));
  file.reference_path = reference.text("path");
  file.reference_sha256 = reference.text("sha256");
  if (file.reference_sha256.size() != 64 || file.reference_sha256.find_first_not_of("0123456789abcdef") != std::string::npos) {
    reference.fail(reference.at("sha256"), "expected 64 lowercase hex digits");
  }
  reference.done();
  Reader ours = reader.object("ours");
  file.ours_source = ours.text("source");
  file.ours_tool_version = ours.text("tool_version");
  ours.done();
  file.generated_by = reader.text("generated_by");
  file.conventions = detail::text_list(reader, "conventions");
  const Json& items = reader.array("inconsistencies");
  for (size_t i = 0; i < items.size(); ++i) {
    file.items.push_back(
      read_item(Reader(items[i], reader.at("inconsistencies") + "/" + std::to_string(i), origin), ordered["inconsistencies"][i], origin));
  }
  reader.done();
  return file;
}

} // namespace layerbench::dataset
