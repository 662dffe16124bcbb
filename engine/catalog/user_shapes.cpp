// SPDX-License-Identifier: MIT
#include "catalog/user_shapes.hpp"

#include "util/error.hpp"
#include "util/suggest.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string_view>
#include <type_traits>

namespace layerbench::bench {

namespace {

// One named member of a layer's parameter type. `minimum` is the smallest value that builds.
template<typename S>
struct Field
{
  const char* name;
  int64_t S::*integer = nullptr;
  double S::*real = nullptr;
  const char* meaning = "";
  int64_t minimum = 1;
};

template<typename S>
constexpr bool k_has_table = false;

template<typename S>
std::vector<Field<S>> fields();

#define LAYERBENCH_TABLE(Type)                                                                                       \
  template<>                                                                                                         \
  constexpr bool k_has_table<shapes::Type> = true;                                                                   \
  template<>                                                                                                         \
  std::vector<Field<shapes::Type>> fields<shapes::Type>()

using namespace shapes;

LAYERBENCH_TABLE(Conv2d)
{
  return {{"in", &Conv2d::c_in, nullptr, "input channels"},
          {"out", &Conv2d::c_out, nullptr, "output channels"},
          {"k", &Conv2d::k, nullptr, "kernel size (K x K)"},
          {"h", &Conv2d::h, nullptr, "input height"},
          {"w", &Conv2d::w, nullptr, "input width"}};
}

LAYERBENCH_TABLE(Conv1d)
{
  return {{"in", &Conv1d::c_in, nullptr, "input channels"},
          {"out", &Conv1d::c_out, nullptr, "output channels"},
          {"k", &Conv1d::k, nullptr, "kernel size"},
          {"len", &Conv1d::length, nullptr, "input length"}};
}

LAYERBENCH_TABLE(ConvTranspose2d)
{
  return {{"in", &ConvTranspose2d::c_in, nullptr, "input channels"},
          {"out", &ConvTranspose2d::c_out, nullptr, "output channels"},
          {"k", &ConvTranspose2d::k, nullptr, "kernel size (K x K)"},
          {"stride", &ConvTranspose2d::stride, nullptr, "stride"},
          {"h", &ConvTranspose2d::h, nullptr, "input height"},
          {"w", &ConvTranspose2d::w, nullptr, "input width"}};
}

LAYERBENCH_TABLE(Linear)
{
  return {{"in", &Linear::in, nullptr, "input features"},
          {"out", &Linear::out, nullptr, "output features"},
          {"seq", &Linear::seq, nullptr, "positions per sample (0: a 2-D input, B x in)", 0}};
}

template<typename R>
std::vector<Field<R>> recurrent_fields()
{
  return {{"in", &R::input_size, nullptr, "input features"},
          {"hidden", &R::hidden, nullptr, "hidden size"},
          {"layers", &R::layers, nullptr, "stacked layers"},
          {"directions", &R::directions, nullptr, "1, or 2 for bidirectional"},
          {"len", &R::steps, nullptr, "sequence length (time steps)"}};
}

LAYERBENCH_TABLE(Lstm) { return recurrent_fields<Lstm>(); }
LAYERBENCH_TABLE(Gru) { return recurrent_fields<Gru>(); }

LAYERBENCH_TABLE(TransformerEncoder)
{
  return {{"d", &TransformerEncoder::d, nullptr, "model width"},
          {"heads", &TransformerEncoder::heads, nullptr, "attention heads (they divide d)"},
          {"ff", &TransformerEncoder::feedforward, nullptr, "feed-forward width"},
          {"seq", &TransformerEncoder::seq, nullptr, "sequence length"}};
}

LAYERBENCH_TABLE(MultiheadAttention)
{
  return {{"d", &MultiheadAttention::d, nullptr, "embedding width"},
          {"heads", &MultiheadAttention::heads, nullptr, "attention heads (they divide d)"},
          {"seq", &MultiheadAttention::seq, nullptr, "sequence length"}};
}

LAYERBENCH_TABLE(BatchNorm2d)
{
  return {{"c", &BatchNorm2d::features, nullptr, "channels"},
          {"h", &BatchNorm2d::h, nullptr, "input height"},
          {"w", &BatchNorm2d::w, nullptr, "input width"}};
}

LAYERBENCH_TABLE(LayerNorm)
{
  return {{"d", &LayerNorm::width, nullptr, "normalized width"}, {"seq", &LayerNorm::seq, nullptr, "positions per sample"}};
}

LAYERBENCH_TABLE(Embedding)
{
  return {{"vocab", &Embedding::vocabulary, nullptr, "rows of the table"},
          {"d", &Embedding::width, nullptr, "row width"},
          {"seq", &Embedding::seq, nullptr, "indices per sample"}};
}

template<typename P>
std::vector<Field<P>> pool_fields()
{
  return {{"c", &P::channels, nullptr, "channels"},
          {"h", &P::h, nullptr, "input height"},
          {"w", &P::w, nullptr, "input width"},
          {"k", &P::k, nullptr, "window and stride (K x K)"}};
}

LAYERBENCH_TABLE(MaxPool2d) { return pool_fields<MaxPool2d>(); }
LAYERBENCH_TABLE(AvgPool2d) { return pool_fields<AvgPool2d>(); }

LAYERBENCH_TABLE(Dropout)
{
  return {{"d", &Dropout::width, nullptr, "features per sample"}, {"p", nullptr, &Dropout::p, "probability of a zero, 0 <= p < 1", 0}};
}

LAYERBENCH_TABLE(RmsNorm)
{
  return {{"d", &RmsNorm::width, nullptr, "normalized width"}, {"seq", &RmsNorm::seq, nullptr, "positions per sample"}};
}

template<typename A>
std::vector<Field<A>> activation_fields()
{
  return {{"d", &A::width, nullptr, "features per position"}, {"seq", &A::seq, nullptr, "positions per sample"}};
}

LAYERBENCH_TABLE(Gelu) { return activation_fields<Gelu>(); }
LAYERBENCH_TABLE(Silu) { return activation_fields<Silu>(); }

template<typename A>
std::vector<Field<A>> sdpa_fields()
{
  return {{"heads", &A::heads, nullptr, "query heads"},
          {"kv_heads", &A::kv_heads, nullptr, "key and value heads (they divide heads)"},
          {"head_dim", &A::head_dim, nullptr, "width of a head"},
          {"seq", &A::seq, nullptr, "sequence length"}};
}

LAYERBENCH_TABLE(ScaledDotProductAttention) { return sdpa_fields<ScaledDotProductAttention>(); }
LAYERBENCH_TABLE(GroupedQueryAttention) { return sdpa_fields<GroupedQueryAttention>(); }

LAYERBENCH_TABLE(DepthwiseConv2d)
{
  return {{"c", &DepthwiseConv2d::channels, nullptr, "channels, one filter each"},
          {"k", &DepthwiseConv2d::k, nullptr, "kernel size (K x K)"},
          {"h", &DepthwiseConv2d::h, nullptr, "input height"},
          {"w", &DepthwiseConv2d::w, nullptr, "input width"}};
}

LAYERBENCH_TABLE(Conv3d)
{
  return {{"in", &Conv3d::c_in, nullptr, "input channels"},
          {"out", &Conv3d::c_out, nullptr, "output channels"},
          {"k", &Conv3d::k, nullptr, "kernel size (K x K x K)"},
          {"depth", &Conv3d::depth, nullptr, "input frames"},
          {"h", &Conv3d::h, nullptr, "input height"},
          {"w", &Conv3d::w, nullptr, "input width"},
          {"groups", &Conv3d::groups, nullptr, "groups (they divide in and out; in = out = groups is depthwise)"}};
}

LAYERBENCH_TABLE(SwiGlu)
{
  return {{"d", &SwiGlu::width, nullptr, "model width"},
          {"hidden", &SwiGlu::hidden, nullptr, "hidden width of the gated product"},
          {"seq", &SwiGlu::seq, nullptr, "positions per sample"}};
}

#undef LAYERBENCH_TABLE

// What makes a shape impossible to build beyond a value below its minimum: one sentence, or empty.
// A K x K window (a kernel, a pool's window) that does not fit an H x W input.
std::string window_problem(const char* what, int64_t k, int64_t h, int64_t w)
{
  return k > h || k > w ? std::string("its ") + what + " (k=" + std::to_string(k) + ") is larger than its input (h, w)" : "";
}

std::string problem(const Conv2d& s) { return window_problem("kernel", s.k, s.h, s.w); }
std::string problem(const Conv1d& s)
{
  return s.k > s.length ? "its kernel (k=" + std::to_string(s.k) + ") is longer than its input (len)" : "";
}
std::string problem(const Recurrent& s) { return s.directions > 2 ? "directions is 1 or 2" : ""; }
std::string problem(const Attention& s)
{
  return s.d % s.heads != 0 ? "heads (" + std::to_string(s.heads) + ") must divide d (" + std::to_string(s.d) + ")" : "";
}
std::string problem(const Pool& s) { return window_problem("window", s.k, s.h, s.w); }
std::string problem(const Dropout& s) { return s.p >= 1 ? "p must be below 1" : ""; }
std::string problem(const Sdpa& s)
{
  return s.kv_heads > s.heads || s.heads % s.kv_heads != 0
           ? "kv_heads (" + std::to_string(s.kv_heads) + ") must divide heads (" + std::to_string(s.heads) + ")"
           : "";
}
std::string problem(const DepthwiseConv2d& s) { return window_problem("kernel", s.k, s.h, s.w); }
std::string problem(const Conv3d& s)
{
  if (s.k > s.depth || s.k > s.h || s.k > s.w) {
    return "its kernel (k=" + std::to_string(s.k) + ") is larger than its input (depth, h, w)";
  }
  return s.c_in % s.groups != 0 || s.c_out % s.groups != 0
           ? "groups (" + std::to_string(s.groups) + ") must divide in (" + std::to_string(s.c_in) + ") and out ("
               + std::to_string(s.c_out) + ")"
           : "";
}
std::string problem(const RmsNorm&) { return ""; }
std::string problem(const Activation&) { return ""; }
std::string problem(const SwiGlu&) { return ""; }
std::string problem(const ConvTranspose2d&) { return ""; }
std::string problem(const Linear&) { return ""; }
std::string problem(const BatchNorm2d&) { return ""; }
std::string problem(const LayerNorm&) { return ""; }
std::string problem(const Embedding&) { return ""; }

// Parameters whose product passes this would overflow the formulas' 64-bit counts (each formula multiplies
// a subset of them by small constants); no shape that fits a device comes near it.
constexpr double k_largest_product = 0x1p58;

std::string number_text(double value, bool integer)
{
  if (integer) {
    return std::to_string(static_cast<int64_t>(value));
  }
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

// The type-erased view of one layer type's table, made from its catalog entry.
struct Handler
{
  std::string layer;
  std::vector<ParameterInfo> info;
  std::function<LayerSpec(const std::vector<NamedValue>&)> entry; // values complete, in table order, checked
  std::function<std::vector<NamedValue>(const LayerShape&)> values;
};

template<typename S>
Handler handler(const std::string& layer, const S& defaults)
{
  Handler out{layer, {}, {}, {}};
  for (const auto& field : fields<S>()) {
    out.info.push_back({field.name, field.integer ? double(defaults.*field.integer) : defaults.*field.real, field.integer != nullptr,
                        field.meaning, field.minimum});
  }
  out.entry = [layer, defaults](const std::vector<NamedValue>& values) {
    S shape = defaults;
    const auto table = fields<S>();
    double product = 1;
    for (size_t i = 0; i < table.size(); ++i) {
      if (table[i].integer) {
        shape.*table[i].integer = static_cast<int64_t>(values[i].value);
        product *= std::max(1.0, values[i].value);
      } else {
        shape.*table[i].real = values[i].value;
      }
    }
    if (product > k_largest_product) {
      throw UsageError(layer + ": the parameters' product (" + number_text(product, false)
                       + ") is too large for its formulas' 64-bit counts");
    }
    if (const auto why = problem(shape); !why.empty()) {
      throw UsageError(layer + " cannot be built: " + why);
    }
    return layer_entry(shape);
  };
  out.values = [](const LayerShape& shape) {
    std::vector<NamedValue> values;
    if (const auto* s = std::get_if<S>(&shape)) {
      for (const auto& field : fields<S>()) {
        values.push_back({field.name, field.integer ? double(s->*field.integer) : s->*field.real});
      }
    }
    return values;
  };
  return out;
}

const std::vector<Handler>& handlers()
{
  static const std::vector<Handler> all = [] {
    std::vector<Handler> out;
    std::vector<const LayerSpec*> layers;
    for (const auto* entries : {&catalog(), &todays_layers()}) {
      for (const auto& spec : *entries) {
        layers.push_back(&spec);
      }
    }
    for (const auto* layer : layers) {
      const auto& spec = *layer;
      std::visit(
        [&](const auto& s) {
          using S = std::decay_t<decltype(s)>;
          if constexpr (k_has_table<S>) {
            out.push_back(handler(spec.name, s));
          }
        },
        spec.shape);
    }
    return out;
  }();
  return all;
}

const Handler& handler_of(const std::string& layer)
{
  for (const auto& h : handlers()) {
    if (h.layer == layer) {
      return h;
    }
  }
  std::vector<std::string> names;
  for (const auto& h : handlers()) {
    names.push_back(h.layer);
  }
  std::string message = "'" + util::printable(layer) + "' is not a layer whose parameters can be given";
  if (const auto hint = util::closest(layer, names, 4)) {
    message += ", did you mean '" + *hint + "'?";
  }
  throw UsageError(message + " (see 'layerbench layers --parameters')");
}

std::string known_names(const Handler& h)
{
  std::string out;
  for (const auto& info : h.info) {
    out += (out.empty() ? "" : ", ") + info.name;
  }
  return out;
}

// The values in table order, the defaults where not given; throws for an unknown name or a bad value.
std::vector<NamedValue> complete(const Handler& h, const std::vector<NamedValue>& given)
{
  std::vector<NamedValue> values;
  for (const auto& info : h.info) {
    values.push_back({info.name, info.default_value});
  }
  std::set<std::string> seen;
  for (const auto& value : given) {
    auto it = std::find_if(values.begin(), values.end(), [&](const NamedValue& v) { return v.name == value.name; });
    if (it == values.end()) {
      throw UsageError(h.layer + " has no parameter '" + util::printable(value.name) + "' (it has " + known_names(h) + ")");
    }
    if (!seen.insert(value.name).second) {
      throw UsageError(h.layer + ": parameter '" + value.name + "' is given twice");
    }
    const auto& info = h.info[static_cast<size_t>(it - values.begin())];
    const double minimum = double(info.minimum);
    if (!std::isfinite(value.value) || value.value < minimum || (info.integer && value.value != std::floor(value.value))) {
      throw UsageError(h.layer + ": " + value.name + "=" + number_text(value.value, false) + " is not "
                       + (info.integer ? "a whole number of at least " + number_text(minimum, true) : "a number of at least 0")
                       + " (" + info.meaning + ")");
    }
    it->value = value.value;
  }
  return values;
}

// A cursor over --layers text or a name with parameters.
class Reader
{
public:
  Reader(const std::string& text, std::string what) : m_text(text), m_what(std::move(what)) {}

  bool done()
  {
    skip_spaces();
    return m_at >= m_text.size();
  }

  char peek()
  {
    skip_spaces();
    return m_at < m_text.size() ? m_text[m_at] : '\0';
  }

  bool take(char c)
  {
    if (peek() == c) {
      ++m_at;
      return true;
    }
    return false;
  }

  void expect(char c)
  {
    if (!take(c)) {
      fail(std::string("expected '") + c + "'");
    }
  }

  // A layer's name ("Linear", "ResNet50/3") or a parameter's: up to the next punctuation of the grammar.
  std::string word(const char* what)
  {
    skip_spaces();
    const size_t start = m_at;
    while (m_at < m_text.size() && std::string_view("(),@= ").find(m_text[m_at]) == std::string_view::npos) {
      ++m_at;
    }
    if (m_at == start) {
      fail(std::string("expected ") + what);
    }
    return m_text.substr(start, m_at - start);
  }

  double number()
  {
    skip_spaces();
    double value = 0;
    const char* first = m_text.data() + m_at;
    const char* last = m_text.data() + m_text.size();
    const auto result = std::from_chars(first, last, value);
    if (result.ec != std::errc() || result.ptr == first) {
      fail("expected a number");
    }
    m_at += static_cast<size_t>(result.ptr - first);
    return value;
  }

  // Whether a comma here is followed by a number (an axis's next value) rather than the next item.
  bool comma_then_number()
  {
    skip_spaces();
    if (m_at >= m_text.size() || m_text[m_at] != ',') {
      return false;
    }
    size_t next = m_at + 1;
    while (next < m_text.size() && m_text[next] == ' ') {
      ++next;
    }
    return next < m_text.size() && (std::isdigit(static_cast<unsigned char>(m_text[next])) || m_text[next] == '.');
  }

  [[noreturn]] void fail(const std::string& what) const
  {
    throw UsageError(m_what + ": " + what + " at character " + std::to_string(m_at + 1) + " of '" + util::printable(m_text)
                     + "' (write NAME, NAME(key=value,...) or NAME(...)@key=v1,v2; see 'layerbench layers --parameters')");
  }

private:
  void skip_spaces()
  {
    while (m_at < m_text.size() && m_text[m_at] == ' ') {
      ++m_at;
    }
  }

  const std::string& m_text;
  std::string m_what;
  size_t m_at = 0;
};

ShapeSweep read_item(Reader& reader)
{
  ShapeSweep item;
  item.layer = reader.word("a layer's name");
  if (reader.take('(')) {
    if (!reader.take(')')) {
      do {
        auto name = reader.word("a parameter's name");
        reader.expect('=');
        item.fixed.push_back({std::move(name), reader.number()});
      } while (reader.take(','));
      reader.expect(')');
    }
  }
  while (reader.take('@')) {
    auto name = reader.word("an axis's parameter");
    reader.expect('=');
    std::vector<double> values{reader.number()};
    while (reader.comma_then_number()) {
      reader.take(',');
      values.push_back(reader.number());
    }
    item.axes.push_back({std::move(name), std::move(values)});
  }
  return item;
}

bool is_shaped(const ShapeSweep& item) { return !item.fixed.empty() || !item.axes.empty(); }

} // namespace

std::vector<ParameterInfo> parameters_of(const std::string& layer) { return handler_of(layer).info; }

std::optional<dataset::LayerParameters> parameters_record(const shapes::LayerShape& shape)
{
  for (const auto& h : handlers()) {
    if (auto values = h.values(shape); !values.empty()) {
      // By name, as a JSON object reads back (nlohmann::json keeps its keys sorted): a run's layers and a
      // checkpoint's must compare equal on resume.
      dataset::LayerParameters record{h.layer, {}};
      for (auto& value : values) {
        record.values.emplace_back(std::move(value.name), value.value);
      }
      std::sort(record.values.begin(), record.values.end());
      return record;
    }
  }
  return std::nullopt;
}

std::string shaped_name(const std::string& layer, const std::vector<NamedValue>& given)
{
  const auto& h = handler_of(layer);
  const auto values = complete(h, given);
  h.entry(values); // refuses a shape that cannot be built
  std::string inside;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].value != h.info[i].default_value) {
      inside += (inside.empty() ? "" : ",") + values[i].name + "=" + number_text(values[i].value, h.info[i].integer);
    }
  }
  return inside.empty() ? layer : layer + "(" + inside + ")";
}

