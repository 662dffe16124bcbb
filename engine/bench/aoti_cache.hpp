// SPDX-License-Identifier: MIT
#pragma once

// The AOTInductor packages of compiled=aot_inductor cells (docs/settings.md): one per layer, device
// type, torch version and exporter script, kept in a cache folder and made on demand by the Python
// exporter (bench/gpu/aoti_export.py). Knows nothing of torch, so it is tested with a fake exporter.

#include "util/expected.hpp"

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::bench {

// What a package depends on. A changed exporter script, or a changed file it imports (the layer
// definitions), is a new key, so it re-exports.
struct AotiKey
{
  std::string layer;         // "LayerNorm"
  std::string device;        // "cpu", "cuda"
  std::string torch_version; // LibTorch's, which loads the package
  std::string exporter_hash; // sha256 of the exporter script and of the files it imports
};

// "LayerNorm-cpu-torch2.11.0-3f2a9c1e0b7d.pt2": the file name of the key's package.
std::string package_name(const AotiKey& key);

// The program that makes a package: `python script --layer L --device D --torch-version V --out P.pt2`.
// It exits 0 with P written, or non-zero with its reason on the last line of its output.
struct AotiExporter
{
  std::string python;
  std::filesystem::path script;
  std::vector<std::filesystem::path> imports; // what the script imports that shapes a package
};

// $LAYERBENCH_PYTHON, else the interpreter of the venv the build was configured with, else python3;
// the script of the source tree this binary was built from, and the layer definitions it imports.
AotiExporter default_exporter();

// $LAYERBENCH_AOTI_CACHE, else ~/.cache/layerbench/aoti.
std::filesystem::path default_aoti_cache();

enum class PackageSource { built, cached };

// Why the file is not a whole AOTInductor package (a zip archive: a local file header first, the end of
// its central directory within its last 64 KiB), or nothing when it is one. Never opens what is not a
// regular file.
std::optional<std::string> package_defect(const std::filesystem::path& package);

// A package's compile time as its .seconds file holds it: a finite number of seconds, 0 or more.
util::Expected<double> parse_compile_seconds(const std::string& text);

struct AotiPackage
{
  std::filesystem::path path;
  double compile_seconds = 0; // export and compile, as paid when the package was built
  PackageSource source = PackageSource::built;
};

class AotiCache
{
public:
  AotiCache(std::filesystem::path folder, AotiExporter exporter);

  // Empty when the exporter script cannot be read (then every get() fails with that reason).
  const std::string& exporter_hash() const { return m_exporter_hash; }
  AotiKey key(const std::string& layer, const std::string& device, const std::string& torch_version) const;
  std::filesystem::path path(const AotiKey& key) const;
  bool contains(const AotiKey& key) const;

  // The key's package, exported first where the cache has none. A process that finds another making
  // the same package waits for it (a lock per package) and then uses it. The package appears by a
  // rename only once complete, so an exporter that dies leaves nothing behind. What the cache holds is
  // checked before it is used: a package that is not a whole zip archive (or not a regular file: a
  // FIFO would hang its reader), or whose compile time is not a finite number of seconds, is exported
  // again. `interrupted` (Ctrl-C, SIGTERM) ends a running export: its process group gets SIGTERM, and
  // SIGKILL 5 s later. The error is the reason a cell is skipped.
  util::Expected<AotiPackage> get(const AotiKey& key, const std::atomic<bool>& interrupted) const;
  util::Expected<AotiPackage> get(const AotiKey& key) const;

private:
  util::Expected<AotiPackage> build(const AotiKey& key, const std::atomic<bool>& interrupted) const;

  std::filesystem::path m_folder;
  AotiExporter m_exporter;
  std::string m_exporter_hash;
  std::string m_script_error;
};

} // namespace layerbench::bench
