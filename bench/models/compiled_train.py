#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Python worker of LayerBench's compiled=torch_compile cells (issue 25): one whole-model cell, its module
compiled by torch.compile (default mode), timed as LayerBench times a cell, written as one dataset cell.

  compiled_train.py --model ResNet50 --batch-size 8 --mode train --precision bf16 --device cpu --threads 2 \
      --out cell.json

The step is py_models.py's (a training step, or an inference forward). The method mirrors
engine/bench/detail/sampling.cpp and engine/bench/statistics.cpp:
1. The first step compiles (Dynamo, Inductor, the C++ or Triton build): its wall time is
   runtime.compile_seconds. The second step, the first after compilation, is first_call_ms.
2. Warm-up: at least --warmup seconds and --warmup-iterations steps; the cell's budget counts from here.
3. The block of back-to-back steps grows until one lasts --block-target seconds.
4. Samples (one block each, per step) until (p75 - p25) / median <= --noise-target with at least
   --min-samples; or --max-samples; or the budget (--cell-budget) is spent and 3 samples are in.
Defaults are `layerbench run`'s for the device. CUDA blocks are timed with CUDA events, the CPU with the
steady clock. peak_memory_bytes: CUDA only (the caching allocator's peak during one more step); Python has
no counting CPU allocator, so CPU cells leave it out.

The cell is results[] as engine/dataset/io.cpp writes it, axes.compiled = "torch_compile", plus "runtime"
{python, torch, compile_seconds}. A cell that cannot run (out of memory, a compile error, no CUDA device)
is written skipped with the reason, exit 0. A bad argument exits 2 naming it.
"""

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import py_models  # noqa: E402

# `layerbench run`'s defaults (engine/cli/run_options.cpp), per device.
DEFAULTS = {
    "cpu": dict(warmup=0.05, warmup_iterations=1, block_target=0.01, noise_target=0.05, min_samples=5,
                max_samples=100, cell_budget=1.5),
    "cuda": dict(warmup=0.2, warmup_iterations=3, block_target=0.001, noise_target=0.02, min_samples=10,
                 max_samples=1000, cell_budget=2.0),
}
FEWEST_SAMPLES = 3  # the fewest that give quartiles (bench/statistics.hpp)
MAX_BLOCK_ITERATIONS = 1 << 20
COMPILED = "torch_compile"


# ---- LayerBench's statistics and stopping rule (pure; tests/models_python_check.py tests them) ----------

def quantile(values: list, q: float) -> float:
    """Linear interpolation, numpy's default, as util::quantile."""
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (position - below) * (ordered[above] - ordered[below])


def noise(samples: list) -> float:
    median = quantile(samples, 0.5)
    return (quantile(samples, 0.75) - quantile(samples, 0.25)) / median if median > 0 else 0.0


def decide(samples: list, elapsed_seconds: float, settings: dict) -> str:
    """bench::decide: 'continue', 'target_met', 'max_samples' or 'budget_spent'."""
    count = len(samples)
    if count >= settings["min_samples"] and noise(samples) <= settings["noise_target"]:
        return "target_met"
    if count >= settings["max_samples"]:
        return "max_samples"
    if elapsed_seconds >= settings["cell_budget"] and count >= min(settings["min_samples"], FEWEST_SAMPLES):
        return "budget_spent"
    return "continue"


def next_block(iterations: int, elapsed: float, target: float) -> int:
    """detail::calibrate_block's growth: a little past the target from the rate just seen, at most 10x a step."""
    wanted = math.ceil(iterations * target * 1.2 / elapsed) if elapsed > 0 else iterations * 10
    return max(iterations * 2, min(iterations * 10, wanted))


def stats_of(samples_ms: list, iterations: int, verdict: str) -> dict:
    """dataset::Stats as detail::to_stats fills it."""
    return {"median_ms": quantile(samples_ms, 0.5), "p25_ms": quantile(samples_ms, 0.25),
            "p75_ms": quantile(samples_ms, 0.75), "min_ms": min(samples_ms), "mean_ms": statistics.fmean(samples_ms),
            "stddev_ms": statistics.stdev(samples_ms) if len(samples_ms) > 1 else 0.0,
            "samples": len(samples_ms), "iterations_per_sample": iterations, "noise": noise(samples_ms),
            "noise_target_met": verdict == "target_met", "samples_ms": samples_ms}


# ---- timing -------------------------------------------------------------------------------------------

class BlockClock:
    """Seconds of `iterations` back-to-back steps: CUDA events on the current stream, else the steady clock."""

    def __init__(self, device):
        self.device = device

    def synchronize(self):
        if self.device.type == "cuda":
            import torch
            torch.cuda.synchronize(self.device)

    def time_block(self, step, iterations: int) -> float:
        if self.device.type != "cuda":
            start = time.perf_counter()
            for _ in range(iterations):
                step()
            return time.perf_counter() - start
        import torch
        begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        begin.record()
        for _ in range(iterations):
            step()
        end.record()
        end.synchronize()
        return begin.elapsed_time(end) / 1000.0


def timed_call(clock: BlockClock, step) -> float:
    """Wall seconds of one step, the device drained on both sides."""
    clock.synchronize()
    start = time.perf_counter()
    step()
    clock.synchronize()
    return time.perf_counter() - start


def warm_up(clock: BlockClock, step, settings: dict) -> None:
    start = time.perf_counter()
    done = 0
    while done < settings["warmup_iterations"] or time.perf_counter() - start < settings["warmup"]:
        step()
        clock.synchronize()
        done += 1


def calibrate_block(clock: BlockClock, step, target: float) -> int:
    iterations = 1
    while True:
        elapsed = clock.time_block(step, iterations)
        if elapsed >= target or iterations >= MAX_BLOCK_ITERATIONS:
            return iterations
        iterations = next_block(iterations, elapsed, target)


def sample(clock: BlockClock, step, iterations: int, settings: dict, start: float) -> tuple:
    samples_ms, verdict = [], "continue"
    while verdict == "continue":
        samples_ms.append(clock.time_block(step, iterations) * 1000.0 / iterations)
        verdict = decide(samples_ms, time.perf_counter() - start, settings)
    return samples_ms, verdict


def peak_memory_bytes(clock: BlockClock, step):
    """CUDA: the caching allocator's peak during one steady-state step; None on the CPU (see the module text)."""
    if clock.device.type != "cuda":
        return None
    import torch
    clock.synchronize()
    torch.cuda.reset_peak_memory_stats(clock.device)
    step()
    clock.synchronize()
    return int(torch.cuda.max_memory_allocated(clock.device))


def measure(args, settings: dict, runtime: dict) -> dict:
    """The ok cell; raises what torch raises (the caller turns it into a skipped cell)."""
    import torch
    cell_start = time.perf_counter()
    device = torch.device(args.device)
    twin = py_models.build(args.model, args.batch_size, args.mode, args.precision, device, wrap=torch.compile)
    clock = BlockClock(device)
    runtime["compile_seconds"] = timed_call(clock, twin.step)
    first_call_ms = timed_call(clock, twin.step) * 1000.0
    budget_start = time.perf_counter()
    warm_up(clock, twin.step, settings)
    peak = peak_memory_bytes(clock, twin.step)
    iterations = calibrate_block(clock, twin.step, settings["block_target"])
    samples_ms, verdict = sample(clock, twin.step, iterations, settings, budget_start)
    stats = stats_of(samples_ms, iterations, verdict)
    cell = cell_key(args)
    cell.update({"status": "ok", "stats": stats, "first_call_ms": first_call_ms})
    if peak is not None:
        cell["peak_memory_bytes"] = peak
    cell["throughput_samples_per_s"] = args.batch_size / (stats["median_ms"] / 1000.0)
    cell["cell_seconds"] = time.perf_counter() - cell_start
    return cell


# ---- the cell file ------------------------------------------------------------------------------------

def cell_key(args) -> dict:
    return {"layer": args.model, "batch_size": args.batch_size,
            "axes": {"precision": args.precision, "memory_format": "contiguous", "cudnn_benchmark": "off",
                     "mode": args.mode, "compiled": COMPILED}}


def skipped(args, reason: str) -> dict:
    cell = cell_key(args)
    cell.update({"status": "skipped", "skip_reason": reason})
    return cell


def failure_reason(error: BaseException) -> str:
    """One line: torch's first line names the op or the allocation."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else 'no message'}"[:500]


def write_atomically(path: Path, document: dict) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(document, indent=2) + "\n")
    temporary.replace(path)


def run_cell(args, settings: dict) -> dict:
    import torch
    torch.set_num_threads(args.threads)
    runtime = dict(py_models.runtime_versions(), compile_seconds=None)
    if args.device == "cuda" and not torch.cuda.is_available():
        cell = skipped(args, "no CUDA device: torch.cuda.is_available() is false")
    else:
        try:
            cell = measure(args, settings, runtime)
        except Exception as error:  # out of memory, a compile error, an unsupported op: a skipped cell
            cell = skipped(args, failure_reason(error))
    cell["runtime"] = runtime
    return cell


# ---- arguments ----------------------------------------------------------------------------------------

def positive(kind, zero_allowed=False):
    def parse(text):
        value = kind(text)
        if value < 0 or (value == 0 and not zero_allowed):
            raise argparse.ArgumentTypeError(f"'{text}' is not {'zero or more' if zero_allowed else 'positive'}")
        return value
    parse.__name__ = kind.__name__
    return parse


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True, choices=py_models.MODELS)
    p.add_argument("--batch-size", required=True, type=positive(int))
    p.add_argument("--mode", default="train", choices=py_models.MODES)
    p.add_argument("--precision", default="fp32", choices=py_models.PRECISIONS)
    p.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    p.add_argument("--threads", type=positive(int), default=os.cpu_count(), help="torch.set_num_threads")
    p.add_argument("--out", required=True, help="the cell's JSON file")
    # As layerbench run's: the warm-up may be 0 (none beyond the compiling step and the first compiled one).
    for name, kind, zero in [("warmup", float, True), ("warmup-iterations", int, True), ("block-target", float, False),
                             ("noise-target", float, False), ("min-samples", int, False), ("max-samples", int, False),
                             ("cell-budget", float, False)]:
        p.add_argument(f"--{name}", type=positive(kind, zero), help="default: layerbench run's for the device")
    return p


def settings_of(args, p: argparse.ArgumentParser) -> dict:
    settings = dict(DEFAULTS[args.device])
    for key in settings:
        if getattr(args, key) is not None:
            settings[key] = getattr(args, key)
    if settings["noise_target"] >= 1:
        p.error(f"argument --noise-target: {settings['noise_target']} is not below 1")
    if settings["min_samples"] > settings["max_samples"]:
        p.error(f"argument --min-samples: {settings['min_samples']} is above --max-samples {settings['max_samples']}")
    if args.precision in py_models.CUDA_ONLY and args.device != "cuda":
        p.error(f"argument --precision: {args.precision} ({py_models.CUDA_ONLY[args.precision]}) needs --device cuda")
    if not Path(args.out).resolve().parent.is_dir():
        p.error(f"argument --out: the folder of {args.out} does not exist")
    return settings


def main(argv=None) -> int:
    p = parser()
    args = p.parse_args(argv)
    settings = settings_of(args, p)
    cell = run_cell(args, settings)
    write_atomically(Path(args.out), cell)
    print(f"{args.model}@{args.batch_size} {args.mode} {args.precision} {COMPILED}: {cell['status']}"
          + (f", median {cell['stats']['median_ms']:.3f} ms" if cell["status"] == "ok" else f" ({cell['skip_reason']})"),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
