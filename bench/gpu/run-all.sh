#!/usr/bin/env bash
# The GPU lease, from the repository root on the GPU machine (docs/device.md gives the time plan: which
# steps go in which device call, what each call carries, how long each takes):
#
#   bench/gpu/run-all.sh [STEP...]
#   bench/gpu/run-all.sh lease           the 15-minute lease in one call (below)
#   bench/gpu/run-all.sh --plan lease    its estimated seconds per step; exits 1 when they do not fit the call
#
# build     scripts/device-build.sh: layerbench and the GPU doctests (needs .deb/ carried); skipped when the
#           sources are unchanged since the last build, or when a carried prebuilt binary matches them
# binaries  the carried prebuilt binaries (scripts/device-build.sh --prebuilt-only: gpu-carry/prebuilt, made here by
#           `make device-carry DEVICE_PREBUILT=yes`); refuses to compile unless LEASE_BUILD=fallback; with BIN set, only
#           checks that BIN starts
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
# models-fit  MODELS (ResNet50, BertBase, BertLarge): inference and a training step, fp32 and bf16 (autocast), eager,
#           each model and mode at the largest power-of-two batch that fits the GPU's memory and MODEL_CELL_SECONDS
#           (bench/gpu/models_fit.py; MODEL_BATCH forces one), one `layerbench run` per mode and batch into
#           models-<mode>-b<batch>.json; cells out of memory are measured again at half the batch
# compiled  the torch.compile training cells (fp32) of COMPILE_MODELS (ResNet50, BertBase) at their models-fit batch,
#           into compiled-b<batch>.json; not started with less than COMPILED_MIN_SECONDS (90) left
# Default: build gputests round1 round2 round3 timer flops report parity (more than one device call holds).
#
# The lease (`lease`; docs/device.md gives the arithmetic): one call of CALL_SECONDS (480) on a Hopper GPU (compute
# capability 9.x, else refused before anything is measured; LEASE_COMPUTE_CAP injects one for the CPU rehearsal), in
# order of value: binaries gputests round1 round2 round3 flops [the priority steps, which end by PRIORITY_SECONDS,
# 300] models-fit report parity, then if time is left compiled and cube [optional: not started for lack of time is
# no failure]. Its budgets are the GPU's (LEASE_*, below; docs/device.md derives them), not the CPU's defaults:
# rounds with --warmup LEASE_WARMUP --cell-budget LEASE_CELL_BUDGET --min-samples LEASE_MIN_SAMPLES --block-target
# LEASE_BLOCK_TARGET (peaks and profiles in round 1 only: `merge --rounds` keeps the first round's), the Python side
# with min_run_time LEASE_MIN_RUN_TIME. A fresh lease whose plan (bench/gpu/lease_plan.py) does not fit is refused.
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
# Lease environment: PRIORITY_SECONDS (300), LEASE_WARMUP (0.05 s), LEASE_CELL_BUDGET (0.1 s), LEASE_MIN_SAMPLES (16),
# LEASE_BLOCK_TARGET (0.001 s), LEASE_MIN_RUN_TIME (0.05 s), LEASE_TIMER_OVERHEAD_US (10, for the plan), MODELS,
# MODEL_BATCH, MODEL_CELL_SECONDS (12), MODEL_CELL_BUDGET (0.5 s), MODEL_PRECISIONS (fp32,bf16), COMPILE_MODELS,
# COMPILED_MIN_SECONDS (90), CUBE_BATCH_SIZES (1,32),
# LEASE_BUILD (no; fallback allows a build), LEASE_COMPUTE_CAP (asked of nvidia-smi, else torch).
# Environment: OUT (required), WORK (gpu-results/ here), PACK (yes), DEVICE (cuda), RUNS (3), LAYERS (all),
# BATCH_SIZES (1,8,32,128), TIMER_MIN_RUN_TIME (0.5 s per cell), RUN_ARGS (more options for `layerbench run` in the
# runs and cube steps), PARITY_ID (parity-cuda), THREADS (all cores; both sides of the rounds),
# LAYERBENCH_TORCH_PYTHON (/opt/torch/.venv/bin/python), BIN (build-device-gpu/layerbench), CARRIED,
# CALL_SECONDS (600, the device tool's limit per command; the lease's 480), RESERVE_SECONDS (40; the lease's 15),
# STEP_SECONDS (480), MIN_STEP_SECONDS (30), GRACE_SECONDS (20), PACK_EVERY (60 s; the lease's 30).
set -euo pipefail

