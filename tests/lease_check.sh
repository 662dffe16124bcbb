#!/usr/bin/env bash
# CTest (tests/device.cmake): the GPU lease of bench/gpu/run-all.sh rehearsed on the CPU, with its budgets scaled
# down, a tiny matrix and an injected compute capability (docs/device.md, "The lease").
#
#   lease_check.sh plan|rehearsal|resume SOURCE_DIR WORK_DIR PYTHON LAYERBENCH
#
# plan       `--plan lease` with the GPU's budgets fits its call and prints every step; with a CPU-sized cell budget
#            it does not, and exits 1. Needs no LibTorch.
# rehearsal  a machine that is not a Hopper GPU is refused before anything is measured; without a prebuilt binary the
#            binaries step refuses to compile; then the whole lease on the CPU: every step, in order, each output there,
#            the peaks and profiles in round 1 only (the test model in fp32 alone: its bf16 training step takes
#            seconds on a CPU without bf16 instructions).
# resume     a lease killed with SIGKILL at its limit (once round 1's LayerBench side is packed), as the device tool
#            ends a command; a second, shorter call given the archive that came back as CARRIED finishes the plan,
#            and measures none of what the first call had packed again.
# rehearsal and resume exit 77 (skipped) where layerbench has no LibTorch.
set -euo pipefail
mode=$1
source_dir=$2
work=$3
python=$4
binary=$5
cd "$source_dir"
rm -rf "$work" "$work".*
mkdir -p "$work"

fail() {
  echo "lease_check: $*"
  exit 1
}

if [[ $mode == plan ]]; then
  LAYERBENCH_TORCH_PYTHON=$python bench/gpu/run-all.sh --plan lease > "$work/plan.txt" || { cat "$work/plan.txt"; fail "the lease plan must fit its call"; }
  cat "$work/plan.txt"
  for step in binaries gputests round1 round2 round3 flops models-fit report parity compiled cube; do
    grep -q "^$step " "$work/plan.txt" || fail "the plan does not print step $step"
  done
  grep -q "the plan fits" "$work/plan.txt"
  status=0
  LAYERBENCH_TORCH_PYTHON=$python LEASE_CELL_BUDGET=1.5 bench/gpu/run-all.sh --plan lease > "$work/too-long.txt" || status=$?
  ((status == 1)) || { cat "$work/too-long.txt"; fail "a plan that does not fit must exit 1, not $status"; }
  grep -q "does not fit" "$work/too-long.txt"
  echo "lease_check: the GPU plan fits; with the CPU's 1.5 s cell budget it is refused"
  exit 0
fi

if ! "$binary" layers > /dev/null 2>&1; then
  echo "SKIPPED: $binary cannot list its layers (built without LibTorch?), so it cannot run the lease"
  exit 77
fi

# The lease on the CPU: the same steps and logic, scaled-down budgets, two layers at batch 1 and 2, the test model.
cpu_lease=(DEVICE=cpu LEASE_COMPUTE_CAP=9.0 "LAYERBENCH_TORCH_PYTHON=$python" "BIN=$binary" THREADS=2
           "LAYERS=Linear,Dropout" "BATCH_SIZES=1,2" LEASE_WARMUP=0 LEASE_CELL_BUDGET=0.02 LEASE_MIN_SAMPLES=3
           LEASE_MIN_RUN_TIME=0.01 MODELS=BertTiny MODEL_BATCH=1 MODEL_CELL_BUDGET=0.05 MODEL_PRECISIONS=fp32
           COMPILE_MODELS= COMPILED_MIN_SECONDS=5 CUBE_BATCH_SIZES=1 MIN_STEP_SECONDS=5 RESERVE_SECONDS=5 PACK_EVERY=1
           "CARRIED=$work/no-carried-archive")

source tests/device_call_lib.sh

if [[ $mode == rehearsal ]]; then
  # Not a Hopper GPU: refused before the carried archive is unpacked or anything measured.
  status=0
  env "${cpu_lease[@]}" LEASE_COMPUTE_CAP=8.0 OUT=$work.a100 WORK=$work/a100 bench/gpu/run-all.sh lease > /dev/null 2>&1 || status=$?
  ((status == 4)) || fail "a GPU of compute capability 8.0 must be refused with 4, not $status"
  grep -q "refused: this machine's GPU has compute capability '8.0', not a Hopper GPU" "$work.a100/run-all.log"
  [[ -z $(find "$work/a100" -name '*.json*') ]] || fail "the refused call measured something"

  # No BIN and no prebuilt binaries: the lease compiles nothing.
  status=0
  env "${cpu_lease[@]}" BIN= LAYERBENCH_PREBUILT=$work/no-prebuilt OUT=$work.nobin WORK=$work/nobin \
    bench/gpu/run-all.sh binaries > /dev/null 2>&1 || status=$?
  ((status == 1)) || fail "the binaries step without prebuilt binaries must fail, not exit $status"
  grep -q "nothing is compiled in this mode" "$work.nobin/run-all.log" || { cat "$work.nobin/run-all.log"; fail "no clear refusal to compile"; }

  # The whole lease.
  env "${cpu_lease[@]}" OUT=$work.call WORK=$work/lease CALL_SECONDS=170 PRIORITY_SECONDS=120 \
    bench/gpu/run-all.sh lease > "$work.call.stdout" 2>&1 || { cat "$work.call.stdout"; fail "the CPU lease failed"; }
  log=$work.call/run-all.log
  grep -q "compute capability 9.0: a Hopper GPU" "$log"
  grep -q "lease_plan: the plan fits" "$log"
  grep -q "the priority steps (binaries gputests round1 round2 round3 flops) ended at" "$log"
  order=$(grep -o "step [a-z0-9-]* done" "$log" | awk '{print $2}' | paste -sd' ')
  [[ $order == "binaries gputests round1 round2 round3 flops models-fit report parity compiled cube" ]] \
    || fail "the steps ran in the order '$order'"
  "$python" - "$work/lease" << 'PYTHON'
