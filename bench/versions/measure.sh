#!/usr/bin/env bash
# The reference matrix measured on each torch release of bench/versions/releases.txt, on this
# machine's CPU: one dataset per release, under the rules of comparable numbers (docs/versions.md).
#
#   bench/versions/measure.sh [--publish DATA_DIR --id-prefix PREFIX [--label LABEL]] OUTDIR [RELEASE...] [-- RUN_ARGS...]
#
# With --publish, each release measured is published into DATA_DIR as PREFIX-torch-X-Y-Z, labelled
# "LABEL, torch X.Y.Z" with --label LABEL (else the run's own label and the release) (its next
# version; `layerbench publish` refuses a busy or dirty run, and that release is then reported as
# publish-failed while the others go on). The site's version history (docs/versions.md) reads them.
#
# Every release is set up and built first: `TORCH_VERSION=X make setup build` (its own venv and build
# folder). Then the releases take turns round by round: round 1 of every release, then round 2 of every
# release, and so on, each `build-X/layerbench run --device cpu --rounds R --stop-after-round r [--resume]
# RUN_ARGS --out OUTDIR/torch-X.json`, whose last round writes the dataset. Measured one release after
# another, a drift of the machine over the hour (heat, a neighbour, the page cache) would fall on the
# releases measured last, as a difference between releases; taking turns spreads it over all of them.
# A release that cannot be installed or built, or whose run fails in a round, is reported with its
# first error, and the others go on. Refuses a tree with uncommitted changes: every dataset names the
# commit it was built from. Run it on a quiet machine (nothing else building or measuring): `run`
# records how busy the other cores were, and `publish` refuses a busy run. OUTDIR/summary.tsv lists
# each release's outcome, seconds and disk, rewritten after every round (measure_s sums the rounds).
# RUN_ARGS after `--` narrow the matrix for a trial (e.g. -- --layers Linear --batch-sizes 1 --rounds 1);
# R is their --rounds, 3 when not given. MEASURE_DRY_RUN=1 prints the commands, in their order, instead
# of running them (and does not look at the tree).
set -uo pipefail

usage() {
  echo "usage: bench/versions/measure.sh [--publish DATA_DIR --id-prefix PREFIX [--label LABEL]] OUTDIR [RELEASE...] [-- RUN_ARGS...]" >&2
  exit 2
}
publish_dir="" id_prefix="" label=""
while [[ "${1:-}" == --publish || "${1:-}" == --id-prefix || "${1:-}" == --label ]]; do
  [[ -n "${2:-}" ]] || usage
  case $1 in
    --publish) publish_dir=$2 ;;
    --id-prefix) id_prefix=$2 ;;
    --label) label=$2 ;;
  esac
  shift 2
done
if [[ -n "$publish_dir" && -z "$id_prefix" ]] || [[ -z "$publish_dir" && -n "$id_prefix" ]]; then
  echo "measure.sh: --publish and --id-prefix go together (the ids are PREFIX-torch-X-Y-Z)" >&2
  exit 2