# The lease's steps, in order of value (docs/device.md, "The lease").
lease_priority=(binaries gputests round1 round2 round3 flops)
lease_required=(models-fit report parity)
lease_optional=(compiled cube)
plan_only=no
if [[ ${1:-} == --plan ]]; then
  [[ ${2:-} == lease && $# == 2 ]] || { echo "run-all: --plan takes one plan, lease: run-all.sh --plan lease" >&2; exit 2; }
  plan_only=yes
  shift
fi
if [[ ${1:-} == lease ]]; then
  [[ $# == 1 ]] || { echo "run-all: 'lease' is the whole plan; give no other step with it" >&2; exit 2; }
  export LEASE_MODE=yes
fi
lease=${LEASE_MODE:-no}

[[ $plan_only == yes ]] || : "${OUT:?set OUT to the folder for the results}"
device=${DEVICE:-cuda}
runs=${RUNS:-3}
layers=${LAYERS:-all}
# `layerbench run`'s default (engine/dataset/batch_sizes.hpp; a test holds this copy to it).
batch_sizes=${BATCH_SIZES:-1,8,32,128}
timer_min_run_time=${TIMER_MIN_RUN_TIME:-0.5}
# The lease's GPU budgets (docs/device.md, "Budgets for a GPU cell", derives each).
lease_warmup=${LEASE_WARMUP:-0.05}
lease_cell_budget=${LEASE_CELL_BUDGET:-0.1}
lease_min_samples=${LEASE_MIN_SAMPLES:-16}
lease_block_target=${LEASE_BLOCK_TARGET:-0.001}
lease_min_run_time=${LEASE_MIN_RUN_TIME:-0.05}
models=${MODELS:-ResNet50,BertBase,BertLarge}
model_batch=${MODEL_BATCH:-}
model_cell_seconds=${MODEL_CELL_SECONDS:-12}
model_cell_budget=${MODEL_CELL_BUDGET:-0.5}
model_precisions=${MODEL_PRECISIONS:-fp32,bf16}
compile_models=${COMPILE_MODELS-ResNet50,BertBase}
compiled_min_seconds=${COMPILED_MIN_SECONDS:-90}
cube_batch_sizes=${CUBE_BATCH_SIZES:-1,32}
round_args=${ROUND_ARGS:-}
later_round_args=${LATER_ROUND_ARGS:-}
if [[ $lease == yes ]]; then
  timer_min_run_time=${TIMER_MIN_RUN_TIME:-$lease_min_run_time}
  round_args=${ROUND_ARGS:-"--warmup $lease_warmup --cell-budget $lease_cell_budget --min-samples $lease_min_samples --block-target $lease_block_target"}
  later_round_args=${LATER_ROUND_ARGS:-"--no-peaks --no-profiles"}
fi
# A whole model's call outlasts the block target: the fewest samples, one warm-up call, a short budget.
model_args="--warmup 0 --warmup-iterations 1 --min-samples 3 --cell-budget $model_cell_budget"
python=${LAYERBENCH_TORCH_PYTHON:-/opt/torch/.venv/bin/python}
binary=${BIN:-build-device-gpu/layerbench}
work=${WORK:-$PWD/gpu-results}
pack=${PACK:-yes}
parity_id=${PARITY_ID:-parity-cuda}
threads=${THREADS:-$(nproc)}
carried=${CARRIED:-gpu-carry/gpu-results.tar.gz}
call_seconds=${CALL_SECONDS:-600}
reserve_seconds=${RESERVE_SECONDS:-40}
pack_every=${PACK_EVERY:-60}
if [[ $lease == yes ]]; then
  call_seconds=${CALL_SECONDS:-480}
  reserve_seconds=${RESERVE_SECONDS:-15}
  pack_every=${PACK_EVERY:-30}
fi
priority_seconds=${PRIORITY_SECONDS:-300}
step_seconds=${STEP_SECONDS:-480}
min_step_seconds=${MIN_STEP_SECONDS:-30}
grace_seconds=${GRACE_SECONDS:-20}
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

# The lease compiles nothing: the prebuilt binaries carried in gpu-carry/prebuilt, or the BIN it was given.
step_binaries() {
  if [[ -n ${BIN:-} ]]; then
    "$binary" layers > /dev/null || { echo "run-all: BIN=$binary does not start" >&2; return 1; }
    echo "run-all: BIN=$binary starts; no prebuilt binaries needed"
    return 0
  fi
  if [[ ${LEASE_BUILD:-no} == fallback ]]; then
    echo "run-all: LEASE_BUILD=fallback: building here if the prebuilt binaries do not serve (minutes of the lease)"
    step_build
    return
  fi
  LAYERBENCH_TORCH_PYTHON=$python scripts/device-build.sh --prebuilt-only --target layerbench --target test_gpu_bench
}

# A failing check is logged and the later steps still run: the lease is too short to stop at the first.
step_gputests() {
  need_binary
  local tests status=0
  tests=$(dirname "$binary")/tests/test_gpu_bench
  if [[ $device != cuda* ]]; then
    echo "run-all: gputests skipped: they need a GPU, and DEVICE is $device"
    return 0
  fi
  # A resume call does not run them again where an earlier call passed them with the same binaries (they took
  # 10 s of the resume call of 2026-11-28); gputests.passed holds those binaries' hash.
  local binary_hash
  binary_hash=$(cat "$binary" "$tests" 2> /dev/null | sha256sum | cut -d' ' -f1) || true
  if [[ -e $work/gputests.passed && $(cat "$work/gputests.passed") == "$binary_hash" ]]; then
    echo "run-all: gputests passed in an earlier call with these binaries; skipped"
    return 0
  fi
  # shellcheck disable=SC2086 # the lease's budgets are a list of options
  { "$tests" && bash tests/bench_cuda_check.sh "$binary" $round_args; } > "$work/gputests.log" 2>&1 || status=$?
  tail -n 25 "$work/gputests.log"
  if ((status == 0)); then
    echo "$binary_hash" > "$work/gputests.passed"
    echo "run-all: gputests passed"
  else
    rm -f "$work/gputests.passed"
    echo "run-all: gputests FAILED (exit $status): see gputests.log"
  fi
}

step_round() {
  local args=$round_args
  need_binary
  ((${1} == 1)) || args="$args $later_round_args"
  "$python" "$here/../parity/parity.py" --device "$device" --round "$1" --rounds "$runs" --keep-dir "$work" \
    --binary "$binary" --layers "$layers" --batch-sizes "$batch_sizes" --min-run-time "$timer_min_run_time" \
    --threads "$threads" --run-args "$args"
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
  local layer_args=() extra=${RUN_ARGS:-} out=$work/cube.json
  [[ $layers == all ]] || layer_args=(--layers "$layers")
  need_binary
  # The lease's chunk (cube-eager.json): its budgets, CUBE_BATCH_SIZES, no peaks (round 1 has them), and eager
  # corners only: one AOTInductor export takes about a minute, more than a lease has left by then.
  if [[ $lease == yes ]]; then
    extra="$round_args --no-peaks --no-profiles --axes compiled=eager $extra"
    batch_sizes=$cube_batch_sizes
    out=$work/cube-eager.json
  fi
  # shellcheck disable=SC2086 # RUN_ARGS is a list of options
  LAYERBENCH_PYTHON="$python" layerbench_run "$out" --preset cube "${layer_args[@]}" --aoti-cache "$work/aoti" $extra
}

# "MODEL MODE BATCH" per model and mode: MODEL_BATCH, or the largest that fits (bench/gpu/models_fit.py).
model_batches() {
  local model mode
  if [[ -n $model_batch ]]; then
    for model in ${models//,/ }; do
      for mode in inference_mode train; do echo "$model $mode $model_batch"; done
    done
    return 0
  fi
  "$python" "$here/models_fit.py" --models "$models" --device "$device" --cell-seconds "$model_cell_seconds"
}

# The cells of a dataset (or checkpoint) that ran out of memory, as "MODEL PRECISION" lines.
out_of_memory() {
  "$python" - "$1" << 'PYTHON'
import json, sys
for cell in json.load(open(sys.argv[1]))["results"]:
    if cell.get("status") == "skipped" and cell.get("skip_reason", "").startswith("out of memory"):
        print(cell["layer"], cell.get("axes", {}).get("precision", "fp32"))
PYTHON
}

# One `layerbench run` per mode and batch, of the models that fit it; cells out of memory again at half the batch.
step_models-fit() {
  local fits mode batch chosen out oom batch_sizes
  need_binary
  fits=$(model_batches) || return 1
  echo "run-all: models and batches: $(paste -sd';' <<< "$fits")"
  for mode in inference_mode train; do
    for batch in $(awk -v mode="$mode" '$2 == mode {print $3}' <<< "$fits" | sort -rnu); do
      chosen=$(awk -v mode="$mode" -v batch="$batch" '$2 == mode && $3 == batch {print $1}' <<< "$fits" | paste -sd,)
      while :; do
        out=$work/models-$mode-b$batch.json
        batch_sizes=$batch
        # shellcheck disable=SC2086 # the budgets are a list of options
        LAYERBENCH_PYTHON="$python" layerbench_run "$out" --preset models --layers "$chosen" --axes mode="$mode" \
          --axes compiled=eager --axes precision="$model_precisions" $model_args --no-peaks --no-profiles
        oom=$(out_of_memory "$out" | awk '{print $1}' | sort -u | paste -sd,)
        if [[ -z $oom ]] || ((batch == 1)); then
          break
        fi
        echo "run-all: out of memory at batch $batch in $mode: $oom; again at $((batch / 2))"
        chosen=$oom
        batch=$((batch / 2))
      done
    done
  done
}

# torch.compile's training cells, fp32, at each model's models-fit batch (compiling takes about a minute each).
step_compiled() {
  local fits batch chosen batch_sizes
  need_binary
  [[ -n $compile_models ]] || { echo "run-all: COMPILE_MODELS is empty; nothing to compile"; return 0; }
  fits=$(MODELS=$compile_models model_batches | awk '$2 == "train"') || return 1
  for batch in $(awk '{print $3}' <<< "$fits" | sort -rnu); do
    chosen=$(awk -v batch="$batch" '$3 == batch {print $1}' <<< "$fits" | paste -sd,)
    batch_sizes=$batch
    # shellcheck disable=SC2086 # the budgets are a list of options
    LAYERBENCH_PYTHON="$python" layerbench_run "$work/compiled-b$batch.json" --preset models --layers "$chosen" \
      --axes mode=train --axes compiled=torch_compile --axes precision=fp32 $model_args --no-peaks --no-profiles
  done
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
  local run_args=() file timer=(--python-timer "$work/python_timer.json")
  for file in "$work"/run-*.json; do
    [[ -f "$file" ]] && run_args+=(--run "$file")
  done
  ((${#run_args[@]} > 0)) || { echo "run-all: no $work/run-*.json to report on" >&2; return 1; }
  # The lease runs no timer step: the rounds' torch.utils.benchmark sides stand in for it.
  [[ -f $work/python_timer.json ]] || timer=(--python-rounds "$work")
  "$python" "$here/validation_report.py" "${run_args[@]}" "${timer[@]}" \
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
optional=()
if [[ $lease == yes ]]; then
  steps=("${lease_priority[@]}" "${lease_required[@]}" "${lease_optional[@]}")
  optional=("${lease_optional[@]}")
fi
((${#steps[@]} > 0)) || steps=(build gputests round1 round2 round3 timer flops report parity)
for step in "${steps[@]}"; do
  case "$step" in
    build|binaries|gputests|runs|timer|flops|report|parity|cube|models|models-parity|models-fit|compiled) ;;
    round[1-9]|round[1-9][0-9]) ;;
    *) echo "run-all: unknown step '$step' (build, binaries, gputests, roundN, runs, timer, flops, report, parity, cube, models, models-parity, models-fit, compiled; or lease)" >&2; exit 2 ;;
  esac
done
for number in call_seconds reserve_seconds step_seconds min_step_seconds grace_seconds pack_every priority_seconds compiled_min_seconds; do
  [[ ${!number} =~ ^[0-9]+$ ]] || { echo "run-all: ${number^^} must be a whole number of seconds, not '${!number}'" >&2; exit 2; }
done

in_list() { # in_list WORD LIST...
  local word=$1 item
  shift
  for item in "$@"; do [[ $item == "$word" ]] && return 0; done
  return 1
}

# The GPU's memory for the models' fit in the plan: the one present, else the H100's (lease_plan.py's default).
plan_memory_args() {
  local mib
  [[ -n ${LEASE_MEMORY_BYTES:-} ]] && { echo "--memory-bytes $LEASE_MEMORY_BYTES"; return 0; }
  mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits 2> /dev/null | head -n 1 | tr -dc 0-9) || true
  [[ -n $mib ]] && echo "--memory-bytes $((mib * 1024 * 1024))"
  return 0
}

# bench/gpu/lease_plan.py on the lease's settings: the estimate per step; exit 1 when it does not fit the call.
lease_plan() {
  local model_batch_args=()
  [[ -n $model_batch ]] && model_batch_args=(--model-batch "$model_batch")
  # shellcheck disable=SC2046 # plan_memory_args prints options
  "$python" "$here/lease_plan.py" --device "$([[ $device == cuda* ]] && echo cuda || echo cpu)" \
    --steps "${lease_priority[*]} ${lease_required[*]} ${lease_optional[*]}" --priority "${lease_priority[*]}" \
    --optional "${lease_optional[*]}" --layers "$layers" --batch-sizes "$batch_sizes" --warmup "$lease_warmup" \
    --cell-budget "$lease_cell_budget" --min-samples "$lease_min_samples" --block-target "$lease_block_target" \
    --min-run-time "$timer_min_run_time" --timer-overhead-us "${LEASE_TIMER_OVERHEAD_US:-10}" --models "$models" \
    "${model_batch_args[@]}" --model-cell-seconds "$model_cell_seconds" --model-cell-budget "$model_cell_budget" \
    --model-precisions "$model_precisions" \
    --compile-models "$compile_models" --priority-seconds "$priority_seconds" --call-seconds "$call_seconds" \
    --reserve-seconds "$reserve_seconds" $(plan_memory_args)
}

if [[ $plan_only == yes ]]; then
  echo "run-all: the lease plan on $device, a call of $call_seconds s whose priority steps end by $priority_seconds s"
  lease_plan
  exit
fi
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

# The lease's budgets, the prebuilt binaries (sm_90) and the comparison with the reference are for a Hopper GPU
# (H100, H200: compute capability 9.x). Asked before anything is unpacked or measured.
compute_capability() {
  if [[ -n ${LEASE_COMPUTE_CAP:-} ]]; then
    echo "$LEASE_COMPUTE_CAP"
    return 0
  fi
  nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null | head -n 1 | tr -d ' ' && return 0
  "$python" -c 'import torch; print("%d.%d" % torch.cuda.get_device_capability())' 2> /dev/null || true
}
if [[ $lease == yes || ${REQUIRE_HOPPER:-no} == yes ]]; then
  capability=$(compute_capability)
  if [[ ! $capability =~ ^9\.[0-9]+$ ]]; then
    log "refused: this machine's GPU has compute capability '${capability:-none found}', not a Hopper GPU (9.x: H100," \
      "H200); the lease's budgets and prebuilt binaries are for Hopper, so nothing was measured: give this machine" \
      "back and ask again with no kind (or kind=nvidia-h100-x1)"
    pack=no # no empty archive that could be taken for results
    exit 4
  fi
  log "compute capability $capability: a Hopper GPU"
fi

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
# The kind a resume call names: the one this call got (a resume call on another kind would be refused above).
case "$name" in
  *H200*) kind=nvidia-h200 ;;
  *H100*) kind=nvidia-h100-x1 ;;
  *) kind= ;;
esac
[[ -n $kind ]] && echo "$kind" > "$work/device-kind.txt"
log "device '${name:-unknown}'${kind:+ (a resume call names kind=$kind)}; call limit ${call_seconds} s, steps end by $deadline s; steps: ${steps[*]}"

if [[ $lease == yes ]]; then
  # A fresh lease whose plan does not fit is refused; a resume call goes on from what came back.
  status=0
  lease_plan || status=$?
  if ((status != 0)); then
    if compgen -G "$work/*.json*" > /dev/null; then
      log "the plan does not fit a whole call, but this call resumes one: its steps go on under their deadlines"
    else
      log "refused: the lease plan does not fit this call of $call_seconds s (priority steps by $priority_seconds s); nothing was measured"
      pack=no
      exit 5
    fi
  fi
fi

failed=()
skipped_optional=()
for step in "${steps[@]}"; do
  end=$deadline
  in_list "$step" "${lease_priority[@]}" && [[ $lease == yes ]] && ((priority_seconds < end)) && end=$priority_seconds
  left=$((end - (SECONDS - started)))
  seconds=$((left < step_seconds ? left : step_seconds))
  least=$min_step_seconds
  [[ $step == compiled ]] && least=$compiled_min_seconds
  if ((seconds < least)); then
    if ((${#optional[@]} > 0)) && in_list "$step" "${optional[@]}"; then
      log "step $step not started: ${left} s left, it needs $least; it is optional (if time is left)"
      skipped_optional+=("$step")
      continue
    fi
    log "step $step not started: ${left} s left of its ${end} s; run it in the next call"
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
  if [[ $lease == yes && $step == "${lease_priority[-1]}" ]]; then
    log "the priority steps (${lease_priority[*]}) ended at $((SECONDS - started)) s; their limit is $priority_seconds s"
  fi
done
if ((${#failed[@]} > 0)); then
  log "unfinished: ${failed[*]}${kind:+; a resume call (kind=$kind) with this archive as CARRIED continues}"
  exit 1
fi
ran=()
for step in "${steps[@]}"; do
  ((${#skipped_optional[@]} > 0)) && in_list "$step" "${skipped_optional[@]}" || ran+=("$step")
done
((${#skipped_optional[@]} == 0)) || log "optional steps not run for lack of time: ${skipped_optional[*]}"
log "done: ${ran[*]}"
