#!/bin/sh
# The published sweep: MultiheadAttention (d=512, 8 heads) against sequence length, on this VM.
cd /work/clean
{ echo "start $(date -u +%FT%TZ) $(uptime)"; git log --oneline -1; git status --short | wc -l; } > /tmp/lb/sweep/load.txt
build/layerbench run --device cpu --suite bench/suites/attention-seq.json --batch-sizes 1,8 --rounds 3 \
  --out /tmp/lb/sweep/attention-seq.json > /tmp/lb/sweep/measure.log 2>&1
echo "rc=$?" >> /tmp/lb/sweep/measure.log
echo "end $(date -u +%FT%TZ) $(uptime)" >> /tmp/lb/sweep/load.txt
