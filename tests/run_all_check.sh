#!/usr/bin/env bash
# CTest (tests/device.cmake): bench/gpu/run-all.sh end to end on the CPU with a tiny matrix: three
# fresh-process `layerbench run`s, the Python timer, FlopCounterMode and the validation report, whose
# output must cover every cell of every run; then one parity round and its assembly, and the packing of
# everything into the two files the device tool brings back. Exits 77 (skipped) where layerbench has no LibTorch.
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
rm -rf "$work" "$work.out"
OUT=$work WORK=$work PACK=no DEVICE=cpu RUNS=3 LAYERS=Linear,Dropout BATCH_SIZES=1,2 TIMER_MIN_RUN_TIME=0.02 \
  LAYERBENCH_TORCH_PYTHON=$python BIN=$binary RUN_ARGS="--cell-budget 0.5 --max-samples 20" THREADS=2 \
  bench/gpu/run-all.sh runs timer flops report
# A parity round in a folder of its own (measured files are never overwritten), packed into $work.out.
OUT=$work.out WORK=$work/rounds DEVICE=cpu RUNS=1 LAYERS=Linear,Dropout BATCH_SIZES=1,2 TIMER_MIN_RUN_TIME=0.02 \
  LAYERBENCH_TORCH_PYTHON=$python BIN=$binary THREADS=2 PARITY_ID=parity-check \
  bench/gpu/run-all.sh round1 parity

"$python" - "$work" "$work.out" << 'PYTHON'
import json, sys
from pathlib import Path
work = Path(sys.argv[1])
back = Path(sys.argv[2])
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
parity = json.loads((work / "rounds" / "parity.json").read_text())
assert parity["format"] == "layerbench-parity" and parity["rounds"] == 1, parity
assert {(c["layer"], c["batch_size"]) for c in parity["cells"]} == cells, parity["cells"]
# What comes back from the device: the log and one archive of everything in WORK.
import tarfile
out = sorted(path.name for path in back.iterdir())
assert len(out) == 2 and "run-all.log" in out and out[0].startswith("gpu-results-"), out
with tarfile.open(back / out[0]) as archive:
    packed = {Path(name).name for name in archive.getnames()}
for name in ["run-1.json", "python-1.json", "parity.json"]:
    assert name in packed, (name, packed)
print(f"run_all_check: {len(cells)} cells in 3 runs reported, one parity round; came back: {out}")
PYTHON
