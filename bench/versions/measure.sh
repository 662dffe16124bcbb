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
# For each release: `TORCH_VERSION=X make setup build` (its own venv and build folder), then
# `build-X/layerbench run --device cpu --rounds 3 RUN_ARGS --out OUTDIR/torch-X.json`. A release that
# cannot be installed or built is reported with its first error, and the others go on. Refuses a
# tree with uncommitted changes: every dataset names the commit it was built from. Run it on a quiet
# machine (nothing else building or measuring): `run` records how busy the other cores were, and
# `publish` refuses a busy run. OUTDIR/summary.tsv lists each release's outcome, seconds and disk.
# RUN_ARGS after `--` narrow the matrix for a trial (e.g. -- --layers Linear --batch-sizes 1 --rounds 1).
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
run_args=("$@")
rounds=(--rounds 3)
for arg in "${run_args[@]}"; do
  [[ $arg == --rounds* ]] && rounds=()
done

cd "$(dirname "$0")/../.."
if ((${#releases[@]} == 0)); then
  mapfile -t releases < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/[[:space:]]//g' bench/versions/releases.txt)
fi
if ! git diff --quiet HEAD || ! git diff --cached --quiet; then
  echo "measure.sh: the tree has uncommitted changes; commit them first, so each dataset names its source" >&2
  exit 1
fi
mkdir -p "$out"
summary="$out/summary.tsv"
printf 'release\toutcome\tsetup_s\tbuild_s\tmeasure_s\tvenv\tbuild_dir\tdetail\n' > "$summary"

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

# Runs "$@", logged to $log, timed into $seconds.
timed() {
  local start=$SECONDS
  "$@" > "$log" 2>&1
  local status=$?
  seconds=$((SECONDS - start))
  return $status
}

failures=0
measured=()
for release in "${releases[@]}"; do
  log="$out/torch-$release.log"
  venv=$(make -s --no-print-directory TORCH_VERSION="$release" print-venv)
  build=$(make -s --no-print-directory TORCH_VERSION="$release" print-build)
  setup_s=- build_s=- measure_s=- outcome=measured detail="$out/torch-$release.json"
  echo "== torch $release: $venv, $build" >&2
  if ! timed make TORCH_VERSION="$release" setup; then
    outcome=setup-failed detail=$(first_error "$log")
  else
    setup_s=$seconds
    if ! timed nice -n 19 make TORCH_VERSION="$release" JOBS="${JOBS:-1}" build; then
      outcome=build-failed detail=$(first_error "$log")
    else
      build_s=$seconds
      if ! timed "$build/layerbench" run --device cpu "${rounds[@]}" "${run_args[@]}" --out "$out/torch-$release.json"; then
        outcome=run-failed detail=$(first_error "$log")
      fi
      measure_s=$seconds
    fi
  fi
  [[ $outcome == measured ]] && measured+=("$release") || failures=$((failures + 1))
  echo "   $outcome: $detail" >&2
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$release" "$outcome" "$setup_s" "$build_s" "$measure_s" \
    "$(du -sh "$venv" 2>/dev/null | cut -f1)" "$(du -sh "$build" 2>/dev/null | cut -f1)" "$detail" >> "$summary"
done

# Published only when every release is measured: publishing changes data/, and a build after that
# would record the tree as dirty (and publish would refuse what it measured).
for release in "${measured[@]}"; do
  [[ -n "$publish_dir" ]] || break
  log="$out/torch-$release.publish.log"
  label_args=()
  [[ -z "$label" ]] || label_args=(--label "$label, torch $release")
  if timed "$(make -s --no-print-directory TORCH_VERSION="$release" print-build)/layerbench" publish \
       "$out/torch-$release.json" --data "$publish_dir" --id "$id_prefix-torch-${release//./-}" "${label_args[@]}"; then
    echo "   published torch $release: $(tail -n 1 "$log")" >&2
  else
    failures=$((failures + 1))
    echo "   publish-failed torch $release: $(first_error "$log")" >&2
  fi
done
column -t -s $'\t' "$summary" >&2
exit $((failures > 0))