import json, sys
from pathlib import Path
work = Path(sys.argv[1])
load = lambda name: json.loads((work / name).read_text())
for r in (1, 2, 3):
    run = load(f"run-{r}.json")
    assert len(run["results"]) == 4 and all(c["status"] == "ok" for c in run["results"]), run["results"]
    # The lease's budgets reached `layerbench run`: three samples at least, a 0.02 s budget.
    method = run["methodology"]
    assert method["min_samples"] == 3 and method["cell_budget_seconds"] == 0.02, method
    # Peaks and profiles in round 1 only: `merge --rounds` keeps the first round's.
    assert ("peaks" in run["environment"]) == (r == 1), (r, run["environment"].keys())
    assert any("operators" in c for c in run["results"]) == (r == 1), r
    assert len(load(f"python-{r}.json")) == 4
assert load("parity.json")["rounds"] == 3
assert load("validation.json")["summary"]["cells_compared_with_python"] == 4
assert {row["layer"] for row in load("flops.json")["layers"]} == {"Linear", "Dropout"}
models = sorted(p.name for p in work.glob("models-*.json"))
assert models == ["models-inference_mode-b1.json", "models-train-b1.json"], models
for name in models:
    cells = load(name)["results"]
    assert len(cells) == 1 and cells[0]["status"] == "ok" and cells[0]["layer"] == "BertTiny", cells
assert load("cube-eager.json")["results"], "the cube chunk measured nothing"
print("lease_check: the CPU lease measured 3 rounds, flops, the models, the report, the parity file and a cube chunk")
PYTHON
  exit 0
fi

[[ $mode == resume ]] || fail "unknown mode '$mode' (plan, rehearsal, resume)"
# Call 1: killed with everything it started once round 1's LayerBench side is packed, as the device tool ends a
# command at its limit.
setsid env "${cpu_lease[@]}" OUT=$work.call1 WORK=$work/lease1 CALL_SECONDS=170 PRIORITY_SECONDS=120 \
  bench/gpu/run-all.sh lease > "$work.call1.stdout" 2>&1 &
kill_when $! "$work.call1.stdout" packed "$work.call1/gpu-results.tar.gz" '/run-1.json$'
mkdir -p "$work/unpacked1"
tar xzf "$work.call1/gpu-results.tar.gz" -C "$work/unpacked1"
[[ -f $work/unpacked1/run-1.json ]] || fail "call 1's archive holds no run-1.json"
[[ ! -f $work/unpacked1/parity.json ]] || fail "call 1 finished the plan before it was killed"
echo "lease_check: call 1 killed; its archive holds run-1.json ($(cells_in "$work/unpacked1/run-1.json") cells)"

# Call 2: shorter, on a fresh machine (a fresh WORK), the archive carried back.
env "${cpu_lease[@]}" OUT=$work.call2 WORK=$work/lease2 CARRIED=$work.call1/gpu-results.tar.gz CALL_SECONDS=150 \
  PRIORITY_SECONDS=110 bench/gpu/run-all.sh lease > "$work.call2.stdout" 2>&1 \
  || { cat "$work.call2.stdout"; fail "the resuming call did not finish the plan"; }
log=$work.call2/run-all.log
grep -q "continuing from the carried archive" "$log"
grep -q "round 1/3: layerbench already measured" "$work/lease2/logs/round1.log" \
  || fail "call 2 measured round 1's LayerBench side again"
grep -q "done: binaries gputests round1 round2 round3 flops models-fit report parity compiled cube" "$log"
"$python" - "$work" << 'PYTHON'
import json, sys
from pathlib import Path
work = Path(sys.argv[1])
before = json.loads((work / "unpacked1" / "run-1.json").read_text())
after = json.loads((work / "lease2" / "run-1.json").read_text())
assert before == after, "run-1.json changed between the calls"
parity = json.loads((work / "lease2" / "parity.json").read_text())
assert parity["rounds"] == 3 and len(parity["cells"]) == 4, parity
back = sorted(path.name for path in (work.parent / (work.name + ".call2")).iterdir())
assert back == ["gpu-results.tar.gz", "run-all.log"], back
print("lease_check: call 2 resumed from call 1's archive and finished the plan; run-1.json kept as it came back")
PYTHON
