#!/usr/bin/env bash
# The GPU lease, from the repository root on the GPU machine (docs/device.md gives the time plan: which
# steps go in which device call, what each call carries, how long each takes):
#
#   bench/gpu/run-all.sh [STEP...]
#
# build     scripts/device-build.sh: layerbench and the GPU doctests (needs .deb/ carried); skipped when the
#           sources are unchanged since the last build, or when a carried prebuilt binary matches them
# gputests  the GPU doctests (device/cuda_method) and tests/bench_cuda_check.sh, into gputests.log
# roundN    round N (N = 1, 2, 3, ...) of the parity benchmark: one fresh `layerbench run --device cuda` process
#           (eager and graph, hot and cold L2, clocks) into run-N.json and one fresh Python process timing the
#           same cells with torch.utils.benchmark into python-N.json; odd rounds run LayerBench first. A round cut
#           short resumes where it stopped (run-N.json.partial, python-N.json.partial); a finished one is skipped
# runs      RUNS fresh-process `layerbench run`s into run-<i>.json, with no Python side (the CPU check uses it)
# timer     bench/gpu/python_timer.py into python_timer.json (with the TransformerEncoder[need_weights] twin)
# flops     bench/gpu/flop_counter.py (FlopCounterMode on the device) into flops.json
# report    bench/gpu/validation_report.py into validation.json and validation.md
# parity    bench/parity/parity.py --assemble: the rounds into parity.json (layerbench-parity 1.0.0)
# cube      `layerbench run --preset cube` (every setting the device supports, AOTInductor packages exported by
#           LAYERBENCH_TORCH_PYTHON into WORK/aoti) into cube.json, over LAYERS and BATCH_SIZES; not a default step:
#           it runs in chunks of at most STEP_SECONDS, each resumed by the next call (cube.json.partial)
# models    `layerbench run --preset models` (ResNet50, BertBase, BertLarge: inference and a training step in fp32,
#           tf32, bf16 and fp16, and fp32 inference from an AOTInductor package exported by LAYERBENCH_TORCH_PYTHON
#           into WORK/aoti; batch sizes 1 to 512, those that do not fit skipped) into models.json; not a default
#           step: it runs in chunks of at most STEP_SECONDS, each resumed by the next call (models.json.partial)
# models-parity  bench/models/parity.py: the eager model cells of models.json against torch.utils.benchmark on the
#           same device, into models-parity.json
# Default: build gputests round1 round2 round3 timer flops report parity (more than one device call holds).
#
# Nothing measured is lost when a call ends early:
# - every step runs under its own deadline, the smaller of STEP_SECONDS and what is left of CALL_SECONDS less
#   RESERVE_SECONDS; at its deadline it gets SIGINT (LayerBench saves its checkpoint, parity.py keeps its cells),
#   and SIGKILL GRACE_SECONDS later. A step with less than MIN_STEP_SECONDS left is not started;
# - each step's output goes to WORK/logs/<step>.log as well as to $OUT/run-all.log;
# - after every step, and every PACK_EVERY seconds while a step runs, WORK is packed into $OUT/gpu-results.tar.gz
#   (one fixed name, replaced only by a whole new archive), so a call killed at its limit still brings back every
#   cell finished by the last pack (LayerBench and parity.py write each cell to disk as it ends). AOTInductor packages
#   (WORK/aoti) never go into it. An archive over 15 MiB is split into gpu-results.tar.gz.NN parts (cat them);
# - CARRIED (default gpu-carry/gpu-results.tar.gz, git-ignored, carried with the call) is the archive that an
#   earlier call brought back: it is unpacked into WORK first, never over a file that WORK already has, so a
#   later call or a later lease continues from it.
# One kind of machine: the device's name is written to WORK/device-name.txt on first use; a WORK (or a carried
# archive) measured on a different device is refused, so rounds of two GPUs are never combined.
#
# Environment: OUT (required), WORK (gpu-results/ here), PACK (yes), DEVICE (cuda), RUNS (3), LAYERS (all),
# BATCH_SIZES (1,8,32,128), TIMER_MIN_RUN_TIME (0.5 s per cell), RUN_ARGS (more options for `layerbench run` in the
# runs and cube steps), PARITY_ID (parity-cuda), THREADS (all cores; both sides of the rounds),
# LAYERBENCH_TORCH_PYTHON (/opt/torch/.venv/bin/python), BIN (build-device-gpu/layerbench), CARRIED,
# CALL_SECONDS (600: the device tool's limit per command), RESERVE_SECONDS (40), STEP_SECONDS (480),
# MIN_STEP_SECONDS (30), GRACE_SECONDS (20), PACK_EVERY (60 s).
set -euo pipefail

