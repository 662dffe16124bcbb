#!/usr/bin/env bash
# The GPU lease, from the repository root on the GPU machine (docs/device.md says which steps go in which
# device call, and how long each takes):
#
#   bench/gpu/run-all.sh [STEP...]
#
# build     scripts/device-build.sh: layerbench and the GPU doctests (needs .deb/ carried)
# gputests  the GPU doctests (device/cuda_method) and tests/bench_cuda_check.sh, into gputests.log
# roundN    round N (N = 1, 2, 3, ...) of the parity benchmark: one fresh `layerbench run --device cuda` process
#           (eager and graph, hot and cold L2, clocks) into run-N.json and one fresh Python process timing the
#           same cells with torch.utils.benchmark into python-N.json; odd rounds run LayerBench first
# runs      RUNS fresh-process `layerbench run`s into run-<i>.json, with no Python side (the CPU check uses it)
# timer     bench/gpu/python_timer.py into python_timer.json (with the TransformerEncoder[need_weights] twin)
# flops     bench/gpu/flop_counter.py (FlopCounterMode on the device) into flops.json
# report    bench/gpu/validation_report.py into validation.json and validation.md
# parity    bench/parity/parity.py --assemble: the rounds into parity.json (layerbench-parity 1.0.0)
# cube      `layerbench run --preset cube` (issue 13: every setting the device supports, AOTInductor packages
#           exported by LAYERBENCH_TORCH_PYTHON into WORK/aoti) into cube.json, over LAYERS and BATCH_SIZES; not a
#           default step: the whole CUDA cube outlasts one device call, so give it a few layers or batch sizes
#           (RUN_ARGS="--axes ..." narrows the axes), and --resume continues it in the next call
# Default: build gputests round1 round2 round3 timer flops report parity (more than one device call holds).
#
# Files go to WORK (default gpu-results/ here, so rounds from earlier calls on a warm machine stay). At the end,
# on failure too, WORK is packed into $OUT/gpu-results-<time>.tar.gz beside $OUT/run-all.log: two files, as the
# device tool brings back at most eight (PACK=no leaves the files in WORK only).
#
# Environment: OUT (required), WORK, PACK (yes), DEVICE (cuda), RUNS (3), LAYERS (all), BATCH_SIZES (1,8,32,128),
# TIMER_MIN_RUN_TIME (0.5 s per cell), RUN_ARGS (more options for `layerbench run` in the runs step),
# PARITY_ID (parity-cuda), THREADS (all cores; both sides of the rounds), LAYERBENCH_TORCH_PYTHON (/opt/torch/.venv/bin/python), BIN (build-device-gpu/layerbench).
set -euo pipefail

: "${OUT:?set OUT to the folder for the results}"
device=${DEVICE:-cuda}
runs=${RUNS:-3}
layers=${LAYERS:-all}
batch_sizes=${BATCH_SIZES:-1,8,32,128}
timer_min_run_time=${TIMER_MIN_RUN_TIME:-0.5}
python=${LAYERBENCH_TORCH_PYTHON:-/opt/torch/.venv/bin/python}
binary=${BIN:-build-device-gpu/layerbench}
work=${WORK:-$PWD/gpu-results}
pack=${PACK:-yes}
parity_id=${PARITY_ID:-parity-cuda}
threads=${THREADS:-$(nproc)}
here=$(cd "$(dirname "$0")" && pwd)

steps=("$@")
((${#steps[@]} > 0)) || steps=(build gputests round1 round2 round3 timer flops report parity)
for step in "${steps[@]}"; do
  case "$step" in
    build|gputests|runs|timer|flops|report|parity|cube) ;;
    round[1-9]|round[1-9][0-9]) ;;
    *) echo "run-all: unknown step '$step' (build, gputests, roundN, runs, timer, flops, report, parity, cube)" >&2; exit 2 ;;
  esac
done
[[ -x "$python" ]] || python=$(command -v python3)
mkdir -p "$OUT" "$work"
work=$(cd "$work" && pwd)
exec > >(tee -a "$OUT/run-all.log") 2>&1
tee_pid=$!

started=$SECONDS
log() { echo "run-all: [$((SECONDS - started)) s] $*"; }

