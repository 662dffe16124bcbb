// SPDX-License-Identifier: MIT
#include "site/template_check.hpp"

#include "util/error.hpp"

#include <algorithm>

namespace layerbench::site {

namespace {

std::string trim(const std::string& text)
{
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) {
    return "";
  }
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

std::string at(const std::string& origin, int line)
{
  return origin + ":" + std::to_string(line) + ": ";
}

// A section's parent is always the section opened just before it, or the root.
struct OpenSection
{
  TagNode node;
};

class TagParser
{
public:
  TagParser(const std::string& text, const std::string& origin) : m_text(text), m_origin(origin) {}

  std::vector<TagNode> parse()
  {
    std::vector<TagNode> root;
    std::vector<OpenSection> open;
    size_t position = 0;
    while ((position = m_text.find("{{", position)) != std::string::npos) {
      const int line = line_of(position);
      const bool triple = m_text.compare(position, 3, "{{{") == 0;
      const std::string closing = triple ? "}}}" : "}}";
      const size_t start = position + (triple ? 3 : 2);
      const size_t end = m_text.find(closing, start);
      if (end == std::string::npos) {
        throw Error(at(m_origin, line) + "unterminated tag (no '" + closing + "')");
      }
      position = end + closing.size();
      const std::string content = trim(m_text.substr(start, end - start));
      auto& siblings = open.empty() ? root : open.back().node.children;
      if (triple) {
        siblings.push_back(leaf(TagType::unescaped_variable, content, line));
        continue;
      }
      handle(content, line, siblings, open, root);
    }
    if (!open.empty()) {
      const auto& section = open.back().node;
      throw Error(at(m_origin, section.line) + "unclosed section '" + section.name + "'");
    }
    return root;
  }

private:
  void handle(const std::string& content, int line, std::vector<TagNode>& siblings, std::vector<OpenSection>& open,
              std::vector<TagNode>& root)
  {
    const char sigil = content.empty() ? '\0' : content[0];
    const std::string name = trim(content.empty() ? content : content.substr(1));
    switch (sigil) {
      case '!':
        return;
      case '=':
        throw Error(at(m_origin, line) + "delimiter changes are not supported");
      case '&':
        siblings.push_back(leaf(TagType::unescaped_variable, name, line));
        return;
      case '>':
        siblings.push_back(leaf(TagType::partial, name, line));
        return;
      case '#':
      case '^':
        open.push_back({leaf(sigil == '#' ? TagType::section : TagType::inverted_section, name, line)});
        return;
      case '/':
        close(name, line, open, root);
        return;
      default:
        siblings.push_back(leaf(TagType::variable, content, line));
    }
  }

  void close(const std::string& name, int line, std::vector<OpenSection>& open, std::vector<TagNode>& root)
  {
    if (open.empty()) {
      throw Error(at(m_origin, line) + "closing tag '" + name + "' without an open section");
    }
    if (open.back().node.name != name) {
      throw Error(at(m_origin, line) + "closing tag '" + name + "' does not match section '" + open.back().node.name
                  + "' opened at line " + std::to_string(open.back().node.line));
    }
    TagNode section = std::move(open.back().node);
    open.pop_back();
    (open.empty() ? root : open.back().node.children).push_back(std::move(section));
  }

  TagNode leaf(TagType type, const std::string& name, int line) const
  {
    if (name.empty()) {
      throw Error(at(m_origin, line) + "empty tag");
    }
    TagNode node;
    node.type = type;
    node.name = name;
    node.line = line;
    return node;
  }

  int line_of(size_t position)
  {
    // Tags come in order, so count newlines incrementally.
    m_line += static_cast<int>(std::count(m_text.begin() + m_counted, m_text.begin() + position, '\n'));
    m_counted = position;
    return m_line;
  }

  const std::string& m_text;
  const std::string& m_origin;
  int m_line = 1;
  size_t m_counted = 0;
};

using Stack = std::vector<const Data*>; // innermost last

const Data* lookup(const Data& data, const std::string& name)
{
  if (!data.is_object()) {
    return nullptr;
  }
  return data.get(name);
}

const Data* resolve(const Stack& stack, const std::string& name)
{
  if (name == ".") {
    return stack.back();
  }
  const auto dot = name.find('.');
  const std::string head = name.substr(0, dot);
  for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
    const Data* found = lookup(**it, head);
    if (!found) {
      continue;
    }
    size_t start = dot;
    while (found && start != std::string::npos) {
      const auto next = name.find('.', start + 1);
      found = lookup(*found, name.substr(start + 1, next == std::string::npos ? std::string::npos : next - start - 1));
      start = next;
    }
    return found;
  }
  return nullptr;
}

constexpr int k_max_partial_depth = 16;

class Checker
{
public:
  explicit Checker(const PartialLookup& partials) : m_partials(partials) {}

  void check(const std::vector<TagNode>& tags, const std::string& origin, Stack& stack, int depth)
  {
    for (const auto& tag : tags) {
      check_tag(tag, origin, stack, depth);
    }
  }

private:
  void check_tag(const TagNode& tag, const std::string& origin, Stack& stack, int depth)
  {
    if (tag.type == TagType::partial) {
      check_partial(tag, origin, stack, depth);
      return;
    }
    const Data* value = resolve(stack, tag.name);
    if (!value) {
      throw Error(at(origin, tag.line) + "unknown variable '" + tag.name + "'");
    }
    switch (tag.type) {
      case TagType::variable:
      case TagType::unescaped_variable:
        if (!value->is_string()) {
          throw Error(at(origin, tag.line) + "'" + tag.name + "' is a section, not text");
        }
        return;
      case TagType::inverted_section:
        if (value->is_false() || value->is_empty_list()) {
          check(tag.children, origin, stack, depth);
        }
        return;
      default:
        check_section(tag, *value, origin, stack, depth);
    }
  }

  void check_section(const TagNode& tag, const Data& value, const std::string& origin, Stack& stack, int depth)
  {
    if (value.is_false()) {
      return;
    }
    if (value.is_list()) {
      for (const auto& item : value.list_value()) {
        stack.push_back(&item);
        check(tag.children, origin, stack, depth);
        stack.pop_back();
      }
      return;
    }
    stack.push_back(&value);
    check(tag.children, origin, stack, depth);
    stack.pop_back();
  }

  void check_partial(const TagNode& tag, const std::string& origin, Stack& stack, int depth)
  {
    const PartialSource* partial = m_partials(tag.name);
    if (!partial) {
      throw Error(at(origin, tag.line) + "missing partial '" + tag.name + "'");
    }
    if (depth >= k_max_partial_depth) {
      throw Error(at(origin, tag.line) + "partial '" + tag.name + "' includes itself (nested deeper than "
                  + std::to_string(k_max_partial_depth) + ")");
    }
    check(partial->tags, partial->origin, stack, depth + 1);
  }

  const PartialLookup& m_partials;
};

} // namespace

std::vector<TagNode> parse_tags(const std::string& text, const std::string& origin)
{
  return TagParser(text, origin).parse();
}

void check_tags(const std::vector<TagNode>& tags, const std::string& origin, const Data& view, const PartialLookup& partials)
{
  Stack stack{&view};
  Checker(partials).check(tags, origin, stack, 0);
}

} // namespace layerbench::site