: "${OUT:?set OUT to the folder for the results}"
device=${DEVICE:-cuda}
runs=${RUNS:-3}
layers=${LAYERS:-all}
# `layerbench run`'s default (engine/dataset/batch_sizes.hpp; a test holds this copy to it).
batch_sizes=${BATCH_SIZES:-1,8,32,128}
timer_min_run_time=${TIMER_MIN_RUN_TIME:-0.5}
python=${LAYERBENCH_TORCH_PYTHON:-/opt/torch/.venv/bin/python}
binary=${BIN:-build-device-gpu/layerbench}
work=${WORK:-$PWD/gpu-results}
pack=${PACK:-yes}
parity_id=${PARITY_ID:-parity-cuda}
threads=${THREADS:-$(nproc)}
carried=${CARRIED:-gpu-carry/gpu-results.tar.gz}
call_seconds=${CALL_SECONDS:-600}
reserve_seconds=${RESERVE_SECONDS:-40}
step_seconds=${STEP_SECONDS:-480}
min_step_seconds=${MIN_STEP_SECONDS:-30}
grace_seconds=${GRACE_SECONDS:-20}
pack_every=${PACK_EVERY:-60}
here=$(cd "$(dirname "$0")" && pwd)
archive_name=gpu-results.tar.gz
split_bytes=$((15 * 1024 * 1024))
[[ -x "$python" ]] || python=$(command -v python3)

# ---- the steps (each runs in a process of its own: `run-all.sh --step NAME`) --------------------------------

need_binary() {
  [[ -x "$binary" ]] || { echo "run-all: no layerbench at $binary: run the build step first (or set BIN)" >&2; return 1; }
}

# A carried prebuilt binary (scripts/device-build.sh --prebuilt DIR, made on a build machine) finds torch's
# libraries through this machine's Python and the carried ones beside it.
runtime_library_path() {
  local torch_lib
  torch_lib=$("$python" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))' 2> /dev/null) || true
  echo "$(dirname "$binary")/lib${torch_lib:+:$torch_lib}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
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
  ((status == 0)) && echo "run-all: gputests passed" || echo "run-all: gputests FAILED (exit $status): see gputests.log"
}

step_round() {
  need_binary
  "$python" "$here/../parity/parity.py" --device "$device" --round "$1" --rounds "$runs" --keep-dir "$work" \
    --binary "$binary" --layers "$layers" --batch-sizes "$batch_sizes" --min-run-time "$timer_min_run_time" \
    --threads "$threads"
}

# `layerbench run` into $1, resumed from its checkpoint when an earlier call left one, skipped when done.
layerbench_run() {
  local out=$1 resume=()
  shift
  if [[ -e $out ]]; then
    echo "run-all: $(basename "$out") is already measured; skipped"
    return 0
  fi
  [[ -e $out.partial ]] && resume=(--resume) && echo "run-all: resuming $(basename "$out") from its checkpoint"
  "$binary" run --device "$device" --batch-sizes "$batch_sizes" "$@" "${resume[@]}" --out "$out"
}

step_runs() {
  local layer_args=() i
  [[ $layers == all ]] || layer_args=(--layers "$layers")
  need_binary
  for ((i = 1; i <= runs; i++)); do
    echo "run-all: layerbench run $i of $runs"
    # shellcheck disable=SC2086 # RUN_ARGS is a list of options
    layerbench_run "$work/run-$i.json" "${layer_args[@]}" ${RUN_ARGS:-}
  done
}

