// SPDX-License-Identifier: MIT
#include "dataset/citation_check.hpp"

#include "util/text.hpp"

#include <cstdlib>

namespace layerbench::dataset {

namespace {

// The number written at text[at, at + digits), every character a digit (checked by the caller).
int number_at(const std::string& text, size_t at, size_t digits)
{
  return std::atoi(text.substr(at, digits).c_str());
}

bool is_leap_year(int year)
{
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int days_in_month(int year, int month)
{
  static const int k_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap_year(year) ? 29 : k_days[month - 1];
}

// Unicode's noncharacters: permanently reserved for a program's internal use, never interchanged
// (YAML 1.2, which CFF is written in, does not allow U+FFFE and U+FFFF in a document).
bool is_noncharacter(char32_t value)
{
  return (value >= 0xFDD0 && value <= 0xFDEF) || (value & 0xFFFE) == 0xFFFE;
}

bool is_space(char32_t value)
{
  return value == ' ' || value == 0xA0 || value == 0x1680 || (value >= 0x2000 && value <= 0x200A) || value == 0x2028
         || value == 0x2029 || value == 0x202F || value == 0x205F || value == 0x3000;
}

void check_text(const std::string& pointer, const std::string& text, std::vector<Problem>& problems)
{
  const auto problem = citation_text_problem(text);
  if (!problem.empty()) {
    problems.push_back({pointer, problem});
  }
}

} // namespace

bool valid_utc_time(const std::string& text)
{
  static const std::string shape = "dddd-dd-ddTdd:dd:ddZ";
  if (text.size() != shape.size()) {
    return false;
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (shape[i] == 'd' ? !digit : text[i] != shape[i]) {
      return false;
    }
  }
  const int year = number_at(text, 0, 4);
  const int month = number_at(text, 5, 2);
  const int day = number_at(text, 8, 2);
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month)) {
    return false;
  }
  return number_at(text, 11, 2) <= 23 && number_at(text, 14, 2) <= 59 && number_at(text, 17, 2) <= 59;
}

std::string citation_text_problem(const std::string& text)
{
  bool blank = true;
  size_t index = 0; // characters before this one, for the message
  for (size_t at = 0; at < text.size(); ++index) {
    const auto character = util::code_point_at(text, at);
    if (!character) {
      return "not valid UTF-8 at byte " + std::to_string(at);
    }
    const auto where = " at character " + std::to_string(index);
    if (util::is_control(character->value)) {
      return "the control character " + util::code_point_name(character->value) + where
             + "; a citation holds printable text only";
    }
    if (is_noncharacter(character->value)) {
      return "the noncharacter " + util::code_point_name(character->value) + where
             + "; a citation holds printable text only";
    }
    blank = blank && is_space(character->value);
    at += character->length;
  }
  return blank && !text.empty() ? "only white space; give the text" : "";
}

std::vector<Problem> check_citation(const Dataset& dataset)
{
  std::vector<Problem> problems;
  if (!valid_utc_time(dataset.created)) {
    problems.push_back({"/created", "\"" + dataset.created + "\" is not a UTC time like 2026-11-22T04:05:07Z"});
  }
  check_text("/title", dataset.title, problems);
  for (size_t i = 0; i < dataset.creators.size(); ++i) {
    const auto pointer = "/creators/" + std::to_string(i);
    check_text(pointer + "/name", dataset.creators[i].name, problems);
    check_text(pointer + "/affiliation", dataset.creators[i].affiliation, problems);
  }
  if (const auto& source = dataset.provenance.source) {
    check_text("/provenance/source/title", source->title, problems);
    check_text("/provenance/source/date", source->date, problems);
    check_text("/provenance/source/license", source->license, problems);
  }
  return problems;
}

} // namespace layerbench::dataset
