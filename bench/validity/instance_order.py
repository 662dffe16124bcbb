#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Does a cell's median move with what ran before it in the same process? Times each cell's Python twin
(bench/gpu/layers.py) with torch.utils.benchmark on a first instance, then on a fresh second and third
instance, optionally with one torch.profiler profile in between (--profile-between). A benchmark: run it on
a quiet machine; no test asserts its timings.

    python3 bench/validity/instance_order.py [--cells LSTM@1,Linear@32] [--threads 2] [--profile-between]
"""
import argparse
import sys
from pathlib import Path

import torch
from torch.utils import benchmark

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gpu"))
import layers as catalog  # noqa: E402


def median_ms(name: str, batch: int, threads: int, min_run_time: float):
    with torch.inference_mode():
        layer = next(iter(catalog.select(name)))
        _, forward = layer.instantiate(batch, torch.device("cpu"))
        timer = benchmark.Timer(stmt="f()", globals={"f": forward}, num_threads=threads)
        timer.timeit(20)
        return timer.blocked_autorange(min_run_time=min_run_time).median * 1e3, forward


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cells", default="LSTM@1,Linear@32")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--min-run-time", type=float, default=2.0)
    parser.add_argument("--profile-between", action="store_true", help="one torch.profiler profile after the first")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    catalog.use_ieee_float32()
    for cell in args.cells.split(","):
        name, batch = cell.rsplit("@", 1)
        first, forward = median_ms(name, int(batch), args.threads, args.min_run_time)
        with torch.inference_mode():
            if args.profile_between:
                with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]):
                    forward()
            else:
                forward()
        second, _ = median_ms(name, int(batch), args.threads, args.min_run_time)
        third, _ = median_ms(name, int(batch), args.threads, args.min_run_time)
        between = "one profile" if args.profile_between else "no profile"
        print(f"{cell}: first instance {first:.4f} ms, second {second:.4f}, third {third:.4f} ({between} between); "
              f"second/first {second / first:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
