#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The lease plan's time estimate: `bench/gpu/run-all.sh --plan lease` prints it, and `run-all.sh lease` refuses to
start a plan that does not fit its call (docs/device.md, "The lease").

Each step's seconds come from the budgets the lease passes to `layerbench run` and to torch.utils.benchmark, the
cells' forward times (a reference dataset: the A100 reference page on CUDA, a CPU dataset on the CPU) and the
allowances below. A cell costs its warm-up and budget, or the least number of calls its method makes where one call
outlasts the budget, plus an allowance for building it; a process costs its start. These are estimates: the first
lease's log gives the measured seconds per step, which docs/device.md puts beside them.

  lease_plan.py --device cuda --steps "gputests round1 ..." [budgets...] --priority-seconds 300 --call-seconds 480

Exits 0 when the plan fits (the priority steps within --priority-seconds, all but the optional steps within
--call-seconds less --reserve-seconds), 1 when it does not, 2 on bad arguments.
"""

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import models_fit  # noqa: E402

SOURCE_DIR = Path(__file__).resolve().parents[2]
REFERENCES = {"cuda": SOURCE_DIR / "data" / "datasets" / "a100-80gb-reference-v1.json",
              "cpu": SOURCE_DIR / "data" / "datasets" / "cpu-xeon-2vcpu-fp32-v3.json"}

# ---- allowances (seconds), not measurements: replace them with the first lease's figures ------------------------
# A process's start: loading libtorch and, on CUDA, creating the context (a cold machine reads the libraries from
# disk first). Python's includes `import torch`.
LAYERBENCH_START = 5.0
PYTHON_START = 8.0
# Building a cell (its module, inputs and weights) and the host's work around each timed variant (events, the graph
# capture, the cold buffer, the clock reads between blocks).
CELL_BUILD = 0.1
VARIANT_OVERHEAD = 0.02
# A whole model's build (hundreds of MB of weights initialised on the host, copied to the GPU).
MODEL_BUILD = 2.0
# The first profile of a process (CUPTI or Kineto attaching), then each cell's profiled call.
PROFILER_START = 2.0
PROFILE_CELL = 0.05
# validation_report.py and parity.py --assemble read JSON and write JSON: no torch, no device.
REPORT_STEP = 2.0
# FlopCounterMode per layer: build, and a fused and a decomposed forward under the counter.
FLOP_LAYER = 0.3
# One torch.compile training cell's compilation (engine/bench/axes_plan.hpp, k_torch_compile_seconds).
TORCH_COMPILE = 60.0

CUDA_VARIANTS = 3  # eager, CUDA-graph replay, cold L2 (engine/bench/axes_plan.hpp, k_cuda_forward_budgets)
GRAPH_FORWARDS = 8  # forwards per captured graph (engine/bench/cuda_variants.hpp)
FEWEST_SAMPLES = 3  # a cell past its budget stops at 3 samples (engine/bench/statistics.hpp)
# parity.py's Python side warms each cell up for about 50 ms before blocked_autorange.
PYTHON_WARMUP = 0.05
# blocked_autorange (torch/utils/benchmark/utils/timer.py) grows its block by tens until the block's time passes
# 10^4 times the timer's own overhead (a synchronize on a GPU: "order single to low double digit microseconds",
# its docstring) or min_run_time; the search costs the blocks it tried (1.11 times the last), then it times blocks
# until min_run_time. The block lands between that threshold and ten times it: 3.9 times it on average over a
# log-uniform position.
TIMER_OVERHEAD_RATIO = 1e4
BLOCK_OVER_THRESHOLD = 9 / math.log(10)
SEARCH_OVER_BLOCK = 1.11
# The peaks at the end of round 1: four matrix products and a triad on CUDA, each timed like a cell with a budget of
# at most 1 s (engine/bench/peaks.cpp); one fp32 8192^3 product is 1.1 TFLOP, 16 ms at the H100's 67 TFLOP/s.
PEAKS = {"cuda": (5, 0.016), "cpu": (3, 0.02)}
# tests/gpu_bench_cuda.cpp's own settings: measure_cell of Linear@1 (budget 0.5 s, three variants), two measure_cell
# of LayerNorm@1 around one profile (budget 1.0 s each), the graph and cold timers (a few blocks each).
DOCTEST_SECONDS = 3 * (0.05 + 0.5) + 2 * 3 * (0.05 + 1.0) + PROFILER_START + 0.5
# tests/bench_cuda_check.sh's matrix, which the lease runs with its budgets.
CUDA_CHECK_CELLS = [("Conv2d", 1), ("Conv2d", 32), ("Linear", 1), ("Linear", 32), ("Dropout", 1), ("Dropout", 32)]

STEP_WHAT = {
    "binaries": "the carried prebuilt binaries: hash check and start",
    "gputests": "GPU doctests and the CUDA run check",
    "flops": "FlopCounterMode on the device",
    "report": "validation report (no device)",
    "parity": "parity file from the rounds (no device)",
    "models-fit": "whole models, largest fitting batch, eager, fp32 and bf16",
    "compiled": "torch.compile training cells",
    "cube": "a cube chunk: the rest of the call",
}


class Settings:
    """The lease's budgets, as run-all.sh passes them to `layerbench run` and parity.py."""

    def __init__(self, args):
        self.device = args.device
        self.warmup = args.warmup
        self.budget = args.cell_budget
        self.min_samples = args.min_samples
        self.block = args.block_target
        self.min_run_time = args.min_run_time
        self.sync = args.timer_overhead_us * 1e-6
        self.model_budget = args.model_cell_budget


