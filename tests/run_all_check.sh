#!/usr/bin/env bash
# CTest (tests/device.cmake): bench/gpu/run-all.sh end to end on the CPU with a tiny matrix: three
# fresh-process `layerbench run`s, the Python timer, FlopCounterMode and the validation report, whose
# output must cover every cell of every run. Exits 77 (skipped) where layerbench has no LibTorch.
#
#   run_all_check.sh SOURCE_DIR WORK_DIR PYTHON LAYERBENCH
set -euo pipefail
source_dir=$1
work=$2
python=$3
binary=$4

if ! "$binary" layers > /dev/null 2>&1; then
  echo "SKIPPED: $binary cannot list its layers (built without LibTorch?), so it cannot run the matrix"
  exit 77
fi
cd "$source_dir"
rm -rf "$work"
OUT=$work DEVICE=cpu RUNS=3 LAYERS=Linear,Dropout BATCH_SIZES=1,2 TIMER_MIN_RUN_TIME=0.02 \
  LAYERBENCH_TORCH_PYTHON=$python BIN=$binary RUN_ARGS="--cell-budget 0.5 --max-samples 20" \
  bench/gpu/run-all.sh runs timer flops report

"$python" - "$work" << 'PYTHON'
import json, sys
from pathlib import Path
work = Path(sys.argv[1])
report = json.loads((work / "validation.json").read_text())
assert len(report["runs"]) == 3, report["runs"]
cells = {(row["layer"], row["batch_size"]) for row in report["cells"]}
assert cells == {("Linear", 1), ("Linear", 2), ("Dropout", 1), ("Dropout", 2)}, cells
for row in report["cells"]:
    assert row["status"] == "ok" and len(row["run_medians_ms"]) == 3, row
    assert row["ratio"] > 0 and row["cross_run_cv"] is not None, row
flops = {row["layer"]: row["status"] for row in report["flops"]}
assert flops == {"Linear": "equal", "Dropout": "equal"}, flops
assert "## Per cell" in (work / "validation.md").read_text()
files = sorted(path.name for path in work.iterdir())
assert len(files) <= 8, f"the device tool brings back at most 8 files: {files}"
print(f"run_all_check: {len(cells)} cells in 3 runs reported; files {files}")
PYTHON
