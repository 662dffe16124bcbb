#!/usr/bin/env bash
# CTest (tests/device.cmake): scripts/device-build.sh builds against a fresh prefix of unpacked .deb files
# and this machine's torch, and tests/python/check_device_build.py proves that the build read no header
# of the system's -dev packages. Exits 77 (skipped) with the reason where a tool it needs is missing.
#
# Then: a second build of unchanged sources is skipped (their hash); the carried runtime libraries' folders
# are in the binaries' RPATH; and a prebuilt folder of the same hash (here, LAYERBENCH's binary) is used in
# place of a build once it starts; --prebuilt-only (the lease) uses it without .deb, and refuses a stale one.
#
#   device_build_check.sh SOURCE_DIR WORK_DIR PYTHON [LAYERBENCH]
set -euo pipefail
source_dir=$1
work=$2
python=$3
binary=${4:-}

skip() {
  echo "SKIPPED: $*"
  exit 77
}

cd "$source_dir"
[[ -x "$python" ]] && "$python" -c 'import torch' 2> /dev/null || skip "no Python with torch at '$python' (LAYERBENCH_PYTHON)"
command -v dpkg > /dev/null || skip "dpkg is not installed"
deb_dir=.deb
if [[ ! -f $deb_dir/MANIFEST ]]; then
  deb_dir=$work/debs
  if [[ ! -f $deb_dir/MANIFEST ]]; then
    scripts/fetch-device-debs.sh --dir "$deb_dir" > "$work.fetch.log" 2>&1 \
      || skip "scripts/fetch-device-debs.sh could not download the packages (see $work.fetch.log)"
  fi
fi
cuda_args=()
command -v nvcc > /dev/null || [[ -x /usr/local/cuda/bin/nvcc ]] || cuda_args=(--no-cuda)

# What the GPU machine lacks and this one has: the system's copies of the carried packages.
hidden=(/usr/include/boost /usr/include/nlohmann /usr/include/doctest /usr/include/kainjow /usr/include/openssl
        /usr/include/x86_64-linux-gnu/openssl /usr/include/brotli /usr/include/httplib.h /usr/include/md4c.h
        /usr/include/md4c-html.h /usr/include/gloo /usr/share/cmake/nlohmann_json /usr/lib/cmake/doctest
        /usr/lib/x86_64-linux-gnu/cmake/[Bb]oost* /usr/lib/x86_64-linux-gnu/pkgconfig /usr/share/pkgconfig
        /usr/bin/pkg-config /usr/bin/pkgconf /usr/lib/x86_64-linux-gnu/libboost_program_options.so*
        /usr/lib/x86_64-linux-gnu/libcpp-httplib.so* /usr/lib/x86_64-linux-gnu/libmd4c*.so*)

# The dataset library reads nlohmann/json; engine/cli/command.cpp reads Boost.Program_options.
build() {
  LAYERBENCH_DEB_DIR=$deb_dir LAYERBENCH_TORCH_PYTHON=$python JOBS=${JOBS:-2} scripts/device-build.sh \
    --build-dir "$work/build" --target layerbench_dataset --target engine/cli/command.cpp.o "${cuda_args[@]}"
}

# The first build is a real one, whatever an earlier run of this test left.
rm -f "$work/build/.source-hash"

# Where a private mount namespace can be had (root), the build runs in one with those copies hidden, as
# on the GPU machine; elsewhere it runs in the open and the check below still proves which copies it read.
if [[ $(id -u) == 0 ]] && unshare -m --propagation private true 2> /dev/null; then
  echo "device_build_check: building with the system's copies of the carried packages hidden"
  export -f build
  export deb_dir python work
  export cuda_args_text="${cuda_args[*]}"
  unshare -m --propagation private bash -c '
    set -euo pipefail
    for path in "$@"; do
      [[ -e "$path" ]] || continue
      if [[ -d "$path" ]]; then mount -t tmpfs none "$path"; else mount --bind /dev/null "$path"; fi
    done
    read -ra cuda_args <<< "$cuda_args_text"
    build' hide "${hidden[@]}"
