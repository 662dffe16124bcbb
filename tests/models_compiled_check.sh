#!/usr/bin/env bash
# End to end: `layerbench run` of a compiled whole-model cell, and the dataset validates.
#   torch_compile: LayerBench starts the Python worker (bench/models/compiled_train.py) and takes its cell in.
#   aot_inductor: LayerBench exports the model's AOTInductor package (bench/gpu/aoti_export.py, from
#   bench/models/py_models.py) into an empty cache and runs it.
#   models_compiled_check.sh LAYERBENCH PYTHON torch_compile|aot_inductor
set -euo pipefail
binary=$1
export LAYERBENCH_PYTHON=$2
compiled=$3
"$LAYERBENCH_PYTHON" -c "import torch, transformers" 2>/dev/null || { echo "skipped: torch or transformers missing"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LAYERBENCH_AOTI_CACHE=$work/aoti
"$binary" run --layers BertTiny --batch-sizes 1 --axes mode=inference_mode --axes compiled="$compiled" \
  --no-peaks --no-profiles --cell-budget 0.3 --out "$work/run.json"
"$binary" validate "$work/run.json"
"$LAYERBENCH_PYTHON" - "$work/run.json" "$compiled" <<'PY'
import json, sys
cell = json.load(open(sys.argv[1]))["results"][0]
assert cell["status"] == "ok", cell
assert cell["axes"]["compiled"] == sys.argv[2], cell
if sys.argv[2] == "torch_compile":
    assert cell["runtime"]["compile_seconds"] > 0, cell
    print("torch_compile cell:", cell["stats"]["median_ms"], "ms median;", cell["runtime"])
else:
    print("aot_inductor cell:", cell["stats"]["median_ms"], "ms median")
PY