std::optional<LayerSpec> shaped_entry(const std::string& name)
{
  if (name.find('(') == std::string::npos) {
    return std::nullopt;
  }
  Reader reader(name, "layer '" + name + "'");
  const auto item = read_item(reader);
  if (!item.axes.empty()) {
    reader.fail("a name has no axes ('@' makes a list; give it to run --layers)");
  }
  if (!reader.done()) {
    reader.fail("unexpected text");
  }
  const auto& h = handler_of(item.layer);
  const auto values = complete(h, item.fixed);
  auto spec = h.entry(values);
  spec.name = shaped_name(item.layer, item.fixed);
  // A remark that sets this layer against another is about the reference's configurations.
  spec.note.compare_to.clear();
  return spec;
}

std::vector<std::string> expand(const ShapeSweep& sweep)
{
  std::vector<std::vector<NamedValue>> combinations{sweep.fixed};
  for (const auto& [name, values] : sweep.axes) {
    std::vector<std::vector<NamedValue>> next;
    for (const auto& base : combinations) {
      for (const double value : values) {
        auto one = base;
        one.push_back({name, value});
        next.push_back(std::move(one));
      }
    }
    combinations = std::move(next);
  }
  std::vector<std::string> names;
  for (const auto& values : combinations) {
    names.push_back(shaped_name(sweep.layer, values));
  }
  return names;
}

std::vector<std::string> expand_layer_list(const std::string& text, const std::string& option)
{
  Reader reader(text, option);
  std::vector<std::string> names;
  std::set<std::string> seen;
  if (reader.done()) {
    throw UsageError(option + ": the list is empty; give one item or more, comma-separated");
  }
  do {
    if (reader.done() || reader.peek() == ',') {
      throw UsageError(option + ": '" + util::printable(text) + "' has an empty item (two commas, or one at an end)");
    }
    const auto item = read_item(reader);
    std::vector<std::string> expanded;
    try {
      expanded = is_shaped(item) ? expand(item) : std::vector<std::string>{find_layer(item.layer).name};
    } catch (const UsageError& error) {
      throw UsageError(option + ": " + error.what());
    }
    for (auto& name : expanded) {
      if (!seen.insert(name).second) {
        throw UsageError(option + ": '" + name + "' is given twice");
      }
      names.push_back(std::move(name));
    }
  } while (reader.take(','));
  if (!reader.done()) {
    reader.fail("unexpected text");
  }
  return names;
}

} // namespace layerbench::bench
