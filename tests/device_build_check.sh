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

# The dataset library reads nlohmann/json; engine/cli/command.cpp reads Boost.Program_options.
LAYERBENCH_DEB_DIR=$deb_dir LAYERBENCH_TORCH_PYTHON=$python JOBS=${JOBS:-2} scripts/device-build.sh \
  --build-dir "$work/build" --target layerbench_dataset --target engine/cli/command.cpp.o "${cuda_args[@]}"
"$python" tests/python/check_device_build.py "$work/build"
