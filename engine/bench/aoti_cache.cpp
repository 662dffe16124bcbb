// SPDX-License-Identifier: MIT
#include "bench/aoti_cache.hpp"

#include "bench/child_process.hpp"

#include "util/build_info.hpp"
#include "util/file.hpp"
#include "util/sha256.hpp"

#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace layerbench::bench {

namespace {

// The exporter's script and the files it imports, in order, each with its name: one hash.
util::Expected<std::string> hash_exporter(const AotiExporter& exporter)
{
  std::string all;
  std::vector<std::filesystem::path> files{exporter.script};
  files.insert(files.end(), exporter.imports.begin(), exporter.imports.end());
  for (const auto& file : files) {
    const auto text = util::read_file(file);
    if (!text) {
      return util::Expected<std::string>::failure("AOTInductor exporter " + file.string() + ": " + text.error());
    }
    all += file.filename().string() + "\n" + std::to_string(text->size()) + "\n" + *text;
  }
  return util::sha256_hex(all);
}

const std::atomic<bool> k_never_interrupted{false};

std::filesystem::path beside(const std::filesystem::path& package, const std::string& suffix)
{
  return package.string() + suffix;
}

} // namespace

std::string package_name(const AotiKey& key)
{
  return key.layer + "-" + key.device + "-torch" + key.torch_version + "-" + key.exporter_hash.substr(0, 12) + ".pt2";
}

AotiExporter default_exporter()
{
  const auto bench = std::filesystem::path(build_info::k_source_dir) / "bench";
  return {helper_python(),
          bench / "gpu" / "aoti_export.py",
          {bench / "gpu" / "layers.py", bench / "models" / "py_models.py"}};
}

std::optional<std::string> package_defect(const std::filesystem::path& package)
{
  std::error_code error;
  const auto status = std::filesystem::status(package, error);
  if (error || !std::filesystem::is_regular_file(status)) {
    return "is not a regular file";
  }
  const auto size = std::filesystem::file_size(package, error);
  constexpr uintmax_t k_tail = 65536 + 22; // the longest zip comment and the end record itself
  if (error || size < 22) {
    return "is too short to be a zip archive";
  }
  std::ifstream in(package, std::ios::binary);
  std::string head(4, '\0');
  in.read(head.data(), 4);
  if (!in) {
    return "cannot be read";
  }
  if (head != std::string("PK\x03\x04", 4)) {
    return "does not start as a zip archive does";
  }
  const auto from = size > k_tail ? size - k_tail : 0;
  in.seekg(static_cast<std::streamoff>(from));
  std::string tail(static_cast<size_t>(size - from), '\0');
  in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
  if (!in || tail.rfind("PK\x05\x06") == std::string::npos) {
    return "has no end of its zip directory (cut short?)";
  }
  return std::nullopt;
}

util::Expected<double> parse_compile_seconds(const std::string& text)
{
  using Result = util::Expected<double>;
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double seconds = std::strtod(begin, &end);
  while (end && (*end == ' ' || *end == '\n' || *end == '\t' || *end == '\r')) {
    ++end;
  }
  if (end == begin || *end != '\0' || errno == ERANGE || !std::isfinite(seconds) || seconds < 0) {
    return Result::failure("'" + text.substr(0, 40) + "' is not a compile time (a finite number of seconds, 0 or more)");
  }
  return seconds;
}

std::filesystem::path default_aoti_cache()
{
  const auto folder = environment_or("LAYERBENCH_AOTI_CACHE", "");
  if (!folder.empty()) {
    return folder;
  }
  return std::filesystem::path(environment_or("HOME", ".")) / ".cache" / "layerbench" / "aoti";
}

AotiCache::AotiCache(std::filesystem::path folder, AotiExporter exporter)
  : m_folder(std::move(folder)), m_exporter(std::move(exporter))
{
  const auto hash = hash_exporter(m_exporter);
  if (!hash) {
    m_script_error = hash.error();
    return;
  }
  m_exporter_hash = *hash;
}

AotiKey AotiCache::key(const std::string& layer, const std::string& device, const std::string& torch_version) const
{
  return {layer, device, torch_version, m_exporter_hash};
}

std::filesystem::path AotiCache::path(const AotiKey& key) const
{
  return m_folder / package_name(key);
}

