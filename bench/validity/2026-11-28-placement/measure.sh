#!/bin/bash
# Quiet-machine parity after the input-placement regime (216c48a), from the clean clone, under the build lock.
set -u
cd /work/clean
PY=/root/.cache/layerbench/venv/bin/python
BIN=/work/clean/build/layerbench
log() { echo "[$(date -u +%H:%M:%S)] $* | load $(cut -d' ' -f1-3 /proc/loadavg) | commit $(git rev-parse --short HEAD)"; }
sleep 5
log "parity full matrix, 3 alternating rounds"
$PY bench/parity/parity.py --rounds 3 --threads 2 --binary $BIN --id parity-cpu-epyc-2vcpu-zen4 \
  --title "LayerBench against torch.utils.benchmark, CPU (AMD EPYC Zen 4, 2 vCPUs), inputs placed apart" \
  --out runs/parity-full-placement.json --keep-dir runs/parity-full-placement 2>&1 | tail -62
log "done"
