#!/usr/bin/env bash
# Builds layerbench on the GPU machine, which has CUDA, nvcc and torch in /opt/torch/.venv but none of our
# Debian -dev packages and no package registry. Run from the repository root after
# scripts/fetch-device-debs.sh has filled .deb/ here and the device tool has carried it there.
#
#   scripts/device-build.sh [--target TARGET]... [--build-dir DIR] [--no-cuda] [--prebuilt DIR] [--prebuilt-only]
#                           [--print-hash]
#
# Each .deb is unpacked with `dpkg -x` into a private prefix (never into /), and CMake, pkg-config and the
# compiler are pointed at that prefix before anything of the system's; the binaries get an RPATH to the
# carried libraries, so they start without LD_LIBRARY_PATH. The build is skipped when the sources, the
# packages, torch and the targets are those of the last build in DIR (their hash, in DIR/.source-hash).
# --prebuilt DIR: after the build, DIR gets the stripped binaries, the carried libraries (lib/) and the hash:
# made on a build machine and carried (gpu-carry/prebuilt), it is used instead of a build where the hash
# matches and the binary starts; it keeps a copy of .deb/MANIFEST (deb-MANIFEST), so that the hash needs no .deb
# carried. --prebuilt-only: use the carried prebuilt folder or stop with the reason, never compile (the GPU lease:
# bench/gpu/run-all.sh). --print-hash prints the hash and exits. Environment overrides:
#   LAYERBENCH_TORCH_PYTHON   the Python whose torch to build against (default /opt/torch/.venv/bin/python)
#   LAYERBENCH_DEB_DIR        where the .deb files and their MANIFEST are (default .deb)
#   LAYERBENCH_PREBUILT       a prebuilt folder to use when it matches (default gpu-carry/prebuilt)
#   LAYERBENCH_CUDA_ARCH      the GPU architectures, passed to the build as TORCH_CUDA_ARCH_LIST (default 9.0,
#                             the H100 and H200). The machine's own TORCH_CUDA_ARCH_LIST is not read: the GPU
#                             image exports 9.0a, which made the lease's hash differ from the carried binaries'.
#   JOBS                      parallel compile jobs (default: all cores)
set -euo pipefail

torch_python=${LAYERBENCH_TORCH_PYTHON:-/opt/torch/.venv/bin/python}
deb_dir=${LAYERBENCH_DEB_DIR:-.deb}
build_dir=build-device-gpu
targets=()
cuda=yes
make_prebuilt=
print_hash=no
prebuilt_only=no
use_prebuilt=${LAYERBENCH_PREBUILT:-gpu-carry/prebuilt}
while (($# > 0)); do
  case "$1" in
    --target) targets+=("$2"); shift ;;
    --build-dir) build_dir=$2; shift ;;
    --no-cuda) cuda=no ;;
    --prebuilt) make_prebuilt=$2; shift ;;
    --prebuilt-only) prebuilt_only=yes ;;
    --print-hash) print_hash=yes ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "device-build: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
