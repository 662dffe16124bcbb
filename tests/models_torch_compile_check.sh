#!/usr/bin/env bash
# End to end: `layerbench run` of a compiled=torch_compile cell starts the Python worker
# (bench/models/compiled_train.py), takes its cell into the dataset, and the dataset validates.
#   models_torch_compile_check.sh LAYERBENCH PYTHON
set -euo pipefail
binary=$1
export LAYERBENCH_PYTHON=$2
"$LAYERBENCH_PYTHON" -c "import torch, transformers" 2>/dev/null || { echo "skipped: torch or transformers missing"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$binary" run --layers BertTiny --batch-sizes 1 --axes mode=inference_mode --axes compiled=torch_compile \
  --no-peaks --no-profiles --cell-budget 0.3 --out "$work/run.json"
"$binary" validate "$work/run.json"
"$LAYERBENCH_PYTHON" - "$work/run.json" <<'PY'
import json, sys
cell = json.load(open(sys.argv[1]))["results"][0]
assert cell["status"] == "ok", cell
assert cell["axes"]["compiled"] == "torch_compile", cell
assert cell["runtime"]["compile_seconds"] > 0, cell
print("torch_compile cell:", cell["stats"]["median_ms"], "ms median;", cell["runtime"])
PY