step_cube() {
  local layer_args=()
  [[ $layers == all ]] || layer_args=(--layers "$layers")
  need_binary
  # shellcheck disable=SC2086 # RUN_ARGS is a list of options
  LAYERBENCH_PYTHON="$python" layerbench_run "$work/cube.json" --preset cube "${layer_args[@]}" \
    --aoti-cache "$work/aoti" ${RUN_ARGS:-}
}

step_models() {
  need_binary
  # shellcheck disable=SC2086 # RUN_ARGS is a list of options
  LAYERBENCH_PYTHON="$python" layerbench_run "$work/models.json" --preset models --aoti-cache "$work/aoti" ${RUN_ARGS:-}
}

step_models-parity() {
  [[ -e $work/models.json ]] || { echo "run-all: models-parity needs models.json (run the models step first)" >&2; return 1; }
  python_once models-parity.json "$here/../models/parity.py" --dataset "$work/models.json" --device "$device" \
    --threads "$threads"
}

# Runs a Python script with `--out WORK/FILE.tmp` added, and renames its output into place only once whole;
# skipped when an earlier call measured it.
python_once() {
  local file=$1
  shift
  [[ -e $work/$file ]] && { echo "run-all: $file is already measured; skipped"; return 0; }
  "$python" "$@" --out "$work/$file.tmp"
  mv "$work/$file.tmp" "$work/$file"
}

step_timer() {
  python_once python_timer.json "$here/python_timer.py" --device "$device" --layers "$layers" \
    --batch-sizes "$batch_sizes" --min-run-time "$timer_min_run_time" --with-variants
}

step_flops() {
  python_once flops.json "$here/flop_counter.py" --device "$device" --layers "$layers"
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

run_one_step() {
  case "$1" in
    round*) step_round "${1#round}" ;;
    *) "step_$1" ;;
  esac
}

