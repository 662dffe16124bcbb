// SPDX-License-Identifier: MIT
#pragma once

// kainjow::mustache renders a missing variable or partial as empty text. The site must never publish a
// page with a silent hole, so every template is parsed here first (with file and line for each tag)
// and checked against the view model it is about to be rendered with.

#include <kainjow/mustache.hpp>

#include <functional>
#include <string>
#include <vector>

namespace layerbench::site {

using Data = kainjow::mustache::data;

enum class TagType { variable, unescaped_variable, section, inverted_section, partial };

struct TagNode
{
  TagType type = TagType::variable;
  std::string name;
  int line = 0;
  std::vector<TagNode> children; // sections only
};

// The tags of a template as a tree. Throws Error "origin:line: ..." on an unclosed or mismatched
// section, an unterminated tag or a delimiter change (not supported: it would hide tags from the check).
std::vector<TagNode> parse_tags(const std::string& text, const std::string& origin);

// Finds a partial's tags and origin by name; returns nullptr when there is no such partial.
struct PartialSource
{
  std::string origin;
  std::vector<TagNode> tags;
};
using PartialLookup = std::function<const PartialSource*(const std::string& name)>;

// Walks the tags as rendering would: each variable and section name must resolve in the view model,
// a variable must be text, each partial must exist. Throws Error "origin:line: unknown variable 'x'".
void check_tags(const std::vector<TagNode>& tags,
                const std::string& origin,
                const Data& view,
                const PartialLookup& partials);

} // namespace layerbench::site
