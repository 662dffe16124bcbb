#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The ATen operators (and on CUDA the kernels) of ONE forward of each Python twin in bench/gpu/layers.py,
profiled with torch.profiler after a warm-up, in the measured mode (eval under inference_mode, Dropout in
train). Prints {layer: {"operators": {aten_name: calls}, "kernels": {kernel_name: calls}}} as JSON: the
reference that tests/bench_opset_check.py compares LayerBench's recorded operators with."""

import argparse
import json
import sys
from pathlib import Path

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gpu"))
import layers as catalog  # noqa: E402

WARMUP_CALLS = 3


def profile_forward(layer: catalog.Layer, batch_size: int, device: torch.device) -> dict:
    """Every aten:: event of one forward (nested ones included) with its calls, and the device kernels: the
    profiler's raw events, counted as LayerBench counts its own."""
    activities = [ProfilerActivity.CPU]
    if device.type == "cuda":
        activities.append(ProfilerActivity.CUDA)
    with torch.inference_mode():
        _, forward = layer.instantiate(batch_size, device)
        for _ in range(WARMUP_CALLS):
            forward()
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        with profile(activities=activities) as prof:
            forward()
            if device.type == "cuda":
                torch.cuda.synchronize(device)
    operators: dict = {}
    kernels: dict = {}
    # The profiler's raw events, one per dispatcher call, as LayerBench reads them (engine/bench/profile.cpp).
    # Not prof.events(): its EventList folds an event into its parent when the two share a name and the event
    # is the only child (profiler_util.py, _remove_dup_nodes), so a Scalar overload that calls its Tensor
    # overload (dropout's noise.div_(1 - p): div_.Scalar, then div_.Tensor) counts once there and twice here.
    for event in prof.profiler.kineto_results.events():
        name = event.name()
        if event.device_type() == torch.autograd.DeviceType.CUDA:
            kernels[name] = kernels.get(name, 0) + 1
        elif name.startswith("aten::"):
            operators[name] = operators.get(name, 0) + 1
    return {"operators": dict(sorted(operators.items())), "kernels": dict(sorted(kernels.items()))}


def op_sets(device: torch.device, batch_size: int, names: str) -> dict:
    return {layer.name: profile_forward(layer, batch_size, device) for layer in catalog.select(names)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="cpu", help="cpu or cuda (default cpu)")
    parser.add_argument("--layers", default="all", help="comma-separated layer names (default all 14)")
    parser.add_argument("--batch-size", type=int, default=1, help="batch size (default 1)")
    parser.add_argument("--out", help="also write the JSON to this file")
    args = parser.parse_args()
    if args.batch_size < 1:
        parser.error("--batch-size must be at least 1")
    result = op_sets(catalog.resolve_device(args.device), args.batch_size, args.layers)
    text = json.dumps(result, indent=2) + "\n"
    if args.out:
        Path(args.out).write_text(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
