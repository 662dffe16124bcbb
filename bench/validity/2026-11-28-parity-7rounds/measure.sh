#!/bin/bash
# Issue 35 item 5: parity with 7 alternating rounds (3 before), from the clean clone, under the build lock.
set -u
cd /work/clean
PY=/root/.cache/layerbench/venv/bin/python
BIN=/work/clean/build/layerbench
log() { echo "[$(date -u +%H:%M:%S)] $* | load $(cut -d' ' -f1-3 /proc/loadavg) | commit $(git rev-parse --short HEAD) | dirty $(git status --short | wc -l)"; }
sleep 20
log "parity full matrix, 7 alternating rounds"
$PY bench/parity/parity.py --rounds 7 --threads 2 --binary $BIN --id parity-cpu-epyc-2vcpu-zen4 \
  --title "LayerBench against torch.utils.benchmark, CPU (AMD EPYC Zen 4, 2 vCPUs), inputs placed apart, 7 alternating rounds" \
  --out /tmp/lb/parity7/parity-7rounds.json --keep-dir /tmp/lb/parity7/rounds 2>&1 | tail -62
log "done"
