#!/usr/bin/env bash
# The whole GPU lease in one command, from the repository root on the GPU machine:
#
#   bench/gpu/run-all.sh [STEP...]     STEP: build runs timer flops report (default: all five, in order)
#
# build   scripts/device-build.sh (needs .deb/ carried; see docs/device.md)
# runs    RUNS fresh-process runs of `layerbench run` into $OUT/run-<i>.json
# timer   bench/gpu/python_timer.py into $OUT/python_timer.json
# flops   bench/gpu/flop_counter.py into $OUT/flops.json
# report  bench/gpu/validation_report.py into $OUT/validation.json and $OUT/validation.md
# Everything printed also goes to $OUT/run-all.log: eight files in all, what the device tool brings back.
#
# Environment: OUT (required), DEVICE (cuda), RUNS (3), LAYERS (all), BATCH_SIZES (1,8,32,128),
# TIMER_MIN_RUN_TIME (0.5 s per cell), RUN_ARGS (more options for `layerbench run`),
# LAYERBENCH_TORCH_PYTHON (/opt/torch/.venv/bin/python), BIN (build-device-gpu/layerbench).
set -euo pipefail

: "${OUT:?set OUT to the folder for the results}"
device=${DEVICE:-cuda}
runs=${RUNS:-3}
layers=${LAYERS:-all}
batch_sizes=${BATCH_SIZES:-1,8,32,128}
timer_min_run_time=${TIMER_MIN_RUN_TIME:-0.5}
python=${LAYERBENCH_TORCH_PYTHON:-/opt/torch/.venv/bin/python}
binary=${BIN:-build-device-gpu/layerbench}
here=$(dirname "$0")

steps=("$@")
((${#steps[@]} > 0)) || steps=(build runs timer flops report)
for step in "${steps[@]}"; do
  case "$step" in
    build|runs|timer|flops|report) ;;
    *) echo "run-all: unknown step '$step' (build, runs, timer, flops, report)" >&2; exit 2 ;;
  esac
done
[[ -x "$python" ]] || python=$(command -v python3)
mkdir -p "$OUT"
exec > >(tee -a "$OUT/run-all.log") 2>&1
tee_pid=$!
# Let tee write its last lines before the device tool collects $OUT, on failure too.
trap 'exec >&- 2>&-; wait "$tee_pid"' EXIT

started=$SECONDS
log() { echo "run-all: [$((SECONDS - started)) s] $*"; }

step_build() {
  if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv || true
  fi
  LAYERBENCH_TORCH_PYTHON=$python scripts/device-build.sh
}

step_runs() {
  local layer_args=() i
  [[ $layers == all ]] || layer_args=(--layers "$layers")
  [[ -x "$binary" ]] || { echo "run-all: no layerbench at $binary: run the build step first (or set BIN)" >&2; return 1; }
  for ((i = 1; i <= runs; i++)); do
    log "layerbench run $i of $runs"
    # shellcheck disable=SC2086 # RUN_ARGS is a list of options
    "$binary" run --device "$device" --batch-sizes "$batch_sizes" "${layer_args[@]}" ${RUN_ARGS:-} \
      --out "$OUT/run-$i.json"
  done
}

step_timer() {
  "$python" "$here/python_timer.py" --device "$device" --layers "$layers" --batch-sizes "$batch_sizes" \
    --min-run-time "$timer_min_run_time" --with-variants --out "$OUT/python_timer.json"
}

step_flops() {
  "$python" "$here/flop_counter.py" --device "$device" --layers "$layers" --out "$OUT/flops.json"
}

step_report() {
  local run_args=() file
  for file in "$OUT"/run-*.json; do
    [[ -f "$file" ]] && run_args+=(--run "$file")
  done
  ((${#run_args[@]} > 0)) || { echo "run-all: no $OUT/run-*.json to report on" >&2; return 1; }
  "$python" "$here/validation_report.py" "${run_args[@]}" --python-timer "$OUT/python_timer.json" \
    --flops "$OUT/flops.json" --out-json "$OUT/validation.json" --out-md "$OUT/validation.md"
}

for step in "${steps[@]}"; do
  log "step $step"
  "step_$step"
done
log "done: ${steps[*]}"
