// SPDX-License-Identifier: MIT
#include "bench/cpu_identity.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

namespace layerbench::bench {

namespace {

std::string trimmed(const std::string& text)
{
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) {
    return {};
  }
  return text.substr(first, text.find_last_not_of(" \t") + 1 - first);
}

// "25" or Arm's "0xd0c"; nullopt for anything else.
std::optional<int> number(const std::map<std::string, std::string>& fields, const std::string& key)
{
  const auto found = fields.find(key);
  if (found == fields.end() || found->second.empty()) {
    return std::nullopt;
  }
  try {
    size_t used = 0;
    const auto value = std::stoi(found->second, &used, 0);
    return used == found->second.size() && value >= 0 ? std::optional<int>(value) : std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

} // namespace

std::optional<dataset::CpuIdentity> parse_cpu_identity(std::istream& cpuinfo)
{
  std::map<std::string, std::string> fields;
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (trimmed(line).empty()) {
      if (fields.count("processor") != 0) {
        break; // the first processor's block ends here; the others repeat it
      }
      continue;
    }
    const auto colon = line.find(':');
    if (colon != std::string::npos) {
      fields.emplace(trimmed(line.substr(0, colon)), trimmed(line.substr(colon + 1)));
    }
  }
  const bool x86 = fields.count("vendor_id") != 0;
  if (!x86 && fields.count("CPU implementer") == 0) {
    return std::nullopt;
  }
  dataset::CpuIdentity cpu;
  cpu.vendor = x86 ? fields["vendor_id"] : fields["CPU implementer"];
  cpu.family = x86 ? number(fields, "cpu family") : std::nullopt;
  cpu.model = number(fields, x86 ? "model" : "CPU part");
  cpu.stepping = number(fields, x86 ? "stepping" : "CPU revision");
  std::istringstream flags(x86 ? fields["flags"] : fields["Features"]);
  std::vector<std::string> present{std::istream_iterator<std::string>(flags), std::istream_iterator<std::string>()};
  for (const char* flag : k_isa_flags) {
    if (std::find(present.begin(), present.end(), flag) != present.end()) {
      cpu.isa.emplace_back(flag);
    }
  }
  return cpu;
}

std::optional<dataset::CpuIdentity> read_cpu_identity(const std::filesystem::path& cpuinfo)
{
  std::ifstream file(cpuinfo);
  if (!file) {
    return std::nullopt;
  }
  return parse_cpu_identity(file);
}

} // namespace layerbench::bench
