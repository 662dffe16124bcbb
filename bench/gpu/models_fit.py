#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The largest power-of-two batch of each whole model that should fit the GPU (bench/gpu/run-all.sh, the lease's
models step), so that the lease measures one batch per model and mode instead of the models preset's seven.

Memory model: LayerBench's own peak memory per cell, measured at batch 1 and 8 on the CPU
(data/datasets/cpu-epyc-2vcpu-models-v1.json, `layerbench run --preset models`), is a line a + c*batch per model,
mode and precision (weights, gradients and optimizer state do not grow with the batch; activations do). A batch
fits when the larger of its fp32 and bf16 lines stays under FIT_SHARE of the GPU's memory: the rest is left to
cuBLAS and cuDNN workspaces and the caching allocator's rounding, which the CPU does not have. A guess that is
wrong costs one out-of-memory cell: run-all.sh then halves the batch and measures again.

A lease of minutes also caps the batch by time (--cell-seconds): a CUDA inference cell runs its forward at least 46
times (eager, graph replay and cold L2), so BERT large's fp32 forward at 512 alone would take about a minute.

  models_fit.py --models ResNet50,BertBase,BertLarge [--memory-bytes N | --device cuda] [--max-batch 512]
                [--cell-seconds S]

prints one line per model and mode: MODEL MODE BATCH.
"""

import argparse
import json
import sys
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parents[2]
MEMORY_SOURCE = SOURCE_DIR / "data" / "datasets" / "cpu-epyc-2vcpu-models-v1.json"
FIT_SHARE = 0.8
MODES = ("inference_mode", "train")
PRECISIONS = ("fp32", "bf16")

# A training step's milliseconds per sample on the GPU, per model and precision: NVIDIA DeepLearningExamples'
# A100 80GB figures (data/datasets/dle-a100-80gb-*-reference-v1.json): ResNet-50 273 ms at batch 256 in TF32 and
# 104 ms in fp16; BERT large (sequence 128) 404 ms at batch 128 in TF32 and 441 ms at 256 in fp16. LayerBench's fp32
# is IEEE fp32, so TF32's figure is scaled by the peaks' ratio, A100 TF32 dense 156 over H100 SXM fp32 67 TFLOP/s
# (the NVIDIA datasheets); bf16 keeps the A100's fp16 figure (an H100 is faster: these are upper estimates).
# BERT base is BERT large scaled by their parameters (110M over 340M). A forward is a third of a step (forward 1,
# backward 2, by FLOPs). Estimates for the plan and the time cap, never measurements: the lease measures them.
FP32_OVER_TF32 = 156.0 / 67.0
STEP_MS_PER_SAMPLE = {
    ("ResNet50", "fp32"): 273.0 / 256 * FP32_OVER_TF32, ("ResNet50", "bf16"): 103.6 / 256,
    ("BertLarge", "fp32"): 404.0 / 128 * FP32_OVER_TF32, ("BertLarge", "bf16"): 441.0 / 256,
    ("BertBase", "fp32"): 404.0 / 128 * FP32_OVER_TF32 * 110 / 340, ("BertBase", "bf16"): 441.0 / 256 * 110 / 340,
}
# How many times a cell runs its body at the least, with the lease's settings (--warmup 0 --warmup-iterations 1
# --min-samples 3; a block of one call, since one call outlasts the 1 ms block target): the eager timing takes the
# first call, one warm-up, the peak-memory call, one calibration block and 3 samples (7); a CUDA inference cell
# adds the graph replay (3 warm-ups on its stream, one calibration replay of 8 forwards, 3 replays of 8: 35) and the
# cold-L2 timing (one calibration, 3 samples: 4). A training step is timed whole, with no variants.
CALLS = {"inference_mode": 7 + 35 + 4, "train": 7}


def cell_seconds(model: str, mode: str, precision: str, batch: int) -> float:
    """The least time a cell takes, from the step estimates above; 0 for a model without one (a test model)."""
    per_sample = STEP_MS_PER_SAMPLE.get((model, precision), 0.0) / 1000
    return CALLS[mode] * batch * per_sample * (1 if mode == "train" else 1 / 3)


class FitError(Exception):
    pass


def memory_lines(dataset: dict) -> dict:
    """{(model, mode): [(a, c) per precision]} from the cells' peak memory at two batch sizes."""
    points = {}
    for cell in dataset["results"]:
        if cell.get("status") != "ok" or not cell.get("peak_memory_bytes"):
            continue
        axes = cell.get("axes", {})
        if axes.get("compiled", "eager") != "eager":
            continue
        key = (cell["layer"], axes.get("mode", "inference_mode"), axes.get("precision", "fp32"))
        points.setdefault(key, {})[cell["batch_size"]] = cell["peak_memory_bytes"]
    lines = {}
    for (model, mode, _precision), by_batch in points.items():
        if len(by_batch) < 2:
            continue
        low, high = min(by_batch), max(by_batch)
        slope = max(0.0, (by_batch[high] - by_batch[low]) / (high - low))
        lines.setdefault((model, mode), []).append((by_batch[low] - slope * low, slope))
    return lines


def largest_batch(lines: list, memory_bytes: float, max_batch: int, fits_time=lambda batch: True) -> int:
    """The largest power of two up to max_batch whose predicted peak stays under FIT_SHARE of memory_bytes and
    whose cells fit_time accepts; 1 at least."""
    batch = 1
    while (batch * 2 <= max_batch and all(a + c * batch * 2 <= FIT_SHARE * memory_bytes for a, c in lines)
           and fits_time(batch * 2)):
        batch *= 2
    return batch


def fit(models: list, memory_bytes: float, max_batch: int, cell_seconds_cap: float = 0,
        source: Path = MEMORY_SOURCE) -> list:
    """(model, mode, batch) per model and mode. cell_seconds_cap > 0: also no larger than the batch whose slowest
    cell (fp32 or bf16) is estimated to take at most that long, so that a lease of minutes holds every cell."""
    lines = memory_lines(json.loads(source.read_text()))
    rows = []
    for model in models:
        for mode in MODES:
            if (model, mode) not in lines:
                raise FitError(f"{source.name} has no peak memory of {model} in mode {mode} at two batch sizes; "
                               f"give the batch with MODEL_BATCH")

            def fits_time(batch, model=model, mode=mode):
                slowest = max(cell_seconds(model, mode, precision, batch) for precision in PRECISIONS)
                return cell_seconds_cap <= 0 or slowest <= cell_seconds_cap
            rows.append((model, mode, largest_batch(lines[(model, mode)], memory_bytes, max_batch, fits_time)))
    return rows


def device_memory_bytes(device: str) -> int:
    import torch  # only where the GPU is asked
    return torch.cuda.get_device_properties(torch.device(device)).total_memory


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", required=True, help="comma-separated whole models")
    parser.add_argument("--memory-bytes", type=float, help="the GPU's memory (default: asked of --device)")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--max-batch", type=int, default=512, help="the models preset's largest batch on CUDA")
    parser.add_argument("--cell-seconds", type=float, default=0,
                        help="largest estimated seconds of one cell (default 0: memory alone decides)")
    args = parser.parse_args()
    memory = args.memory_bytes if args.memory_bytes else device_memory_bytes(args.device)
    try:
        rows = fit([m for m in args.models.split(",") if m], memory, args.max_batch, args.cell_seconds)
    except FitError as error:
        print(f"models_fit: error: {error}", file=sys.stderr)
        return 1
    for model, mode, batch in rows:
        print(model, mode, batch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
