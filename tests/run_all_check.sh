#!/usr/bin/env bash
# CTest (tests/device.cmake): bench/gpu/run-all.sh end to end on the CPU with a tiny matrix.
# 1. Three fresh-process `layerbench run`s, the Python timer, FlopCounterMode and the validation report, whose
#    output must cover every cell of every run.
# 2. The lease cut short: a call measuring round 1 is killed with SIGKILL mid-round (as the device tool does at
#    its limit). What it had packed must hold the cells measured so far; a later call on a fresh machine, given
#    that archive as CARRIED, resumes the round without measuring those cells again, and assembles the parity
#    file. Only the log and the archive come back from a call.
# 3. A step past its deadline is interrupted with SIGINT and keeps what it measured; a WORK measured on another
#    device is refused.
# Exits 77 (skipped) where layerbench has no LibTorch.
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
rm -rf "$work" "$work".*
mkdir -p "$work"
common=(DEVICE=cpu LAYERBENCH_TORCH_PYTHON=$python BIN=$binary THREADS=2 TIMER_MIN_RUN_TIME=0.02
        CARRIED=$work/no-carried-archive)

# ---- 1. runs, timer, flops, report ----------------------------------------------------------------------------
env "${common[@]}" OUT=$work WORK=$work PACK=no RUNS=3 LAYERS=Linear,Dropout BATCH_SIZES=1,2 \
  RUN_ARGS="--cell-budget 0.5 --max-samples 20" bench/gpu/run-all.sh runs timer flops report

# ---- 2. a call killed mid-round, and the next lease resuming from its archive ----------------------------------
source tests/device_call_lib.sh
round=(LAYERS=Linear,Dropout,LayerNorm BATCH_SIZES=1,2 RUNS=1 PARITY_ID=parity-check PACK_EVERY=1)
setsid env "${common[@]}" "${round[@]}" OUT=$work.call1 WORK=$work/lease1 bench/gpu/run-all.sh round1 parity \
  > "$work.call1.stdout" 2>&1 &
call=$!
# Killed once the LayerBench side has saved two cells and a pack has taken them.
two_cells_packed() {
  (($(cells_in "$work/lease1/run-1.json.partial") >= 2)) && packed "$work.call1/gpu-results.tar.gz" 'run-1.json.partial$'
}
kill_when "$call" "$work.call1.stdout" two_cells_packed
mkdir -p "$work/unpacked1"
tar xzf "$work.call1/gpu-results.tar.gz" -C "$work/unpacked1"
packed=$(cells_in "$work/unpacked1/run-1.json.partial")
((packed >= 1)) || { echo "run_all_check: the killed call's archive holds no measured cell"; exit 1; }
[[ ! -e $work/unpacked1/run-1.json ]] || { echo "run_all_check: the round finished before the kill"; exit 1; }
echo "run_all_check: killed mid-round; its archive holds $packed of the round's LayerBench cells"

# A later lease: a fresh WORK, the archive carried back.
env "${common[@]}" "${round[@]}" OUT=$work.call2 WORK=$work/lease2 CARRIED=$work.call1/gpu-results.tar.gz \
  bench/gpu/run-all.sh round1 parity > "$work.call2.stdout" 2>&1 \
  || { cat "$work.call2.stdout"; echo "run_all_check: the resuming call failed"; exit 1; }
grep -q "continuing from the carried archive" "$work.call2/run-all.log"
grep -q "resumed" "$work/lease2/logs/round1.log"

# ---- 3. a deadline, and a WORK of another device ---------------------------------------------------------------
status=0
# Every cell samples to its 3 s budget (a noise target no cell meets), so 12 cells outlast the 12 s call.
env "${common[@]}" OUT=$work.call3 WORK=$work/lease3 LAYERS=Linear,Dropout,LayerNorm BATCH_SIZES=1,2,4,8 RUNS=1 \
  RUN_ARGS="--cell-budget 3 --noise-target 0.0001" CALL_SECONDS=12 RESERVE_SECONDS=0 MIN_STEP_SECONDS=1 GRACE_SECONDS=20 bench/gpu/run-all.sh runs \
  > "$work.call3.stdout" 2>&1 || status=$?
((status == 1)) || { cat "$work.call3.stdout"; echo "run_all_check: a step past its deadline must end the call with 1, not $status"; exit 1; }
grep -q "reached its deadline" "$work.call3/run-all.log"
interrupted=$(cells_in "$work/lease3/run-1.json.partial")
((interrupted >= 1)) || { cat "$work.call3.stdout"; echo "run_all_check: the interrupted step kept no cell"; exit 1; }
echo "Another GPU" > "$work/lease3/device-name.txt"
status=0
env "${common[@]}" OUT=$work.call4 WORK=$work/lease3 bench/gpu/run-all.sh runs > /dev/null 2>&1 || status=$?
((status == 3)) || { echo "run_all_check: a WORK of another device must be refused with 3, not $status"; exit 1; }
grep -q "measured on 'Another GPU'" "$work.call4/run-all.log"

"$python" - "$work" << 'PYTHON'
import json, sys, tarfile
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

# Nothing measured was lost: every cell of the killed call's archive is in the finished round, unchanged.
def medians(path):
    return {(c["layer"], c["batch_size"]): c["stats"]["median_ms"]
            for c in json.loads(path.read_text())["results"] if c["status"] == "ok"}
before = medians(work / "unpacked1" / "run-1.json.partial")
after = medians(work / "lease2" / "run-1.json")
assert len(after) == 6, after
for key, median in before.items():
    assert after[key] == median, (key, median, after[key])
parity = json.loads((work / "lease2" / "parity.json").read_text())
assert parity["format"] == "layerbench-parity" and parity["rounds"] == 1, parity
assert len(parity["cells"]) == 6, parity["cells"]
# What comes back from a call: the log and one archive of fixed name, which carries no AOTInductor package.
back = sorted(path.name for path in (work.parent / (work.name + ".call2")).iterdir())
assert back == ["gpu-results.tar.gz", "run-all.log"], back
with tarfile.open(work.parent / (work.name + ".call2") / "gpu-results.tar.gz") as archive:
    packed = {Path(name).name for name in archive.getnames()}
for name in ["run-1.json", "python-1.json", "parity.json", "device-name.txt", "round1.log"]:
    assert name in packed, (name, packed)
print(f"run_all_check: {len(cells)} cells in 3 runs reported; a round killed with {len(before)} cells saved "
      f"resumed on a fresh WORK and kept them; came back: {back}")
PYTHON
