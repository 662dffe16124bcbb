#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Counts each layer's FLOPs with torch.utils.flop_counter.FlopCounterMode, an independent check of the
formulas in engine/bench/catalog.cpp (see docs/flops.md).

Each layer is counted twice:
  fused       the kernels torch picks by default. The counter sees only ops it has a formula for, so a
              fused kernel without one (the oneDNN LSTM on the CPU, cuDNN's RNNs, the CPU's flash
              attention) counts 0.
  decomposed  oneDNN and cuDNN off and scaled_dot_product_attention on its math backend, so that every
              matrix product is a plain mm/addmm/bmm/convolution the counter knows.

  python3 bench/gpu/flop_counter.py --device cpu --out flops.json
"""

import argparse
import contextlib
import enum
import json
import sys
import warnings
from pathlib import Path
from typing import Dict, Tuple

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.utils.flop_counter import FlopCounterMode

sys.path.insert(0, str(Path(__file__).resolve().parent))
import layers as catalog  # noqa: E402

# Switching oneDNN off also resets its TF32 flag, which warns on builds without Intel GPU support.
warnings.filterwarnings("ignore", message="TF32 acceleration on top of oneDNN")


class Kernels(enum.Enum):
    fused = "fused"
    decomposed = "decomposed"


def _kernel_context(kernels: Kernels) -> contextlib.ExitStack:
    stack = contextlib.ExitStack()
    if kernels is Kernels.decomposed:
        stack.enter_context(torch.backends.mkldnn.flags(enabled=False))
        stack.enter_context(torch.backends.cudnn.flags(enabled=False))
        stack.enter_context(sdpa_kernel(SDPBackend.MATH))
    return stack


def count_flops(layer: catalog.Layer, batch_size: int, device: torch.device,
                kernels: Kernels) -> Tuple[int, Dict[str, int]]:
    """Total FLOPs of one forward pass of the batch, and the FLOPs per op."""
    torch.manual_seed(0)
    _, forward = layer.instantiate(batch_size, device)
    counter = FlopCounterMode(display=False)
    with _kernel_context(kernels), torch.inference_mode(), counter:
        forward()
    by_op = {str(op): int(flops) for op, flops in counter.get_flop_counts().get("Global", {}).items()}
    return int(counter.get_total_flops()), by_op


def count_parameters(layer: catalog.Layer) -> int:
    return sum(parameter.numel() for parameter in layer.build().parameters())


def count_all(device: torch.device, batch_size: int, names: str) -> dict:
    results = []
    for layer in catalog.select(names):
        entry = {"layer": layer.name, "batch_size": batch_size, "params": count_parameters(layer)}
        for kernels in Kernels:
            total, by_op = count_flops(layer, batch_size, device, kernels)
            entry[kernels.value] = {"flops_per_sample": total / batch_size, "by_op": by_op}
        results.append(entry)
    return {
        "tool": "torch.utils.flop_counter.FlopCounterMode",
        "torch_version": torch.__version__,
        "device": {"type": device.type,
                   "name": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"},
        "attention_fast_path": torch.backends.mha.get_fastpath_enabled(),  # on, but batch_first=False never takes it
        "layers": results,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="auto", help="auto, cpu or cuda (default auto)")
    parser.add_argument("--layers", default="all", help="comma-separated layer names (default all)")
    parser.add_argument("--batch-size", type=int, default=1, help="batch size counted (default 1)")
    parser.add_argument("--out", required=True, help="JSON file to write")
    args = parser.parse_args()
    if args.batch_size < 1:
        parser.error("--batch-size must be at least 1")
    report = count_all(catalog.resolve_device(args.device), args.batch_size, args.layers)
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    for entry in report["layers"]:
        print(f"{entry['layer']:<20} fused {entry['fused']['flops_per_sample']:>16,.0f}"
              f"   decomposed {entry['decomposed']['flops_per_sample']:>16,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