if [[ ${1:-} == --step ]]; then
  work=$(cd "$work" && pwd)
  if [[ $binary == */* && -d $(dirname "$binary")/lib ]]; then
    LD_LIBRARY_PATH=$(runtime_library_path)
    export LD_LIBRARY_PATH
  fi
  run_one_step "$2"
  exit
fi

# ---- the call: check, resume, run each step under its deadline, pack after each ------------------------------

steps=("$@")
((${#steps[@]} > 0)) || steps=(build gputests round1 round2 round3 timer flops report parity)
for step in "${steps[@]}"; do
  case "$step" in
    build|gputests|runs|timer|flops|report|parity|cube|models|models-parity) ;;
    round[1-9]|round[1-9][0-9]) ;;
    *) echo "run-all: unknown step '$step' (build, gputests, roundN, runs, timer, flops, report, parity, cube, models, models-parity)" >&2; exit 2 ;;
  esac
done
for number in call_seconds reserve_seconds step_seconds min_step_seconds grace_seconds pack_every; do
  [[ ${!number} =~ ^[0-9]+$ ]] || { echo "run-all: ${number^^} must be a whole number of seconds, not '${!number}'" >&2; exit 2; }
done
command -v timeout > /dev/null || { echo "run-all: 'timeout' (coreutils) is missing; it bounds every step" >&2; exit 2; }
mkdir -p "$OUT" "$work/logs"
work=$(cd "$work" && pwd)
exec > >(tee -a "$OUT/run-all.log") 2>&1
tee_pid=$!

started=$SECONDS
deadline=$((call_seconds - reserve_seconds))
log() { echo "run-all: [$((SECONDS - started)) s] $*"; }

device_name() {
  if [[ $device == cuda* ]]; then
    nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -n 1 | sed 's/ *$//'
  else
    sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1
  fi
}

# Packs WORK into $OUT/gpu-results.tar.gz, replacing the last archive only once the new one is whole.
pack_work() {
  [[ $pack == yes ]] || return 0
  local temporary=$OUT/.gpu-results.packing size status=0
  # A file that changes while it is read (a checkpoint being replaced) makes tar exit 1 and is still packed
  # whole or as before: LayerBench replaces files by rename, and parity.py only appends lines.
  tar czf "$temporary" --exclude=./aoti --exclude='*.pt2' --exclude='*.tmp' --exclude='*.lock' -C "$work" . 2> /dev/null || status=$?
  ((status <= 1)) || { log "packing failed (tar exit $status)"; return 0; }
  rm -f "$OUT/$archive_name".[0-9][0-9]
  size=$(stat -c %s "$temporary")
  if ((size > split_bytes)); then
    split -b "$split_bytes" -d "$temporary" "$OUT/$archive_name."
    rm -f "$temporary" "$OUT/$archive_name"
    log "packed $(find "$work" -type f -not -path "$work/aoti/*" | wc -l) files into $(ls "$OUT/$archive_name".[0-9][0-9] | wc -l) parts of $OUT/$archive_name (cat them)"
  else
    mv -f "$temporary" "$OUT/$archive_name"
    log "packed $(find "$work" -type f -not -path "$work/aoti/*" | wc -l) files ($size bytes) into $OUT/$archive_name"
  fi
}

finish() {
  local status=$?
  pack_work
  log "exit $status"
  # Let tee write its last lines before the device tool collects $OUT.
  exec >&- 2>&-
  wait "$tee_pid"
}
trap finish EXIT

if [[ -f $carried ]]; then
  log "continuing from the carried archive $carried"
  tar xzf "$carried" --skip-old-files -C "$work" || { log "the carried archive $carried cannot be unpacked"; exit 1; }
fi
name=$(device_name)
if [[ -s $work/device-name.txt ]]; then
  recorded=$(cat "$work/device-name.txt")
  if [[ -n $name && $name != "$recorded" ]]; then
    log "refused: $work holds results measured on '$recorded', and this machine is '$name'; rounds of two devices" \
      "are never combined: start with an empty WORK (and no carried archive) on this device"
    exit 3
  fi
elif [[ -n $name ]]; then
  echo "$name" > "$work/device-name.txt"
fi
log "device '${name:-unknown}'; call limit ${call_seconds} s, steps end by $deadline s; steps: ${steps[*]}"

failed=()
for step in "${steps[@]}"; do
  left=$((deadline - (SECONDS - started)))
  seconds=$((left < step_seconds ? left : step_seconds))
  if ((seconds < min_step_seconds)); then
    log "step $step not started: ${left} s left of this call; run it in the next call"
    failed+=("$step(not started)")
    continue
  fi
  log "step $step (deadline ${seconds} s)"
  status=0
  packer=
  if [[ $pack == yes ]] && ((pack_every > 0)); then
    # TERM ends it at once while it waits, and after the pack while it packs (bash runs the trap once
    # its foreground tar is done), never in the middle of one.
    (trap exit TERM; while :; do sleep "$pack_every" & wait $!; pack_work > /dev/null; done) &
    packer=$!
  fi
  timeout --signal=INT --kill-after="$grace_seconds" "$seconds" "$0" --step "$step" \
    > >(tee -a "$work/logs/$step.log") 2>&1 || status=$?
  if [[ -n $packer ]]; then
    kill "$packer" 2> /dev/null || true
    wait "$packer" 2> /dev/null || true
  fi
  case $status in
    0) log "step $step done" ;;
    124|130|137) log "step $step reached its deadline (exit $status); what it measured is kept, and the same step resumes in the next call"
                 failed+=("$step(deadline)") ;;
    *) log "step $step FAILED (exit $status): see logs/$step.log"; failed+=("$step(exit $status)") ;;
  esac
  pack_work
done
if ((${#failed[@]} > 0)); then
  log "unfinished: ${failed[*]}"
  exit 1
fi
log "done: ${steps[*]}"
