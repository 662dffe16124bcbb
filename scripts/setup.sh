#!/usr/bin/env bash
# Installs everything LayerBench needs on Debian 12, skipping what is already there, so that a second
# run costs seconds. Called by `make run` and `make test`; safe to run by hand.
#
#   scripts/setup.sh                  Debian packages (build, tests, site checks) and the venv with torch
#   scripts/setup.sh --debian-only    only the Debian packages that build layerbench without LibTorch
#                                     (`make site-tools`): no test tools, no venv, no torch download
set -euo pipefail

VENV=${LAYERBENCH_VENV:-$HOME/.cache/layerbench/venv}
TORCH_VERSION=2.11.0

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

# LibTorch from the torch wheel, in a virtual environment outside the clone so that CI and later
# clones reuse it instead of downloading some gigabytes again.
if [[ ! -x "$VENV/bin/python" ]]; then
  echo "setup: creating $VENV"
  python3 -m venv "$VENV"
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