def forward_seconds(reference: Path) -> dict:
    """{(layer, batch): median seconds of one forward} of the reference dataset's default-corner cells."""
    dataset = json.loads(reference.read_text())
    return {(c["layer"], c["batch_size"]): c["stats"]["median_ms"] / 1000 for c in dataset["results"]
            if c.get("status") == "ok" and "stats" in c and not c.get("axes")}


def layerbench_cell(t: float, s: Settings) -> float:
    """One forward cell in `layerbench run`: per timed variant its budget, or the fewest blocks its method takes
    where one call outlasts the budget (calibration, then 3 samples), plus the host's overhead."""
    block = max(t, s.block)
    eager = 2 * t + max(s.warmup, 3 * t) + max(s.budget, (1 + FEWEST_SAMPLES) * block)
    if s.device != "cuda":
        return CELL_BUILD + eager + VARIANT_OVERHEAD
    graph = 3 * t + max(s.budget, (1 + FEWEST_SAMPLES) * max(GRAPH_FORWARDS * t, s.block))
    cold = max(s.budget, (1 + FEWEST_SAMPLES) * block)
    return CELL_BUILD + eager + graph + cold + CUDA_VARIANTS * VARIANT_OVERHEAD


def python_cell(t: float, s: Settings) -> float:
    """One cell of parity.py's Python side: the build, ~50 ms of warm-up, blocked_autorange's block search and its
    blocks until min_run_time."""
    threshold = min(TIMER_OVERHEAD_RATIO * s.sync, s.min_run_time)
    block = max(t, BLOCK_OVER_THRESHOLD * threshold)
    return CELL_BUILD + PYTHON_WARMUP + t + SEARCH_OVER_BLOCK * block + max(s.min_run_time, block)


def profile_cells(times: list) -> float:
    return PROFILER_START + sum(CELL_BUILD + 2 * t + PROFILE_CELL for t in times)


def peaks(s: Settings) -> float:
    count, t = PEAKS[s.device]
    peak_budget = min(s.budget, 1.0)
    return count * (max(s.warmup, 3 * t) + max(peak_budget, (1 + FEWEST_SAMPLES) * max(t, s.block)))


def model_cells(args, s: Settings) -> list:
    """[(model, mode, batch)] as the models-fit step will choose them (on CUDA for --memory-bytes)."""
    models = [m for m in args.models.split(",") if m]
    if args.model_batch:
        return [(m, mode, args.model_batch) for m in models for mode in models_fit.MODES]
    return models_fit.fit(models, args.memory_bytes, args.max_model_batch, args.model_cell_seconds)


def model_cell(model: str, mode: str, precision: str, batch: int, s: Settings) -> float:
    variants = CUDA_VARIANTS if s.device == "cuda" and mode != "train" else 1
    least = models_fit.cell_seconds(model, mode, precision, batch)
    return MODEL_BUILD + max(least, variants * s.model_budget)


