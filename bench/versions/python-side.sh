#!/usr/bin/env bash
# Installs the Python side of torch releases into their venvs (made by `TORCH_VERSION=X make setup`),
# so that the torch.compile worker can run there: torch's own dependencies, torchvision and transformers,
# as python-side.txt lists them. `make setup` installs torch alone (--no-deps: LibTorch for the C++
# build, without the gigabytes of CUDA libraries); `import torch` needs those libraries even on a CPU, so
# this adds gigabytes per release (1.5 to 5.2 GB on 2026-11-29, docs/versions.md). Releases given, else every one of python-side.txt.
#
#   bench/versions/python-side.sh [RELEASE...]
#
# Each release ends with a check: the venv imports torch and each package it was given, and says which
# versions it holds and whether torch.compile exists. A release that fails is reported and the others go on.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
list=bench/versions/python-side.txt
releases=("$@")
if ((${#releases[@]} == 0)); then
  mapfile -t releases < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$list" | awk '{print $1}')
fi
failures=0
for release in "${releases[@]}"; do
  line=$(sed -e 's/#.*//' "$list" | awk -v r="$release" '$1 == r')
  if [[ -z "$line" ]]; then
    echo "python-side: $release is not in $list" >&2
    failures=$((failures + 1))
    continue
  fi
  read -r -a wanted <<< "${line#"$release"}"
  venv=$(make -s --no-print-directory TORCH_VERSION="$release" print-venv)
  if [[ ! -x "$venv/bin/python" ]]; then
    echo "python-side: $venv has no python; run 'TORCH_VERSION=$release make setup' first" >&2
    failures=$((failures + 1))
    continue
  fi
  echo "== torch $release: $venv: torch==$release ${wanted[*]}" >&2
  start=$SECONDS
  if ! "$venv/bin/python" -m pip install -q --no-cache-dir "torch==$release" "${wanted[@]}" >&2; then
    echo "python-side: torch $release: pip failed" >&2
    failures=$((failures + 1))
    continue
  fi
  if ! "$venv/bin/python" - "${wanted[@]}" <<'PY' >&2
import importlib, re, sys
import torch
names = [re.split(r"[<>=!~\[ ]", requirement)[0] for requirement in sys.argv[1:]]
versions = [f"{name} {importlib.import_module(name).__version__}" for name in names if name != "numpy"]
print(f"   torch {torch.__version__}, {', '.join(versions)}, torch.compile: {hasattr(torch, 'compile')}")
PY
  then
    echo "python-side: torch $release: the venv does not import torch and ${wanted[*]}" >&2
    failures=$((failures + 1))
    continue
  fi
  echo "   $((SECONDS - start)) s, venv $(du -sh "$venv" | cut -f1)" >&2
done
exit $((failures > 0))
