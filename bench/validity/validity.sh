#!/usr/bin/env bash
# The validity runs of issue 9, on a quiet machine (nothing else building or measuring):
#   steady-1, steady-2  two fresh processes back to back, the default --cpu-memory steady-state
#   tunables            the same with GLIBC_TUNABLES set as a user might (must not move the medians)
#   system              --cpu-memory system: glibc as configured, the behaviour before issue 9
#   alone-steady/system three cells alone (no history), under each policy
# Usage: bench/validity/validity.sh OUTDIR [BINARY]   (about 15 minutes on 2 vCPUs)
set -euo pipefail
out=${1:?usage: validity.sh OUTDIR [BINARY]}
binary=${2:-build/layerbench}
mkdir -p "$out"
run() { local name=$1; shift; echo "== $name: $*" >&2; "$binary" run --device cpu "$@" --out "$out/$name.json"; }
run steady-1
run steady-2
GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=68719476736 run tunables
run system --cpu-memory system
run alone-steady --layers LayerNorm,BatchNorm2d,Conv2d --batch-sizes 32
run alone-system --layers LayerNorm,BatchNorm2d,Conv2d --batch-sizes 32 --cpu-memory system
here=$(dirname "$0")
python3 "$here/compare_runs.py" steady-1="$out/steady-1.json" steady-2="$out/steady-2.json" > "$out/spread.txt"
python3 "$here/compare_runs.py" steady-1="$out/steady-1.json" tunables="$out/tunables.json" \
  alone="$out/alone-steady.json" > "$out/invariance.txt"
python3 "$here/compare_runs.py" system="$out/system.json" system-alone="$out/alone-system.json" \
  steady="$out/steady-1.json" > "$out/before-after.txt"
echo "wrote $out/{spread,invariance,before-after}.txt" >&2
