#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times the benchmark's cells with Python's own timer, torch.utils.benchmark.Timer(...).blocked_autorange(),
as an independent measurement to compare layerbench's medians with (bench/gpu/validation_report.py).

The modules are the Python twins of the C++ catalog (bench/gpu/layers.py): float32, eval() under
torch.inference_mode(), Dropout in train mode. The attention fast path is off, as LibTorch's C++ modules
have none. On CUDA the Timer synchronizes the device around every run of `number_per_run` calls.

  python3 bench/gpu/python_timer.py --device cuda --out python_timer.json
"""

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import torch
import torch.utils.benchmark as benchmark

sys.path.insert(0, str(Path(__file__).resolve().parent))
import layers as catalog  # noqa: E402


def _warm_up(forward, device: torch.device, seconds: float, min_iterations: int) -> None:
    """The first calls pay for cuDNN's algorithm search and the allocator's growth; keep them out."""
    start = time.perf_counter()
    iterations = 0
    while iterations < min_iterations or time.perf_counter() - start < seconds:
        forward()
        iterations += 1
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def time_cell(layer: catalog.Layer, batch_size: int, device: torch.device, min_run_time: float,
              warmup_seconds: float) -> dict:
    cell = {"layer": layer.name, "batch_size": batch_size}
    try:
        torch.manual_seed(0)
        _, forward = layer.instantiate(batch_size, device)
        # The Timer runs on one thread unless told; give it torch's own count, as layerbench uses.
        timer = benchmark.Timer(stmt="forward()", globals={"forward": forward}, num_threads=torch.get_num_threads(),
                                label=layer.name, sub_label=f"batch {batch_size}")
        # inference_mode is thread-local, and the Timer runs its statement in this thread.
        with torch.inference_mode():
            _warm_up(forward, device, warmup_seconds, 3)
            measurement = timer.blocked_autorange(min_run_time=min_run_time)
    except RuntimeError as error:  # out of memory (a subclass) or an op the device does not support
        kind = "out of memory" if isinstance(error, torch.cuda.OutOfMemoryError) else "failed"
        return {**cell, "status": "skipped", "skip_reason": f"{kind}: {str(error).splitlines()[0]}"}
    finally:
        if device.type == "cuda":
            torch.cuda.empty_cache()
    times_ms = [t * 1e3 for t in measurement.times]
    return {
        **cell,
        "status": "ok",
        "median_ms": measurement.median * 1e3,
        "iqr_ms": measurement.iqr * 1e3,
        "mean_ms": measurement.mean * 1e3,
        "number_per_run": measurement.number_per_run,
        "runs": len(times_ms),
        "times": times_ms,
    }


def cpu_model() -> str:
    """The processor's name as /proc/cpuinfo gives it, as layerbench records it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "cpu"


def describe_device(device: torch.device) -> dict:
    if device.type != "cuda":
        return {"type": "cpu", "name": cpu_model(), "threads": torch.get_num_threads()}
    properties = torch.cuda.get_device_properties(device)
    return {"type": "cuda", "name": properties.name,
            "compute_capability": f"{properties.major}.{properties.minor}",
            "memory_bytes": properties.total_memory,
            "cuda_runtime": torch.version.cuda, "cudnn": str(torch.backends.cudnn.version())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="auto", help="auto, cpu or cuda (default auto)")
    parser.add_argument("--layers", default="all", help="comma-separated layer names (default all)")
    parser.add_argument("--batch-sizes", default=catalog.BATCH_SIZES_TEXT,
                        help=f"comma-separated (default {catalog.BATCH_SIZES_TEXT})")
    parser.add_argument("--min-run-time", type=float, default=1.0,
                        help="seconds blocked_autorange spends per cell at least (default 1.0)")
    parser.add_argument("--warmup", type=float, default=0.2, help="warm-up seconds per cell (default 0.2)")
    parser.add_argument("--with-variants", action="store_true",
                        help="also time the twins of the selected layers that run the C++ modules' computation")
    parser.add_argument("--out", required=True, help="JSON file to write")
    args = parser.parse_args()
    if args.min_run_time <= 0 or args.warmup < 0:
        parser.error("--min-run-time must be positive and --warmup not negative")
    device = catalog.resolve_device(args.device)
    catalog.use_ieee_float32()
    selected = catalog.select(args.layers)
    if args.with_variants:
        names = {layer.name for layer in selected}
        selected += [variant for variant in catalog.VARIANTS if variant.name.split("[")[0] in names]
    batch_sizes = catalog.parse_batch_sizes(args.batch_sizes)

    started = time.perf_counter()
    cells = []
    for layer in selected:
        for batch_size in batch_sizes:
            cell = time_cell(layer, batch_size, device, args.min_run_time, args.warmup)
            cells.append(cell)
            shown = f"{cell['median_ms']:.4f} ms" if cell["status"] == "ok" else cell["skip_reason"]
            print(f"{layer.name:<20} batch {batch_size:>4}  {shown}", flush=True)
    report = {
        "tool": "torch.utils.benchmark.Timer.blocked_autorange",
        "torch_version": torch.__version__,
        "device": describe_device(device),
        "dtype": "float32",
        "inference_mode": True,
        "attention_fast_path": torch.backends.mha.get_fastpath_enabled(),  # on, but batch_first=False never takes it
        "matmul_allow_tf32": torch.backends.cuda.matmul.allow_tf32,
        "cudnn_allow_tf32": torch.backends.cudnn.allow_tf32,
        "cudnn_benchmark": torch.backends.cudnn.benchmark,
        "min_run_time_s": args.min_run_time,
        "warmup_s": args.warmup,
        "wall_s": time.perf_counter() - started,
        "cells": cells,
    }
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    medians = [cell["median_ms"] for cell in cells if cell["status"] == "ok"]
    print(f"python_timer: {len(medians)} cells in {report['wall_s']:.1f} s"
          + (f", median of medians {statistics.median(medians):.4f} ms" if medians else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
