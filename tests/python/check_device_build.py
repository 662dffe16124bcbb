#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Proves that a build made by scripts/device-build.sh took its dependencies from the private prefix of
unpacked .deb files, not from the system's -dev packages, so that it also builds on the GPU machine that
has none of them:
  - CMake found every package (its config, include folder, pkg-config program) inside the prefix;
  - the include flags in compile_commands.json point into the prefix;
  - every header of a carried package that the compiler actually read (the .o.d dependency files)
    lies inside the prefix;
  - where the binary was linked, the loader finds the carried libraries in the prefix without help
    from LD_LIBRARY_PATH.

  check_device_build.py BUILD_DIR
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

# Cache entries that must name a path inside the prefix.
CACHE_ENTRIES = ("Boost_DIR", "boost_program_options_DIR", "nlohmann_json_DIR", "doctest_DIR",
                 "MUSTACHE_INCLUDE_DIR", "PKG_CONFIG_EXECUTABLE", "HTTPLIB_INCLUDE_DIRS", "MD4C_INCLUDE_DIRS")
# Headers of the carried packages, as they appear in dependency files.
CARRIED_HEADER = re.compile(r"/(nlohmann/|boost/|doctest/|httplib\.h|kainjow/|md4c(-html)?\.h|openssl/|zlib\.h|brotli/)")


def read_cache(build: Path) -> dict:
    entries = {}
    for line in (build / "CMakeCache.txt").read_text().splitlines():
        match = re.match(r"^([A-Za-z_0-9]+):[A-Z]+=(.*)$", line)
        if match:
            entries[match.group(1)] = match.group(2)
    return entries


def headers_read(build: Path):
    for depfile in build.glob("CMakeFiles/**/*.o.d"):
        for token in depfile.read_text().replace("\\\n", " ").split():
            if CARRIED_HEADER.search(token):
                yield depfile.name, str(Path(token).resolve()) if token.startswith("/") else token


CARRIED_LIBRARY = re.compile(r"^\s*(lib(boost_program_options|cpp-httplib|md4c|md4c-html)\.so\S*) => (\S+)", re.M)


def libraries_outside(binary: Path, prefix: str) -> list:
    environment = {key: value for key, value in os.environ.items() if key != "LD_LIBRARY_PATH"}
    listing = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, env=environment).stdout
    found = CARRIED_LIBRARY.findall(listing)
    if len(found) < 4:
        return [f"ldd {binary} names only {len(found)} of the 4 carried libraries"]
    return [f"{binary} loads {name} from {path}" for name, _, path in found if not path.startswith(prefix)]


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = Path(sys.argv[1]).resolve()
    prefix = str(build / "deps")
    problems = []

    cache = read_cache(build)
    for name in CACHE_ENTRIES:
        value = cache.get(name, "")
        if not value.startswith(prefix):
            problems.append(f"CMakeCache.txt: {name} is '{value}', not inside {prefix}")

    flags = 0
    for entry in json.loads((build / "compile_commands.json").read_text()):
        for path in re.findall(r"(?:-I|-isystem )(\S+)", entry["command"]):
            if path.startswith("/usr/include"):
                problems.append(f"compile_commands.json: {entry['file']} is compiled with -I{path}")
            flags += path.startswith(prefix)
    if flags == 0:
        problems.append("compile_commands.json: no include flag points into the prefix")

    headers = list(headers_read(build))
    outside = sorted({header for _, header in headers if not header.startswith(prefix)})
    problems += [f"a carried package's header was read from outside the prefix: {header}" for header in outside[:20]]
    if not headers:
        problems.append("no dependency file names a header of a carried package: was anything compiled?")

    binary = build / "layerbench"
    if binary.is_file():
        problems += libraries_outside(binary, prefix)

    print(f"check_device_build: {len(CACHE_ENTRIES)} CMake entries, {flags} include flags into the prefix, "
          f"{len(headers)} reads of carried headers, {len(outside)} from outside {prefix}; "
          f"{'binary checked with ldd' if binary.is_file() else 'no binary linked'}")
    for problem in problems:
        print(f"PROBLEM: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
