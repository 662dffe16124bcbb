#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One whole-model cell's Python twin, timed by hand in this process (issue 25's drift check, docs/models.md):
median and quartiles of --steps steps after --warmup, the minor page faults per step, and optionally the
profile's operators with the most self time. One JSON line on stdout; run it in several fresh processes to see
how much the cell's time moves between them.

  twin_probe.py --model ResNet50 --batch-size 1 --mode inference_mode --precision fp32 --profile
"""

import argparse
import json
import resource
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import parity  # noqa: E402  (its memory policies, as LayerBench's --cpu-memory)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", default="ResNet50")
    p.add_argument("--batch-size", type=int, default=1)
    p.add_argument("--mode", default="inference_mode")
    p.add_argument("--precision", default="fp32")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--warmup", type=int, default=20, help="steps before the timed ones")
    p.add_argument("--steps", type=int, default=60, help="timed steps")
    p.add_argument("--cpu-memory", default="steady-state")
    p.add_argument("--profile", action="store_true", help="also profile 5 steps: the 15 operators with most self time")
    args = p.parse_args()
    parity.layer_parity.apply_memory_policy(args.cpu_memory)
    import torch
    import py_models
    torch.set_num_threads(args.threads)
    twin = py_models.build(args.model, args.batch_size, args.mode, args.precision, torch.device("cpu"))
    for _ in range(args.warmup):
        twin.step()
    times = []
    faults_before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(args.steps):
        start = time.perf_counter()
        twin.step()
        times.append((time.perf_counter() - start) * 1e3)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults_before
    times.sort()
    out = {"cell": f"{args.model}@{args.batch_size} {args.mode} {args.precision}", "threads": args.threads,
           "median_ms": times[len(times) // 2], "p25_ms": times[len(times) // 4],
           "p75_ms": times[(3 * len(times)) // 4], "page_faults_per_step": faults / args.steps}
    if args.profile:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            for _ in range(5):
                twin.step()
        ops = sorted(prof.key_averages(), key=lambda e: -e.self_cpu_time_total)[:15]
        out["operators"] = [{"name": e.key, "calls_per_step": e.count / 5,
                             "self_ms_per_step": e.self_cpu_time_total / 5 / 1e3} for e in ops]
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
