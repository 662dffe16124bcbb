#!/usr/bin/env bash
# CTest (tests/device.cmake): scripts/device-build.sh builds against a fresh prefix of unpacked .deb files
# and this machine's torch, and tests/python/check_device_build.py proves that the build read no header
# of the system's -dev packages. Exits 77 (skipped) with the reason where a tool it needs is missing.
#
#   device_build_check.sh SOURCE_DIR WORK_DIR PYTHON
set -euo pipefail
source_dir=$1
work=$2
python=$3

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
        /usr/include/md4c-html.h /usr/share/cmake/nlohmann_json /usr/lib/cmake/doctest
        /usr/lib/x86_64-linux-gnu/cmake/[Bb]oost* /usr/lib/x86_64-linux-gnu/pkgconfig /usr/share/pkgconfig
        /usr/bin/pkg-config /usr/bin/pkgconf /usr/lib/x86_64-linux-gnu/libboost_program_options.so*
        /usr/lib/x86_64-linux-gnu/libcpp-httplib.so* /usr/lib/x86_64-linux-gnu/libmd4c*.so*)

# The dataset library reads nlohmann/json; engine/cli/command.cpp reads Boost.Program_options.
build() {
  LAYERBENCH_DEB_DIR=$deb_dir LAYERBENCH_TORCH_PYTHON=$python JOBS=${JOBS:-2} scripts/device-build.sh \
    --build-dir "$work/build" --target layerbench_dataset --target engine/cli/command.cpp.o "${cuda_args[@]}"
}

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