finish() {
  local status=$?
  if [[ $pack == yes ]]; then
    local archive
    archive=$OUT/gpu-results-$(date -u +%H%M%S).tar.gz
    tar czf "$archive" -C "$work" . && log "packed $(find "$work" -type f | wc -l) files of $work into $archive"
  fi
  log "exit $status"
  # Let tee write its last lines before the device tool collects $OUT.
  exec >&- 2>&-
  wait "$tee_pid"
}
trap finish EXIT

need_binary() {
  [[ -x "$binary" ]] || { echo "run-all: no layerbench at $binary: run the build step first (or set BIN)" >&2; return 1; }
}

step_build() {
  if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.applications.graphics \
      --format=csv || true
  fi
  LAYERBENCH_TORCH_PYTHON=$python scripts/device-build.sh --target layerbench --target test_gpu_bench
}

# A failing check is logged and the later steps still run: the lease is too short to stop at the first.
step_gputests() {
  need_binary
  local tests status=0
  tests=$(dirname "$binary")/tests/test_gpu_bench
  { "$tests" && bash tests/bench_cuda_check.sh "$binary"; } > "$work/gputests.log" 2>&1 || status=$?
  tail -n 25 "$work/gputests.log"
  ((status == 0)) && log "gputests passed" || log "gputests FAILED (exit $status): see gputests.log"
}

step_round() {
  need_binary
  if [[ -e $work/run-$1.json || -e $work/python-$1.json ]]; then
    echo "run-all: round $1 is already in $work (run-$1.json or python-$1.json); measured files are never overwritten: move them away, or set WORK" >&2
    return 1
  fi
  "$python" "$here/../parity/parity.py" --device "$device" --round "$1" --rounds "$runs" --keep-dir "$work" \
    --binary "$binary" --layers "$layers" --batch-sizes "$batch_sizes" --min-run-time "$timer_min_run_time" \
    --threads "$threads"
}

step_runs() {
  local layer_args=() i
  [[ $layers == all ]] || layer_args=(--layers "$layers")
  need_binary
  for ((i = 1; i <= runs; i++)); do
    log "layerbench run $i of $runs"
    # shellcheck disable=SC2086 # RUN_ARGS is a list of options
    "$binary" run --device "$device" --batch-sizes "$batch_sizes" "${layer_args[@]}" ${RUN_ARGS:-} \
      --out "$work/run-$i.json"
  done
}

step_cube() {
  local layer_args=() resume=()
  [[ $layers == all ]] || layer_args=(--layers "$layers")
  [[ -e $work/cube.json.partial ]] && resume=(--resume)
  need_binary
  # shellcheck disable=SC2086 # RUN_ARGS is a list of options
  LAYERBENCH_PYTHON="$python" "$binary" run --device "$device" --preset cube --batch-sizes "$batch_sizes" \
    "${layer_args[@]}" --aoti-cache "$work/aoti" ${RUN_ARGS:-} "${resume[@]}" --out "$work/cube.json"
}

step_timer() {
  "$python" "$here/python_timer.py" --device "$device" --layers "$layers" --batch-sizes "$batch_sizes" \
    --min-run-time "$timer_min_run_time" --with-variants --out "$work/python_timer.json"
}

step_flops() {
  "$python" "$here/flop_counter.py" --device "$device" --layers "$layers" --out "$work/flops.json"
}

step_report() {
  local run_args=() file
  for file in "$work"/run-*.json; do
    [[ -f "$file" ]] && run_args+=(--run "$file")
  done
  ((${#run_args[@]} > 0)) || { echo "run-all: no $work/run-*.json to report on" >&2; return 1; }
  "$python" "$here/validation_report.py" "${run_args[@]}" --python-timer "$work/python_timer.json" \
    --flops "$work/flops.json" --out-json "$work/validation.json" --out-md "$work/validation.md"
}

step_parity() {
  rm -f "$work/parity.json"
  "$python" "$here/../parity/parity.py" --device "$device" --assemble "$work" --id "$parity_id" \
    --min-run-time "$timer_min_run_time" --threads "$threads" --out "$work/parity.json"
}

for step in "${steps[@]}"; do
  log "step $step"
  case "$step" in
    round*) step_round "${step#round}" ;;
    *) "step_$step" ;;
  esac
done
log "done: ${steps[*]}"