else
  echo "device_build_check: no private mount namespace here; building with the system's copies in place"
  build
fi
"$python" tests/python/check_device_build.py "$work/build"

# Unchanged sources, packages, torch and targets: no second build.
build > "$work.again.log" 2>&1 || { cat "$work.again.log"; exit 1; }
grep -q "unchanged since the last build" "$work.again.log" \
  || { cat "$work.again.log"; echo "device_build_check: the unchanged tree was built again"; exit 1; }
# The runtime prefix (libraries the machine lacks) is in the RPATH, not only on the build's LD_LIBRARY_PATH.
grep -q "^CMAKE_BUILD_RPATH.*deps-runtime/usr/lib/x86_64-linux-gnu" "$work/build/CMakeCache.txt" \
  || { echo "device_build_check: CMAKE_BUILD_RPATH does not name the carried runtime libraries"; exit 1; }

# A prebuilt folder made elsewhere from the same sources is used instead of a build.
# Only a binary with LibTorch lists its layers; a torch-free one would send the script on to a full build.
if [[ -x $binary ]] && "$binary" layers > /dev/null 2>&1; then
  prebuilt=$work/prebuilt
  rm -rf "$prebuilt" "$work/from-prebuilt" && mkdir -p "$prebuilt/lib"
  cp "$binary" "$prebuilt/layerbench"
  LAYERBENCH_DEB_DIR=$deb_dir LAYERBENCH_TORCH_PYTHON=$python scripts/device-build.sh --print-hash \
    --build-dir "$work/from-prebuilt" --target layerbench "${cuda_args[@]}" > "$prebuilt/source-hash"
  LAYERBENCH_DEB_DIR=$deb_dir LAYERBENCH_TORCH_PYTHON=$python LAYERBENCH_PREBUILT=$prebuilt scripts/device-build.sh \
    --build-dir "$work/from-prebuilt" --target layerbench "${cuda_args[@]}" > "$work.prebuilt.log" 2>&1 \
    || { cat "$work.prebuilt.log"; exit 1; }
  grep -q "using the prebuilt binaries" "$work.prebuilt.log" || { cat "$work.prebuilt.log"; exit 1; }
  "$work/from-prebuilt/layerbench" layers > /dev/null
  echo "device_build_check: a second build was skipped; the prebuilt binary was used"

  # The lease's mode (--prebuilt-only): no .deb carried, the prebuilt folder's copy of the MANIFEST gives the
  # hash; a prebuilt folder of other sources is refused and nothing compiled.
  cp "$deb_dir/MANIFEST" "$prebuilt/deb-MANIFEST"
  mkdir -p "$work/no-debs"
  # The GPU image exports TORCH_CUDA_ARCH_LIST=9.0a: the machine's value must not change the hash.
  only() {
    TORCH_CUDA_ARCH_LIST=9.0a LAYERBENCH_DEB_DIR=$work/no-debs LAYERBENCH_TORCH_PYTHON=$python LAYERBENCH_PREBUILT=$prebuilt scripts/device-build.sh \
      --prebuilt-only --build-dir "$work/prebuilt-only" --target layerbench "${cuda_args[@]}"
  }
  rm -rf "$work/prebuilt-only"
  only > "$work.only.log" 2>&1 || { cat "$work.only.log"; echo "device_build_check: --prebuilt-only did not use the prebuilt folder"; exit 1; }
  grep -q "using the prebuilt binaries" "$work.only.log"
  echo stale > "$prebuilt/source-hash"
  rm -rf "$work/prebuilt-only"
  status=0
  only > "$work.only.log" 2>&1 || status=$?
  ((status == 1)) && grep -q "were built from other sources" "$work.only.log" && grep -q "nothing is compiled" "$work.only.log" \
    || { cat "$work.only.log"; echo "device_build_check: --prebuilt-only must refuse a stale prebuilt folder"; exit 1; }
  [[ ! -e $work/prebuilt-only/deps ]] || { echo "device_build_check: --prebuilt-only unpacked packages"; exit 1; }
  echo "device_build_check: --prebuilt-only used the prebuilt folder without .deb, and refused a stale one"
fi
