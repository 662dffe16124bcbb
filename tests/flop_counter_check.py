#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The FLOP and parameter cross-check of issue 2, run by CTest on the CPU (tests/device.cmake).

Builds each layer as a Python module at batch 1, counts it with FlopCounterMode (bench/gpu/flop_counter.py)
and compares with our figures:
  --against hand     the values below, computed by hand from the layer configurations
  --against layers   `layerbench layers --format json` of the built binary (--binary); skipped, exit 77,
                     when that binary was built without LibTorch
Expected, per layer: the decomposed count equals our matrix FLOPs exactly; the fused count equals them
less what docs/flops.md lists as uncounted; sum(p.numel()) equals our parameter formula (and the count
the binary took from its own module).
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(SOURCE_DIR / "bench" / "gpu"))
import flop_counter  # noqa: E402
from flop_expectations import expected_fused_count  # noqa: E402

SKIP = 77

# name: (matrix FLOPs per sample, parameters), by hand from the configurations in the seed's table.
HAND = {
    "Conv2d": (2 * 64 * 128 * 3 * 3 * 30 * 30, 64 * 128 * 9 + 128),
    "Conv1d": (2 * 256 * 512 * 5 * 96, 256 * 512 * 5 + 512),
    "ConvTranspose2d": (2 * 128 * 64 * 4 * 4 * 16 * 16, 128 * 64 * 16 + 64),
    "Linear": (2 * 4096 * 4096, 4096 * 4096 + 4096),
    # 2 layers x 2 directions x 4 gates; the second layer reads 2*256 inputs. 100 steps.
    "LSTM": (2 * 2 * 4 * 256 * (512 + 256) * 100 + 2 * 2 * 4 * 256 * (512 + 256) * 100,
             2 * 4 * (512 * 256 + 256 * 256 + 2 * 256) * 2),
    # 2 layers x 3 gates; the second layer reads 256 inputs.
    "GRU": (2 * 3 * 256 * (512 + 256) * 100 + 2 * 3 * 256 * (256 + 256) * 100,
            3 * (512 * 256 + 256 * 256 + 512) + 3 * (256 * 256 + 256 * 256 + 512)),
    # attention (below) + two feed-forward products 512 <-> 2048 over 512 tokens.
    "TransformerEncoder": (1610612736 + 2 * 2 * 512 * 2048 * 512,
                           4 * 512 * 512 + 4 * 512 + 2 * 512 * 2048 + 2048 + 512 + 4 * 512),
    # q, k, v and output projections over 512 tokens + QK^T and AV.
    "MultiheadAttention": (2 * 4 * 512 * 512 * 512 + 2 * 2 * 512 * 512 * 512, 4 * 512 * 512 + 4 * 512),
    "BatchNorm2d": (0, 2 * 256),
    "LayerNorm": (0, 2 * 512),
    "Embedding": (0, 50000 * 768),
    "MaxPool2d": (0, 0),
    "AvgPool2d": (0, 0),
    "Dropout": (0, 0),
}


def ours_from_hand() -> dict:
    return {name: {"matmul_flops_per_sample": flops, "params": params} for name, (flops, params) in HAND.items()}


def ours_from_binary(binary: str) -> dict:
    if not binary or not Path(binary).is_file():
        print(f"SKIPPED: no layerbench binary at '{binary}'")
        sys.exit(SKIP)
    result = subprocess.run([binary, "layers", "--format", "json"], capture_output=True, text=True)
    if result.returncode != 0 and "without LibTorch" in result.stderr:
        print(f"SKIPPED: {binary} was built without LibTorch, so it has no 'layers' to compare with")
        sys.exit(SKIP)
    if result.returncode != 0:
        sys.exit(f"'{binary} layers --format json' failed ({result.returncode}): {result.stderr.strip()}")
    return {entry["name"]: entry for entry in json.loads(result.stdout)}


def check(ours: dict) -> list:
    """Prints a table and returns the mismatches, one line each."""
    counted = {entry["layer"]: entry for entry in flop_counter.count_all(flop_counter.torch.device("cpu"), 1, "all")["layers"]}
    missing = sorted(set(counted) ^ set(ours))
    problems = [f"layer sets differ: {', '.join(missing)}"] if missing else []
    print(f"{'layer':<20}{'ours':>16}{'decomposed':>16}{'fused':>16}{'params':>12}  note")
    for name, entry in counted.items():
        if name not in ours:
            continue
        matmul = ours[name]["matmul_flops_per_sample"]
        decomposed = entry["decomposed"]["flops_per_sample"]
        fused = entry["fused"]["flops_per_sample"]
        expected_fused, reason = expected_fused_count("cpu", name, matmul)
        print(f"{name:<20}{matmul:>16,.0f}{decomposed:>16,.0f}{fused:>16,.0f}{entry['params']:>12,}  {reason}")
        if decomposed != matmul:
            problems.append(f"{name}: FlopCounterMode (decomposed) counts {decomposed:,.0f} FLOPs per sample, ours {matmul:,.0f}")
        if fused != expected_fused:
            problems.append(f"{name}: FlopCounterMode (fused) counts {fused:,.0f}, docs/flops.md expects {expected_fused:,.0f}")
        for key in ("params", "params_counted"):
            if key in ours[name] and ours[name][key] != entry["params"]:
                problems.append(f"{name}: Python module has {entry['params']:,} parameters, ours ({key}) {ours[name][key]:,}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", choices=("hand", "layers"), required=True)
    parser.add_argument("--binary", default="", help="the layerbench binary (with --against layers)")
    args = parser.parse_args()
    ours = ours_from_hand() if args.against == "hand" else ours_from_binary(args.binary)
    problems = check(ours)
    for problem in problems:
        print(f"MISMATCH: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
