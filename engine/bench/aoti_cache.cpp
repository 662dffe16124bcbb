// SPDX-License-Identifier: MIT
#include "bench/aoti_cache.hpp"

#include "util/build_info.hpp"
#include "util/file.hpp"
#include "util/sha256.hpp"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace layerbench::bench {

namespace {

std::string environment_or(const char* name, const std::string& fallback)
{
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : fallback;
}

// The exporter's reason: the last non-blank line it printed, shortened to fit a skip reason.
std::string last_line(const std::string& text)
{
  std::istringstream lines(text);
  std::string line;
  std::string last;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) {
      last = line;
    }
  }
  constexpr size_t k_longest = 300;
  return last.size() > k_longest ? last.substr(0, k_longest) + "..." : last;
}

struct ExitStatus
{
  int code = 0;
  std::string spawn_error; // the program could not be started
};

// Runs `argv` with stdout and stderr into `log`, and waits for it.
ExitStatus run_logged(const std::vector<std::string>& argv, const std::filesystem::path& log)
{
  std::vector<char*> args;
  for (const auto& arg : argv) {
    args.push_back(const_cast<char*>(arg.c_str()));
  }
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    return {-1, std::strerror(spawned)};
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    return {WEXITSTATUS(status), {}};
  }
  return {128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0), {}};
}

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
  const std::string built_with = build_info::k_python;
  return {environment_or("LAYERBENCH_PYTHON", built_with.empty() ? "python3" : built_with),
          std::filesystem::path(build_info::k_source_dir) / "bench" / "gpu" / "aoti_export.py"};
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
  const auto script = util::read_file(m_exporter.script);
  if (!script) {
    m_script_error = "AOTInductor exporter " + m_exporter.script.string() + ": " + script.error();
    return;
  }
  m_exporter_hash = util::sha256_hex(*script);
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
  return !m_exporter_hash.empty() && std::filesystem::exists(path(key));
}

util::Expected<AotiPackage> AotiCache::get(const AotiKey& key) const
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
  if (std::filesystem::exists(package)) {
    const auto seconds = util::read_file(beside(package, ".seconds"));
    return AotiPackage{package, seconds ? std::atof(seconds->c_str()) : 0.0, PackageSource::cached};
  }
  return build(key);
}

util::Expected<AotiPackage> AotiCache::build(const AotiKey& key) const
{
  using Result = util::Expected<AotiPackage>;
  const auto package = path(key);
  // The exporter insists on a .pt2 name; the rename below is what makes the package visible.
  const auto partial = m_folder / (package.stem().string() + ".partial-" + std::to_string(::getpid()) + ".pt2");
  const auto log = beside(package, ".log");
  const auto start = std::chrono::steady_clock::now();
  const auto status = run_logged({m_exporter.python, m_exporter.script.string(), "--layer", key.layer, "--device",
                                  key.device, "--torch-version", key.torch_version, "--out", partial.string()},
                                 log);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::error_code ignored;
  if (!status.spawn_error.empty()) {
    std::filesystem::remove(partial, ignored);
    return Result::failure("cannot start python " + m_exporter.python + ": " + status.spawn_error
                           + " (set LAYERBENCH_PYTHON to the venv's python)");
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
