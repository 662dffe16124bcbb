#!/usr/bin/env python3
"""Simulated wall time of the full matrix on W workers, one shard each, from a real dataset's per-cell
`cell_seconds` (docs/scale.md).

The shards are layerbench's own: the plan is read from `layerbench slurm` (which calls the same
planner as `run --shard`), so nothing here re-implements it. Each split is timed with the cell_seconds
of EVAL (the cells as they really took): a shard's time is the sum of its cells, the wall time the
longest shard. Splits compared:

  round-robin   cell k to shard k mod W + 1 (layerbench before 1.3.0)
  flops         the default plan: expected seconds from the catalog's FLOPs and the run's settings
  plan-from X   the plan from another run's cell_seconds (what --plan-from X gives)
  plan-from EVAL  the plan from EVAL itself: the best this planner can do with exact costs

Not modelled: each task's start-up (loading LibTorch, under a second), queueing, and the noise of
repeating the run. With more workers than cells, every cell has a worker and the wall time is the
longest cell, whatever the split.

  simulate.py LAYERBENCH EVAL.json [--plan-from OTHER.json] [--workers 1,8,64]
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path


# The cube's axes in the order layerbench's corners vary (the last fastest), each with its reference value;
# a corner's label names the values that differ, as dataset::label does ("bf16 channels_last train").
AXES = [("precision", "fp32"), ("memory_format", "contiguous"), ("cudnn_benchmark", "off"),
        ("mode", "inference_mode"), ("compiled", "eager")]


def label(axes):
    words = [("cudnn_benchmark" if name == "cudnn_benchmark" else axes[name])
             for name, reference in AXES if axes.get(name, reference) != reference]
    return " ".join(words) or "reference"


def corners(methodology):
    grid = methodology.get("axes") or {}
    result = [{}]
    for name, reference in AXES:
        result = [dict(corner, **{name: value}) for corner in result for value in (grid.get(name) or [reference])]
    return [label(corner) for corner in result]


def cells_of(dataset):
    m = dataset["methodology"]
    return [(layer, batch, corner) for layer in m["layers"] for batch in m["batch_sizes"] for corner in corners(m)]


def parse_cell(text):
    """"Linear@8" or "Linear@8 bf16 train", as `layerbench slurm` lists a shard's cells."""
    key, _, corner = text.partition(" ")
    layer, batch = key.rsplit("@", 1)
    return layer, int(batch), corner or "reference"


def layerbench_plan(binary, dataset, workers, plan_from=None):
    """The shards `layerbench slurm` plans for the dataset's matrix and settings."""
    m = dataset["methodology"]
    with tempfile.TemporaryDirectory() as out:
        command = [binary, "slurm", "--out-dir", out, "--shards", str(workers), "--device", "cpu",
                   "--layers", ",".join(m["layers"]), "--batch-sizes", ",".join(map(str, m["batch_sizes"])),
                   "--cell-budget", str(m["cell_budget_seconds"]), "--warmup", str(m["warmup_seconds"]),
                   "--warmup-iterations", str(m["warmup_min_iterations"]),
                   "--block-target", str(m["block_target_seconds"]), "--min-samples", str(m["min_samples"]),
                   "--max-samples", str(m["max_samples"])]
        for name, values in (m.get("axes") or {}).items():
            command += ["--axes", f"{name}={','.join(values)}"]
        if plan_from:
            command += ["--plan-from", plan_from]
        result = subprocess.run(command, capture_output=True, text=True, check=True)
    shards = []
    for line in result.stderr.splitlines():
        match = re.match(r"layerbench: shard \d+/\d+: expected [0-9.]+ s, \d+ cells: ?(.*)$", line)
        if match:
            shards.append([parse_cell(c) for c in match.group(1).split(", ") if c])
    assert len(shards) == workers, result.stderr
    return shards


def describe(cell):
    layer, batch, corner = cell
    return f"{layer}@{batch}" + ("" if corner == "reference" else f" {corner}")


def round_robin(cells, workers):
    return [[cell for k, cell in enumerate(cells) if k % workers == w] for w in range(workers)]


def wall(shards, seconds):
    loads = [sum(seconds[cell] for cell in shard) for shard in shards]
    return max(loads), max(loads) / (sum(loads) / len(loads))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("layerbench")
    parser.add_argument("eval")
    parser.add_argument("--plan-from", action="append", default=[])
    parser.add_argument("--workers", default="1,8,64")
    args = parser.parse_args()
    dataset = json.loads(Path(args.eval).read_text())
    cells = cells_of(dataset)
    # A corner skipped as unsupported is recorded without measuring: it costs nothing.
    seconds = {(c["layer"], c["batch_size"], label(c.get("axes") or {})): c.get("cell_seconds", 0.0)
               for c in dataset["results"]}
    missing = [cell for cell in cells if cell not in seconds]
    if missing:
        sys.exit(f"{args.eval}: no cell_seconds for {missing}")
    total = sum(seconds.values())
    print(f"{Path(args.eval).name}: {len(cells)} cells, {total:.1f} s in one process; longest cell "
          f"{max(seconds.values()):.1f} s ({describe(max(seconds, key=seconds.get))})")
    print("| workers | split | wall time (s) | longest shard / mean | speed-up over 1 worker |")
    print("|---|---|---|---|---|")
    for workers in map(int, args.workers.split(",")):
        used = min(workers, len(cells))
        note = f" ({used} used: one cell each)" if used < workers else ""
        splits = [("round-robin", round_robin(cells, used)), ("flops", layerbench_plan(args.layerbench, dataset, used))]
        for other in args.plan_from:
            splits.append((f"plan-from {Path(other).name}", layerbench_plan(args.layerbench, dataset, used, other)))
        splits.append((f"plan-from {Path(args.eval).name}", layerbench_plan(args.layerbench, dataset, used, args.eval)))
        for name, shards in splits:
            time, balance = wall(shards, seconds)
            print(f"| {workers}{note} | {name} | {time:.1f} | {balance:.2f} | {total / time:.1f}x |")


if __name__ == "__main__":
    main()