((${#targets[@]} > 0)) || targets=(layerbench)
export TORCH_CUDA_ARCH_LIST=${LAYERBENCH_CUDA_ARCH:-9.0}

fail() {
  echo "device-build: error: $*" >&2
  exit 1
}

[[ -f CMakeLists.txt && -d engine ]] || fail "run me from the repository root"
[[ $prebuilt_only == no || -z $make_prebuilt ]] || fail "--prebuilt-only uses a prebuilt folder; --prebuilt makes one: give one of them"
# The packages' list is part of the hash; a prebuilt folder carries its own copy, for a call without .deb.
manifest=$deb_dir/MANIFEST
if [[ ! -f $manifest && -z $make_prebuilt && -f $use_prebuilt/deb-MANIFEST ]]; then
  manifest=$use_prebuilt/deb-MANIFEST
fi
if [[ ! -f $manifest ]]; then
  [[ $prebuilt_only == no ]] || fail "no prebuilt binaries in $use_prebuilt (no deb-MANIFEST there): make them on the build machine with \`make device-carry DEVICE_PREBUILT=yes\` and carry gpu-carry; nothing is compiled in this mode"
  fail "$deb_dir/MANIFEST is missing: run scripts/fetch-device-debs.sh here first and carry $deb_dir"
fi
[[ -x "$torch_python" ]] || fail "no Python at $torch_python (set LAYERBENCH_TORCH_PYTHON)"

# What shapes the binaries: the sources CMake compiles, the carried packages, torch, the targets and CUDA.
source_files() {
  find CMakeLists.txt cmake engine tests fuzz -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \
    -o -name '*.in' -o -name '*.cmake' -o -name CMakeLists.txt \) -print0 | LC_ALL=C sort -z
}
torch_line() { "$torch_python" -c 'import torch; print(torch.__version__, torch.version.cuda)'; }
targets_line() { echo "targets ${targets[*]} cuda $cuda arch $TORCH_CUDA_ARCH_LIST"; }
source_hash() {
  {
    source_files | xargs -0 sha256sum
    cat "$manifest"
    torch_line
    targets_line
  } | sha256sum | cut -d' ' -f1
}
# The same, part by part, printed where a prebuilt folder's hash differs (to say which part differs).
source_hash_parts() {
  echo "sources $(source_files | xargs -0 sha256sum | sha256sum | cut -c1-12) files $(source_files | tr -cd '\0' | wc -c)"
  echo "manifest $(sha256sum < "$manifest" | cut -c1-12)"
  echo "torch $(torch_line 2>&1 | tr '\n' '|')"
  targets_line
}
hash=$(source_hash)
if [[ $print_hash == yes ]]; then
  echo "$hash"
  exit 0
fi

mkdir -p "$build_dir"
build_dir=$(cd "$build_dir" && pwd)
if [[ -z $make_prebuilt && -f $build_dir/.source-hash && $(cat "$build_dir/.source-hash") == "$hash" ]]; then
  echo "device-build: sources, packages, torch and targets unchanged since the last build in $build_dir; skipped"
  exit 0
fi

# A prebuilt folder made elsewhere from the same sources: its binaries, once they start here.
try_prebuilt() {
  local from=$1 torch_lib
  if [[ ! -x $from/layerbench || ! -f $from/source-hash ]]; then
    echo "device-build: no prebuilt binaries in $from"
    return 1
  fi
  if [[ $(cat "$from/source-hash") != "$hash" ]]; then
    echo "device-build: the prebuilt binaries in $from were built from other sources, packages, torch or targets" \
      "(hash $(cut -c1-12 "$from/source-hash"), these are ${hash:0:12})"
    source_hash_parts | sed 's/^/device-build: here: /'
    [[ -f $from/source-hash-parts ]] && sed 's/^/device-build: prebuilt: /' "$from/source-hash-parts"
    if [[ ${PREBUILT_TRUST:-no} != yes ]]; then
      return 1
    fi
    echo "device-build: PREBUILT_TRUST=yes: using them all the same if they start here (the mismatch is above)"
  fi
  torch_lib=$("$torch_python" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')
  rm -rf "$build_dir/lib" && mkdir -p "$build_dir/tests"
  cp -a "$from/lib" "$build_dir/lib"
  cp "$from/layerbench" "$build_dir/layerbench"
  [[ -x $from/tests/test_gpu_bench ]] && cp "$from/tests/test_gpu_bench" "$build_dir/tests/test_gpu_bench"
  if ! LD_LIBRARY_PATH="$build_dir/lib:$torch_lib" "$build_dir/layerbench" layers > /dev/null; then
    echo "device-build: the prebuilt layerbench in $from does not start here; building instead"
    rm -rf "$build_dir/lib" "$build_dir/layerbench" "$build_dir/tests/test_gpu_bench"
    return 1
  fi
  echo "$hash" > "$build_dir/.source-hash"
  echo "device-build: using the prebuilt binaries of $from (same sources, packages and torch); no build"
}
if [[ -z $make_prebuilt ]] && try_prebuilt "$use_prebuilt"; then
  exit 0
fi
if [[ $prebuilt_only == yes ]]; then
  fail "no usable prebuilt binaries (above); nothing is compiled in this mode: rebuild them on the build machine with" \
    "\`make device-carry DEVICE_PREBUILT=yes\` from these sources and carry gpu-carry (or allow a build here: LEASE_BUILD=fallback)"
fi
command -v dpkg > /dev/null || fail "dpkg is not installed"
command -v g++ > /dev/null || fail "no host C++ compiler (g++) on PATH"
rm -f "$build_dir/.source-hash"

prefix=$build_dir/deps
runtime_prefix=$build_dir/deps-runtime
arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
[[ $arch == amd64 ]] || fail "the carried packages are for amd64, this machine is $arch"
multiarch=x86_64-linux-gnu

# A fresh prefix at every run, so that a package dropped from the list cannot linger.
rm -rf "$prefix" "$runtime_prefix"
mkdir -p "$prefix" "$runtime_prefix"

# True when every shared library in the package is already known to the system's loader.
system_libraries=$(ldconfig -p | awk 'NR > 1 {print $1}')
system_has_libraries() {
  local deb=$1 soname
  while read -r soname; do
    grep -qxF "$soname" <<< "$system_libraries" || return 1
  done < <(dpkg -c "$deb" | grep -oE '[^/ ]+\.so\.[0-9]+$' | sort -u)
}

unpacked=0
while read -r role file; do
  [[ -z "$role" || "$role" == \#* ]] && continue
  deb=$deb_dir/$file
  [[ -f "$deb" ]] || fail "$deb is named in $deb_dir/MANIFEST but missing"
  case "$role" in
    build) dpkg -x "$deb" "$prefix" ;;
    runtime)
      if system_has_libraries "$deb"; then
        continue
      fi
      echo "device-build: the system lacks a library of $file; using the carried one"
      dpkg -x "$deb" "$runtime_prefix"
      ;;
    *) fail "$deb_dir/MANIFEST: unknown role '$role' for $file" ;;
  esac
  unpacked=$((unpacked + 1))
done < "$deb_dir/MANIFEST"
echo "device-build: unpacked $unpacked packages into $prefix"

# The .pc files say prefix=/usr; make them name the private prefix instead.
for pc_dir in "$prefix/usr/lib/$multiarch/pkgconfig" "$prefix/usr/lib/pkgconfig" "$prefix/usr/share/pkgconfig"; do
  compgen -G "$pc_dir/*.pc" > /dev/null || continue
  sed -i -E "s#^([A-Za-z_]+)=/usr(/|\$)#\1=$prefix/usr\2#" "$pc_dir"/*.pc
done

library_path=$prefix/usr/lib/$multiarch:$prefix/lib/$multiarch:$runtime_prefix/usr/lib/$multiarch:$runtime_prefix/lib/$multiarch
# pkg-config sees only the prefix's .pc files (PKG_CONFIG_LIBDIR replaces the default search path).
mkdir -p "$prefix/bin"
cat > "$prefix/bin/pkg-config" << EOF
#!/bin/sh
export LD_LIBRARY_PATH="$library_path\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1
export PKG_CONFIG_LIBDIR="$prefix/usr/lib/$multiarch/pkgconfig:$prefix/usr/lib/pkgconfig:$prefix/usr/share/pkgconfig"
exec "$prefix/usr/bin/pkgconf" "\$@"
EOF
chmod +x "$prefix/bin/pkg-config"
"$prefix/bin/pkg-config" --exists cpp-httplib md4c-html || fail "the carried pkg-config cannot resolve cpp-httplib and md4c-html"

# Headers that the packages include without a pkg-config flag for them (OpenSSL's configuration.h lives
# in the multiarch folder) are found through CPATH, searched before the system's folders.
export CPATH=$prefix/usr/include/$multiarch:$prefix/usr/include${CPATH:+:$CPATH}
export LD_LIBRARY_PATH=$library_path${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PKG_CONFIG_PATH=$prefix/usr/lib/$multiarch/pkgconfig:$prefix/usr/share/pkgconfig

torch_prefix=$("$torch_python" -c 'import torch; print(torch.utils.cmake_prefix_path)') \
  || fail "$torch_python cannot import torch"
torch_version=$("$torch_python" -c 'import torch; print(torch.__version__, torch.version.cuda)')
echo "device-build: torch $torch_version from $torch_python"

cmake_args=(
  -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLAYERBENCH_USE_CCACHE=OFF
  "-DCMAKE_PREFIX_PATH=$prefix/usr;$torch_prefix"
  "-DPKG_CONFIG_EXECUTABLE=$prefix/bin/pkg-config"
  "-DPython3_EXECUTABLE=$torch_python" "-DLAYERBENCH_PYTHON=$torch_python"
  -DLAYERBENCH_WITH_TORCH=ON
  # The GPU doctests (tests/gpu_bench_cuda.cpp, target test_gpu_bench): this is the machine with the GPU.
  -DLAYERBENCH_DEVICE_TESTS=ON
  # RPATH, not RUNPATH: it also serves the libraries' own needs (libmd4c-html needs libmd4c), so the
  # binary runs from the prefix without LD_LIBRARY_PATH. The carried runtime libraries (deps-runtime) are
  # linked by name only, so their folders are named here, or the binary would need LD_LIBRARY_PATH to start.
  "-DCMAKE_EXE_LINKER_FLAGS=-Wl,--disable-new-dtags"
  "-DCMAKE_BUILD_RPATH=${library_path//:/;}"
)
# The GPU image has ninja (pip) and may lack make.
if ! command -v make > /dev/null && [[ ! -f $build_dir/CMakeCache.txt ]]; then
  command -v ninja > /dev/null || fail "neither make nor ninja is on PATH"
  echo "device-build: no make here; generating for ninja"
  cmake_args+=(-G Ninja)
fi
# The commit for the datasets' provenance where the tree travelled without .git (the device tool's copy).
if [[ -z ${LAYERBENCH_SOURCE_COMMIT:-} && -f gpu-carry/source-commit.txt ]]; then
  LAYERBENCH_SOURCE_COMMIT=$(cat gpu-carry/source-commit.txt)
  export LAYERBENCH_SOURCE_COMMIT
fi
if [[ $cuda == yes ]]; then
  nvcc=$(command -v nvcc || true)
  [[ -n "$nvcc" ]] || nvcc=/usr/local/cuda/bin/nvcc
  [[ -x "$nvcc" ]] || fail "no nvcc on PATH or in /usr/local/cuda/bin (pass --no-cuda for a CPU-only torch)"
  cuda_root=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
  echo "device-build: $("$nvcc" --version | tail -n 1) at $nvcc, TORCH_CUDA_ARCH_LIST=$TORCH_CUDA_ARCH_LIST"
  cmake_args+=("-DCMAKE_CUDA_COMPILER=$nvcc" "-DCUDAToolkit_ROOT=$cuda_root" "-DCMAKE_CUDA_ARCHITECTURES=90")
fi

cmake_version=0
if command -v cmake > /dev/null; then
  cmake_version=$(cmake --version | head -n 1 | grep -oE '[0-9]+\.[0-9]+' | head -n 1)
fi
if [[ $(printf '%s\n3.25\n' "$cmake_version" | sort -V | head -n 1) != 3.25 ]]; then
  [[ -x "$prefix/usr/bin/cmake" ]] || fail "no CMake of 3.25 or newer (found $cmake_version): fetch with --with-cmake"
  echo "device-build: the system's CMake is $cmake_version; using the carried one"
  export PATH=$prefix/usr/bin:$PATH
fi

cmake "${cmake_args[@]}"
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" --target "${targets[@]}"
echo "$hash" > "$build_dir/.source-hash"
echo "device-build: built ${targets[*]} in $build_dir"

if [[ -n $make_prebuilt ]]; then
  rm -rf "$make_prebuilt" && mkdir -p "$make_prebuilt/lib" "$make_prebuilt/tests"
  strip -o "$make_prebuilt/layerbench" "$build_dir/layerbench"
  [[ -x $build_dir/tests/test_gpu_bench ]] && strip -o "$make_prebuilt/tests/test_gpu_bench" "$build_dir/tests/test_gpu_bench"
  for dir in ${library_path//:/ }; do
    [[ -d $dir ]] && find "$dir" -maxdepth 1 -name '*.so*' -exec cp -a {} "$make_prebuilt/lib/" \;
  done
  echo "$hash" > "$make_prebuilt/source-hash"
  source_hash_parts > "$make_prebuilt/source-hash-parts"
  cp "$manifest" "$make_prebuilt/deb-MANIFEST"
  echo "device-build: prebuilt binaries in $make_prebuilt ($(du -sh "$make_prebuilt" | cut -f1)); carry it as gpu-carry/prebuilt"
fi