def estimate(args) -> list:
    """[(step, seconds, note)] in the order given."""
    s = Settings(args)
    times = forward_seconds(Path(args.reference) if args.reference else REFERENCES[s.device])
    layers = args.layers.split(",") if args.layers != "all" else sorted({layer for layer, _ in times})
    batches = [int(b) for b in args.batch_sizes.split(",")]
    cells = [times.get((layer, batch), 0.0) for layer in layers for batch in batches]
    rows = []
    for step in args.steps.split():
        if step == "binaries":
            rows.append((step, PYTHON_START + LAYERBENCH_START, STEP_WHAT[step]))
        elif step == "gputests":
            check = LAYERBENCH_START + profile_cells([times.get(c, 0.0) for c in CUDA_CHECK_CELLS]) + sum(
                layerbench_cell(times.get(c, 0.0), s) for c in CUDA_CHECK_CELLS)
            seconds = (LAYERBENCH_START + DOCTEST_SECONDS if s.device == "cuda" else 0.0) + (
                check if s.device == "cuda" else 0.0)
            rows.append((step, seconds, STEP_WHAT[step] + ("" if s.device == "cuda" else " (skipped on the CPU)")))
        elif step.startswith("round"):
            number = int(step[len("round"):])
            ours = LAYERBENCH_START + sum(layerbench_cell(t, s) for t in cells)
            note = f"{len(cells)} cells: LayerBench {ours:.0f} s"
            if number == 1:
                ours += profile_cells(cells) + peaks(s)
                note += f" + profiles and peaks {profile_cells(cells) + peaks(s):.0f} s"
            python = PYTHON_START + sum(python_cell(t, s) for t in cells)
            rows.append((step, ours + python, note + f", torch.utils.benchmark {python:.0f} s"))
        elif step == "flops":
            rows.append((step, PYTHON_START + FLOP_LAYER * len(layers), STEP_WHAT[step]))
        elif step in ("report", "parity"):
            rows.append((step, REPORT_STEP, STEP_WHAT[step]))
        elif step == "models-fit":
            chosen = model_cells(args, s)
            processes = len({(mode, batch) for _, mode, batch in chosen})
            seconds = processes * LAYERBENCH_START + sum(
                model_cell(model, mode, precision, batch, s)
                for model, mode, batch in chosen for precision in args.model_precisions.split(","))
            text = ", ".join(f"{model} {'inference' if mode == 'inference_mode' else mode}@{batch}"
                             for model, mode, batch in chosen)
            rows.append((step, seconds, f"{STEP_WHAT[step]}: {text}"))
        elif step == "compiled":
            chosen = {(m, b) for m, mode, b in model_cells(args, s) if mode == "train"}
            compile_models = [m for m in args.compile_models.split(",") if m]
            if not compile_models:
                rows.append((step, 0.0, "nothing: COMPILE_MODELS is empty"))
                continue
            seconds = LAYERBENCH_START + PYTHON_START + sum(
                TORCH_COMPILE + model_cell(m, "train", "fp32", b, s) for m, b in chosen if m in compile_models)
            rows.append((step, seconds, f"{STEP_WHAT[step]} of {', '.join(compile_models)}, fp32"))
        elif step == "cube":
            rows.append((step, 0.0, STEP_WHAT[step]))
        else:
            raise SystemExit(f"lease_plan: no estimate for step '{step}'")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    parser.add_argument("--steps", required=True, help="the plan's steps in order, space-separated")
    parser.add_argument("--priority", default="", help="the steps that must end by --priority-seconds")
    parser.add_argument("--optional", default="", help="the steps run only if time is left (not counted)")
    parser.add_argument("--layers", default="all")
    parser.add_argument("--batch-sizes", default="1,8,32,128")
    parser.add_argument("--reference", help="dataset of forward times (default: the A100 reference on CUDA)")
    parser.add_argument("--warmup", type=float, required=True)
    parser.add_argument("--cell-budget", type=float, required=True)
    parser.add_argument("--min-samples", type=int, required=True)
    parser.add_argument("--block-target", type=float, required=True)
    parser.add_argument("--min-run-time", type=float, required=True)
    parser.add_argument("--timer-overhead-us", type=float, default=10.0)
    parser.add_argument("--models", default="ResNet50,BertBase,BertLarge")
    parser.add_argument("--model-batch", type=int, default=0, help="one batch for every model (default: fitted)")
    parser.add_argument("--max-model-batch", type=int, default=512)
    parser.add_argument("--model-cell-seconds", type=float, default=0)
    parser.add_argument("--model-cell-budget", type=float, required=True)
    parser.add_argument("--model-precisions", default="fp32,bf16")
    parser.add_argument("--memory-bytes", type=float, default=81559 * 2**20,
                        help="the GPU's memory for the models' fit (default: the H100 80GB's 81559 MiB)")
    parser.add_argument("--compile-models", default="ResNet50,BertBase")
    parser.add_argument("--priority-seconds", type=float, required=True)
    parser.add_argument("--call-seconds", type=float, required=True)
    parser.add_argument("--reserve-seconds", type=float, default=0)
    args = parser.parse_args()
    try:
        rows = estimate(args)
    except models_fit.FitError as error:
        print(f"lease_plan: error: {error}", file=sys.stderr)
        return 2
    priority, optional = set(args.priority.split()), set(args.optional.split())
    limit = args.call_seconds - args.reserve_seconds
    print(f"{'step':<11} {'estimate s':>10} {'ends by s':>9}  {'measured s':>10}  what")
    elapsed = 0.0
    for step, seconds, note in rows:
        if step in optional:
            print(f"{step:<11} {seconds:>10.0f} {'if left':>9}  {'':>10}  {note}")
            continue
        elapsed += seconds
        print(f"{step:<11} {seconds:>10.0f} {elapsed:>9.0f}  {'':>10}  {note}")
    first = sum(seconds for step, seconds, _ in rows if step in priority)
    required = sum(seconds for step, seconds, _ in rows if step not in optional)
    fits = first <= args.priority_seconds and required <= limit
    print(f"priority steps ({' '.join(s for s, _, _ in rows if s in priority)}): {first:.0f} s of "
          f"{args.priority_seconds:.0f}; all but the optional: {required:.0f} s of {limit:.0f} "
          f"({args.call_seconds:.0f} less {args.reserve_seconds:.0f} for the last pack)")
    if not fits:
        print("lease_plan: the plan does not fit its call: shorten the budgets or the steps (docs/device.md)")
        return 1
    print("lease_plan: the plan fits")
    return 0


if __name__ == "__main__":
    sys.exit(main())