bool AotiCache::contains(const AotiKey& key) const
{
  return !m_exporter_hash.empty() && !package_defect(path(key));
}

util::Expected<AotiPackage> AotiCache::get(const AotiKey& key) const
{
  return get(key, k_never_interrupted);
}

util::Expected<AotiPackage> AotiCache::get(const AotiKey& key, const std::atomic<bool>& interrupted) const
{
  using Result = util::Expected<AotiPackage>;
  if (m_exporter_hash.empty()) {
    return Result::failure(m_script_error);
  }
  std::error_code error;
  std::filesystem::create_directories(m_folder, error);
  if (error) {
    return Result::failure("AOTInductor cache " + m_folder.string() + ": " + error.message());
  }
  const auto package = path(key);
  const auto lock = util::FileLock::acquire(beside(package, ".lock"));
  if (!lock) {
    return Result::failure("AOTInductor cache lock " + beside(package, ".lock").string() + ": " + lock.error());
  }
  std::error_code error_code;
  if (std::filesystem::exists(std::filesystem::symlink_status(package, error_code))) {
    const auto defect = package_defect(package);
    const auto text = defect ? util::Expected<std::string>::failure("") : util::read_file(beside(package, ".seconds"));
    const auto seconds = text ? parse_compile_seconds(*text) : util::Expected<double>::failure(text.error());
    if (!defect && seconds) {
      return AotiPackage{package, *seconds, PackageSource::cached};
    }
    // A cache that lies is worse than none: what it cannot vouch for is made again.
    std::cerr << "layerbench: AOTInductor cache: " << package.string() << " "
              << (defect ? *defect : "has no valid compile time (" + beside(package, ".seconds").string() + ": "
                                         + seconds.error() + ")")
              << "; exporting it again\n";
    std::filesystem::remove(package, error_code);
    std::filesystem::remove(beside(package, ".seconds"), error_code);
  }
  return build(key, interrupted);
}

util::Expected<AotiPackage> AotiCache::build(const AotiKey& key, const std::atomic<bool>& interrupted) const
{
  using Result = util::Expected<AotiPackage>;
  const auto package = path(key);
  // The exporter insists on a .pt2 name; the rename below is what makes the package visible.
  const auto partial = m_folder / (package.stem().string() + ".partial-" + std::to_string(::getpid()) + ".pt2");
  const auto log = beside(package, ".log");
  const auto start = std::chrono::steady_clock::now();
  const auto status = run_logged({m_exporter.python, m_exporter.script.string(), "--layer", key.layer, "--device",
                                  key.device, "--torch-version", key.torch_version, "--out", partial.string()},
                                 log, interrupted);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::error_code ignored;
  if (!status.spawn_error.empty()) {
    std::filesystem::remove(partial, ignored);
    return Result::failure("cannot start python " + m_exporter.python + ": " + status.spawn_error
                           + " (set LAYERBENCH_PYTHON to the venv's python)");
  }
  if (status.interrupted) {
    std::filesystem::remove(partial, ignored);
    return Result::failure("AOTInductor export of " + key.layer + " interrupted (log: " + log.string() + ")");
  }
  if (status.code != 0 || !std::filesystem::exists(partial)) {
    std::filesystem::remove(partial, ignored);
    const auto output = util::read_file(log);
    const auto reason = output ? last_line(*output) : std::string();
    return Result::failure("AOTInductor export of " + key.layer + " failed (exit " + std::to_string(status.code)
                           + "): " + (reason.empty() ? "no output" : reason) + " (log: " + log.string() + ")");
  }
  const auto written = util::write_file_atomic(beside(package, ".seconds"), std::to_string(seconds), util::Overwrite::yes);
  if (!written) {
    std::filesystem::remove(partial, ignored);
    return Result::failure("AOTInductor cache " + beside(package, ".seconds").string() + ": " + written.error());
  }
  std::error_code error;
  std::filesystem::rename(partial, package, error);
  if (error) {
    std::filesystem::remove(partial, ignored);
    return Result::failure("AOTInductor cache " + package.string() + ": " + error.message());
  }
  return AotiPackage{package, seconds, PackageSource::built};
}

} // namespace layerbench::bench
