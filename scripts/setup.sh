#!/usr/bin/env bash
# Installs everything LayerBench needs on Debian 12, skipping what is already there, so that a second
# run costs seconds. Called by `make run` and `make test`; safe to run by hand.
#
#   scripts/setup.sh                  Debian packages (build, tests, site checks) and the venv with torch
#   scripts/setup.sh --debian-only    only the Debian packages that build layerbench without LibTorch
#                                     (`make site-tools`): no test tools, no venv, no torch download
set -euo pipefail

VENV=${LAYERBENCH_VENV:-$HOME/.cache/layerbench/venv}
# The default release, what the GPU machine has. Another (LAYERBENCH_TORCH_VERSION, from the Makefile's
# TORCH_VERSION) gets a CPU-only venv of its own: install_cpu_release below, docs/versions.md.
DEFAULT_TORCH_VERSION=2.11.0
TORCH_VERSION=${LAYERBENCH_TORCH_VERSION:-$DEFAULT_TORCH_VERSION}

# Debian packages that build layerbench, with or without LibTorch (doctest: CMake asks for it).
build_packages=(
  build-essential cmake pkg-config git
  nlohmann-json3-dev libboost-program-options-dev doctest-dev libcpp-httplib-dev
  libkainjow-mustache-dev libmd4c-dev libmd4c-html0-dev
)

# Installs the named Debian packages that are not installed yet.
install_debian_packages() {
  local missing=() package
  for package in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$package")
    fi
  done
  if ((${#missing[@]} == 0)); then
    return
  fi
  echo "setup: installing Debian packages: ${missing[*]}"
  local sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

case "${1:-}" in
  "") ;;
  --debian-only)
    install_debian_packages "${build_packages[@]}"
    exit 0
    ;;
  *)
    echo "setup: unknown option '$1' (give none, or --debian-only)" >&2
    exit 2
    ;;
esac

# The venv, the tests and the site checks: python3-venv, then the extra packages named by later parts
# (site checks, server tests), one per line in scripts/packages.txt.
packages=("${build_packages[@]}" python3-venv)
if [[ -f scripts/packages.txt ]]; then
  while read -r name; do
    [[ -n "$name" && "$name" != \#* ]] && packages+=("$name")
  done < scripts/packages.txt
fi
install_debian_packages "${packages[@]}"

# The requirements of the torch wheel in $VENV that libtorch_cpu.so needs at run time: the CUDA
# runtime and CUPTI (kineto links them), at the wheel's own pins. Newer wheels name them as extras of
# cuda-toolkit, older ones as nvidia-cuda-runtime-cuNN and nvidia-cuda-cupti-cuNN.
cpu_runtime_requirements() {
  "$VENV/bin/python" - <<'PY'
import importlib.metadata, re
from pip._vendor.packaging.requirements import Requirement
for text in importlib.metadata.requires("torch") or []:
    requirement = Requirement(text)
    if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
        continue
    if re.fullmatch(r"nvidia-cuda-(runtime|cupti)-cu\d+", requirement.name):
        print(f"{requirement.name}{requirement.specifier}")
    elif requirement.name == "cuda-toolkit":
        wanted = sorted({"cudart", "cupti"} & requirement.extras)
        print(f"cuda-toolkit[{','.join(wanted)}]{requirement.specifier}")
PY
}

# pip install into $VENV without a cache; pip's own warnings about the dependencies left out on
# purpose stay in its log, and a failure names the release and pip's first error.
pip_install() {
  local log
  log=$(mktemp)
  if ! "$VENV/bin/pip" install -q --no-cache-dir "$@" >"$log" 2>&1; then
    local what=$1
    [[ $what == "torch==$TORCH_VERSION" ]] || what="$what (the runtime of torch==$TORCH_VERSION)"
    echo "setup: cannot install $what from PyPI for $("$VENV/bin/python" -V):" \
         "$(grep -m1 -E '^ERROR' "$log" || tail -n 1 "$log")" >&2
    rm -f "$log"
    if [[ $created_venv == yes ]]; then
      rm -rf "$VENV"
    fi
    exit 1
  fi
  rm -f "$log"
}

# A release other than the default, for the CPU: the torch wheel without its dependencies (the
# nvidia-* wheels are gigabytes that only libtorch_cuda.so needs), then the CUDA runtime and CUPTI.
# CMake links libtorch_cpu and libc10 only (cmake/torch_cpu_only.cmake). Python's `import torch`
# does not work in such a venv until bench/versions/python-side.sh adds the rest, which only the
# torch.compile worker's cells across releases need.
install_cpu_release() {
  echo "setup: installing torch==$TORCH_VERSION (no dependencies, CPU use) into $VENV"
  pip_install "torch==$TORCH_VERSION" --no-deps
  mapfile -t runtime < <(cpu_runtime_requirements)
  if ((${#runtime[@]} > 0)); then
    pip_install "${runtime[@]}"
  fi
  echo "$TORCH_VERSION" > "$VENV/.layerbench-cpu-release"
}

# LibTorch from the torch wheel, in a virtual environment outside the clone so that CI and later
# clones reuse it instead of downloading some gigabytes again.
created_venv=no
if [[ ! -x "$VENV/bin/python" ]]; then
  echo "setup: creating $VENV"
  python3 -m venv "$VENV"
  created_venv=yes
fi
if [[ "$TORCH_VERSION" != "$DEFAULT_TORCH_VERSION" ]]; then
  # Written once the torch wheel and its runtime are both in.
  if [[ "$(cat "$VENV/.layerbench-cpu-release" 2>/dev/null)" != "$TORCH_VERSION" ]]; then
    install_cpu_release
  fi
  # A wheel built with the pre-C++11 string ABI (up to 2.6) says so in its TorchConfig.cmake, as
  # cmake/torch_cpu_only.cmake reads it: Boost.Program_options and cpp-httplib must then be built with
  # that ABI too (once, outside the clone).
  if grep -q '_GLIBCXX_USE_CXX11_ABI=0' "$VENV"/lib/python3*/site-packages/torch/share/cmake/Torch/TorchConfig.cmake; then
    bash "$(dirname "$0")/old-abi-deps.sh"
  fi
  exit 0
fi
if ! "$VENV/bin/python" -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '$TORCH_VERSION')" 2>/dev/null; then
  echo "setup: installing torch==$TORCH_VERSION into $VENV (large download, once)"
  "$VENV/bin/pip" install -q "torch==$TORCH_VERSION" numpy
fi
# Python tools the tests use, one requirement per line; reinstalled only when the list changes.
if [[ -s scripts/requirements-test.txt ]]; then
  stamp="$VENV/.layerbench-requirements"
  wanted=$(sha256sum scripts/requirements-test.txt | cut -d' ' -f1)
  if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$wanted" ]]; then
    echo "setup: installing Python test tools"
    "$VENV/bin/pip" install -q -r scripts/requirements-test.txt
    echo "$wanted" > "$stamp"
  fi
fi