fi
out=${1:-}
[[ -n "$out" && "$out" != -* ]] || usage
shift
releases=()
while (($# > 0)) && [[ "$1" != "--" ]]; do releases+=("$1"); shift; done
[[ "${1:-}" == "--" ]] && shift
run_args=()
rounds=3
while (($# > 0)); do
  case $1 in
    --rounds) rounds=${2:-}; shift ;;
    --rounds=*) rounds=${1#--rounds=} ;;
    *) run_args+=("$1") ;;
  esac
  shift
done
if ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
  echo "measure.sh: --rounds: '$rounds' is not a number of rounds" >&2
  exit 2
fi
dry_run=${MEASURE_DRY_RUN:-}

cd "$(dirname "$0")/../.." || exit 1
if ((${#releases[@]} == 0)); then
  mapfile -t releases < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/[[:space:]]//g' bench/versions/releases.txt)
fi
if [[ -z "$dry_run" ]] && { ! git diff --quiet HEAD || ! git diff --cached --quiet; }; then
  echo "measure.sh: the tree has uncommitted changes; commit them first, so each dataset names its source" >&2
  exit 1
fi
mkdir -p "$out"
summary="$out/summary.tsv"

# What went wrong, in one line: CMake's first message, else the compiler's (or pip's) first error,
# else the log's last line.
first_error() {
  if grep -q 'CMake Error' "$1"; then
    awk '/CMake Error/ { on = 1; next } on && /^$/ && seen { exit } on && NF { seen = 1; print }' "$1" \
      | tr -s ' ' | paste -sd ' ' | sed 's/ *Call Stack.*//'
  else
    grep -m1 -E 'error:|ERROR' "$1" || tail -n 1 "$1"
  fi
}

# Runs "$@", logged to $log, timed into $seconds; a dry run prints it instead.
timed() {
  local start=$SECONDS status=0
  if [[ -n "$dry_run" ]]; then
    echo "$*"
    : > "$log"
  else
    "$@" > "$log" 2>&1
    status=$?
  fi
  seconds=$((SECONDS - start))
  return $status
}

# Each release's row of summary.tsv, kept here between the build and the rounds.
declare -A venv build outcome setup_s build_s measure_s venv_disk build_disk detail
write_summary() {
  printf 'release\toutcome\tsetup_s\tbuild_s\tmeasure_s\tvenv\tbuild_dir\tdetail\n' > "$summary"
  local release
  for release in "${releases[@]}"; do
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$release" "${outcome[$release]}" "${setup_s[$release]}" \
      "${build_s[$release]}" "${measure_s[$release]}" "${venv_disk[$release]}" "${build_disk[$release]}" \
      "${detail[$release]}" >> "$summary"
  done
}

# Sets up and builds one release; its outcome is "built", or the step that failed with its first error.
set_up() {
  local release=$1
  log="$out/torch-$release.log"
  if ! timed make TORCH_VERSION="$release" setup; then
    outcome[$release]=setup-failed detail[$release]=$(first_error "$log")
    return
  fi
  setup_s[$release]=$seconds
  if ! timed nice -n 19 make TORCH_VERSION="$release" JOBS="${JOBS:-1}" build; then
    outcome[$release]=build-failed detail[$release]=$(first_error "$log")
    return
  fi
  build_s[$release]=$seconds measure_s[$release]=0 outcome[$release]=built
}

for release in "${releases[@]}"; do
  venv[$release]=$(make -s --no-print-directory TORCH_VERSION="$release" print-venv)
  build[$release]=$(make -s --no-print-directory TORCH_VERSION="$release" print-build)
  outcome[$release]=- setup_s[$release]=- build_s[$release]=- measure_s[$release]=- detail[$release]=
  echo "== torch $release: ${venv[$release]}, ${build[$release]}" >&2
  set_up "$release"
  venv_disk[$release]=$(du -sh "${venv[$release]}" 2>/dev/null | cut -f1)
  build_disk[$release]=$(du -sh "${build[$release]}" 2>/dev/null | cut -f1)
  echo "   ${outcome[$release]}${detail[$release]:+: ${detail[$release]}}" >&2
done
write_summary

# Round r of every release still going, then round r + 1: the run in rounds stops after each round
# (--stop-after-round) and continues from its OUT.rounds/ folder (--resume), as after an interruption.
for ((r = 1; r <= rounds; r++)); do
  for release in "${releases[@]}"; do
    [[ ${outcome[$release]} == built || ${outcome[$release]} == measuring ]] || continue
    log="$out/torch-$release.round-$r.log"
    turn=()
    if ((rounds > 1)); then
      turn=(--stop-after-round "$r")
    fi
    if ((r > 1)); then
      turn+=(--resume)
    fi
    echo "== torch $release: round $r of $rounds" >&2
    if ! timed "${build[$release]}/layerbench" run --device cpu --rounds "$rounds" "${turn[@]}" "${run_args[@]}" \
         --out "$out/torch-$release.json"; then
      outcome[$release]=run-failed detail[$release]="round $r: $(first_error "$log")"
    elif ((r == rounds)); then
      outcome[$release]=measured detail[$release]="$out/torch-$release.json"
    else
      outcome[$release]=measuring detail[$release]="round $r of $rounds done"
    fi
    measure_s[$release]=$((measure_s[$release] + seconds))
    echo "   ${outcome[$release]}${detail[$release]:+: ${detail[$release]}}" >&2
  done
  write_summary
done

failures=0
measured=()
for release in "${releases[@]}"; do
  if [[ ${outcome[$release]} == measured ]]; then
    measured+=("$release")
  else
    failures=$((failures + 1))
  fi
done

# Published only when every release is measured: publishing changes data/, and a build after that
# would record the tree as dirty (and publish would refuse what it measured).
for release in "${measured[@]}"; do
  [[ -n "$publish_dir" ]] || break
  log="$out/torch-$release.publish.log"
  label_args=()
  [[ -z "$label" ]] || label_args=(--label "$label, torch $release")
  if timed "${build[$release]}/layerbench" publish \
       "$out/torch-$release.json" --data "$publish_dir" --id "$id_prefix-torch-${release//./-}" "${label_args[@]}"; then
    echo "   published torch $release: $(tail -n 1 "$log")" >&2
  else
    failures=$((failures + 1))
    echo "   publish-failed torch $release: $(first_error "$log")" >&2
  fi
done
column -t -s $'\t' "$summary" >&2
exit $((failures > 0))
