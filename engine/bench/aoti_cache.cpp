// SPDX-License-Identifier: MIT
#include "bench/aoti_cache.hpp"

#include "util/build_info.hpp"
#include "util/file.hpp"
#include "util/sha256.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
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
  bool interrupted = false; // stopped because the run was interrupted
};

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

// Runs `argv` with stdout and stderr into `log`, in a process group of its own, and waits for it. Once
// `interrupted` is set the group gets SIGTERM, and SIGKILL k_export_grace later: the exporter and the
// compilers it started never outlive the run that asked for them.
constexpr std::chrono::seconds k_export_grace{5};

ExitStatus run_logged(const std::vector<std::string>& argv, const std::filesystem::path& log,
                      const std::atomic<bool>& interrupted)
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
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    return {-1, std::strerror(spawned), false};
  }
  int status = 0;
  std::optional<std::chrono::steady_clock::time_point> terminated;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) {
      break;
    }
    if (interrupted.load() && !terminated) {
      ::kill(-pid, SIGTERM);
      terminated = std::chrono::steady_clock::now();
    }
    if (terminated && std::chrono::steady_clock::now() - *terminated > k_export_grace) {
      ::kill(-pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const bool stopped = terminated.has_value();
  if (WIFEXITED(status)) {
    return {WEXITSTATUS(status), {}, stopped};
  }
  return {128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0), {}, stopped};
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
  const auto scripts = std::filesystem::path(build_info::k_source_dir) / "bench" / "gpu";
  return {environment_or("LAYERBENCH_PYTHON", built_with.empty() ? "python3" : built_with),
          scripts / "aoti_export.py",
          {scripts / "layers.py"}};
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
