#!/bin/bash
# Quiet-machine measurements from the clean clone (a2b418c), under the build lock.
set -u
cd /work/clean
PY=/root/.cache/layerbench/venv/bin/python
BIN=/work/clean/build/layerbench
log() { echo "[$(date -u +%H:%M:%S)] $* | load $(cut -d' ' -f1-3 /proc/loadavg)"; }
sleep 5
log "start"
log "1 fp32 reference matrix, 3 rounds"
$BIN run --device cpu --rounds 3 --out runs/epyc-fp32.json 2>&1 | tail -4
log "2 parity LayerNorm/BatchNorm2d @128, 5 alternating rounds"
$PY bench/parity/parity.py --rounds 5 --layers LayerNorm,BatchNorm2d --batch-sizes 128 --threads 2 \
  --binary $BIN --id parity-lnbn-zen4 --out runs/parity-lnbn.json --keep-dir runs/parity-lnbn 2>&1 | tail -6
log "3 parity full matrix, 3 alternating rounds"
$PY bench/parity/parity.py --rounds 3 --threads 2 --binary $BIN --id parity-cpu-epyc-2vcpu-zen4 \
  --out runs/parity-full.json --keep-dir runs/parity-full 2>&1 | tail -8
log "4 whole models, 3 rounds"
$BIN run --preset models --rounds 3 --out runs/models.json 2>&1 | tail -4
log "done"
