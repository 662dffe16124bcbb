#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Shapes from the user (issue 37 item 3): every layer's formulas at parameters other than the reference's.

For two or more shapes of each of the fourteen layers and of today's layers beyond them, `layerbench layers --layers LIST --format json`
gives the catalog's entry (its parameters in layers[].shape, its parameter formula, the count taken from
the C++ module, its matrix FLOPs). The Python twin is built from the same recorded parameters
(bench/gpu/layers.py, shaped), and must agree:
  - sum(p.numel()) equals the formula's parameters and the C++ module's count;
  - FlopCounterMode, with oneDNN off and attention on its math backend (bench/gpu/flop_counter.py,
    decomposed), counts the entry's matrix FLOPs per sample exactly, at batch 1 and at batch 3;
  - each layer's parameter names and defaults equal `layerbench layers --parameters --format json`.
Skipped (exit 77) where the binary was built without LibTorch.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(SOURCE_DIR / "bench" / "gpu"))
import flop_counter  # noqa: E402
import layers  # noqa: E402

SKIP = 77

# Unequal sides, kernels of 1 and of the whole input, strides above the kernel, several directions and
# layers, heads that are not a power of two, a Linear with and without positions.
SHAPES = ",".join([
    "Conv2d(in=3,out=16,k=5,h=20,w=24)", "Conv2d(in=32,out=8,k=1,h=7,w=7)", "Conv2d(in=4,out=6,k=9,h=9,w=11)",
    "Conv1d(in=16,out=24,k=3,len=50)", "Conv1d(in=4,out=4,k=7,len=7)",
    "ConvTranspose2d(in=16,out=8,k=3,stride=1,h=9,w=5)", "ConvTranspose2d(in=8,out=4,k=2,stride=3,h=4,w=4)",
    "Linear(in=64,out=96)@seq=0,16",
    "LSTM(in=32,hidden=16,layers=1,directions=1,len=10)", "LSTM(in=8,hidden=24,layers=3,len=5)",
    "GRU(in=32,hidden=16,layers=3,directions=2,len=7)", "GRU(in=12,hidden=8,layers=1,len=3)",
    "TransformerEncoder(d=64,heads=4,ff=128,seq=32)", "TransformerEncoder(d=48,heads=3,ff=96,seq=10)",
    "MultiheadAttention(d=64,heads=8)@seq=16,40", "MultiheadAttention(d=96,heads=3,seq=7)",
    "BatchNorm2d(c=16,h=8,w=12)", "BatchNorm2d(c=3,h=1,w=1)",
    "LayerNorm(d=96,seq=10)", "LayerNorm(d=7,seq=1)",
    "Embedding(vocab=1000,d=32,seq=20)", "Embedding(vocab=10,d=3,seq=1)",
    "MaxPool2d(c=8,h=12,w=12,k=3)", "MaxPool2d(c=2,h=5,w=9,k=5)",
    "AvgPool2d(c=8,h=10,w=6,k=2)", "AvgPool2d(c=1,h=3,w=3,k=3)",
    "Dropout(d=100,p=0.1)", "Dropout(d=7,p=0)",
    # Today's layers beyond the reference (catalog.hpp, todays_layers()).
    "RMSNorm(d=96,seq=10)", "RMSNorm(d=5,seq=1)", "GELU(d=30,seq=4)", "GELU(d=7,seq=1)", "SiLU(d=30,seq=4)", "SiLU(d=3,seq=9)",
    "ScaledDotProductAttention(heads=4,kv_heads=4,head_dim=16,seq=24)", "ScaledDotProductAttention(heads=3,kv_heads=3,head_dim=5,seq=7)",
    "GroupedQueryAttention(heads=8,kv_heads=2,head_dim=16,seq=24)", "GroupedQueryAttention(heads=6,kv_heads=3,head_dim=8,seq=5)",
    "DepthwiseConv2d(c=16,k=3,h=9,w=12)", "DepthwiseConv2d(c=3,k=5,h=5,w=7)",
    "Conv3d(in=8,out=4,k=3,depth=5,h=6,w=7)", "Conv3d(in=8,out=8,k=2,depth=4,h=4,w=4,groups=8)",
    "SwiGLU(d=32,hidden=48,seq=6)", "SwiGLU(d=7,hidden=5,seq=1)",
])


def run_binary(binary: str, *arguments: str) -> str:
    result = subprocess.run([binary, "layers", *arguments], capture_output=True, text=True)
    if result.returncode != 0 and "without LibTorch" in result.stderr:
        print(f"SKIPPED: {binary} was built without LibTorch")
        sys.exit(SKIP)
    if result.returncode != 0:
        sys.exit(f"'{binary} layers {' '.join(arguments)}' failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def check_defaults(binary: str) -> list:
    problems = []
    table = json.loads(run_binary(binary, "--parameters", "--format", "json"))
    theirs = {entry["layer"]: {p["name"]: p["default"] for p in entry["parameters"]} for entry in table}
    ours = {**layers.PARAMETERS, **layers.TODAY_PARAMETERS}
    if list(theirs) != list(ours):
        problems.append(f"layers differ: binary {list(theirs)}, layers.py PARAMETERS and TODAY_PARAMETERS {list(ours)}")
    for name, defaults in theirs.items():
        if ours.get(name) != defaults:
            problems.append(f"{name}: binary's parameters {defaults}, layers.py's {ours.get(name)}")
    return problems


def check_shapes(binary: str) -> list:
    problems = []
    entries = json.loads(run_binary(binary, "--layers", SHAPES, "--format", "json"))
    print(f"{'layer':<52}{'params':>12}{'matmul FLOPs/sample':>22}  FlopCounterMode")
    cpu = flop_counter.torch.device("cpu")
    for entry in entries:
        shape = entry.get("shape")
        if not shape:
            problems.append(f"{entry['name']}: no layers[].shape recorded")
            continue
        twin = layers.shaped(shape["layer"], shape["parameters"], entry["name"])
        numel = flop_counter.count_parameters(twin)
        counts = []
        for batch in (1, 3):
            total, _ = flop_counter.count_flops(twin, batch, cpu, flop_counter.Kernels.decomposed)
            counts.append(total / batch)
        print(f"{entry['name']:<52}{numel:>12,}{entry['matmul_flops_per_sample']:>22,.0f}  {counts[0]:,.0f}, {counts[1]:,.0f}")
        for key in ("params", "params_counted"):
            if entry.get(key) != numel:
                problems.append(f"{entry['name']}: Python's module has {numel:,} parameters, ours ({key}) {entry.get(key)}")
        for batch, count in zip((1, 3), counts):
            if count != entry["matmul_flops_per_sample"]:
                problems.append(f"{entry['name']}: FlopCounterMode counts {count:,.0f} FLOPs per sample at batch {batch}, "
                                f"ours {entry['matmul_flops_per_sample']:,.0f}")
    if len(entries) < 2 * (len(layers.PARAMETERS) + len(layers.TODAY_PARAMETERS)):
        problems.append(f"only {len(entries)} shapes for {len(layers.PARAMETERS) + len(layers.TODAY_PARAMETERS)} layers")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, help="the layerbench binary")
    args = parser.parse_args()
    if not Path(args.binary).is_file():
        print(f"SKIPPED: no layerbench binary at '{args.binary}'")
        return SKIP
    problems = check_defaults(args.binary) + check_shapes(args.binary)
    for problem in problems:
        print(f"MISMATCH: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
