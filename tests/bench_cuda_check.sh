#!/usr/bin/env bash
# The CUDA path end to end: a small `layerbench run --device cuda`. Needs a GPU; without one it is
# reported as skipped (exit 77) with the reason.
#
#   bench_cuda_check.sh LAYERBENCH [RUN OPTION...]   (more options for the run: the lease's budgets, bench/gpu/run-all.sh)
set -euo pipefail
binary=$1
shift
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no NVIDIA GPU on this machine (nvidia-smi finds none); the CUDA path is compiled but not run here"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$binary" run --device cuda --layers Conv2d,Linear,Dropout --batch-sizes 1,32 "$@" --out "$dir/cuda.json"
python3 - "$dir/cuda.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
env = d["environment"]
assert env["device"]["type"] == "cuda", env["device"]
assert env["device"]["driver"] and env["device"]["cuda_runtime"] and env["device"]["cudnn"], env["device"]
assert env["device"]["memory_bytes"] > 0
assert d["methodology"]["timer"] == "cuda-events"
for cell in d["results"]:
    assert cell["status"] == "ok", cell
    s = cell["stats"]
    assert 0 < s["p25_ms"] <= s["median_ms"] <= s["p75_ms"], s
    assert cell["peak_memory_bytes"] > 0 and cell["host_wall_median_ms"] > 0
    # Schema 1.3.0: the graph replay (or why not), the cold-L2 variant and the clocks, per cell.
    cuda = cell["cuda"]
    assert ("graph" in cuda) != ("graph_skip_reason" in cuda), cuda
    assert "graph" not in cuda or cuda["graph_over_eager"] > 0, cuda
    assert cuda["cold"]["median_ms"] > 0 and cuda["cold_over_hot"] > 0, cuda
    assert cuda["l2_flush_bytes"] > 0, cuda
    assert "unavailable_reason" not in cuda["clocks"], cuda["clocks"]  # the driver is there, so NVML is
    assert cuda["clocks"]["sm_mean_mhz"] > 0, cuda["clocks"]
assert "graph" in d["methodology"]["cuda_method"]
print("cuda run ok:", len(d["results"]), "cells on", env["device"]["name"])
PY
