#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""LayerBench's forward dispatches the same aten:: operators as the Python module (issue 9, docs/dispatch.md).

For each of the 14 layers (or, with --suite today, each of today's layers beyond them) at batch 1, the aten:: operators in results[].operators of a tiny `layerbench run`,
with their call counts, must equal those one profiled forward of the Python twin (bench/parity/python_ops.py)
dispatches, both counted from the profiler's raw events (one per dispatcher call). Shares are not compared. Exit 77 (CTest's skip code here) with the reason when
the device is not there or the binary was built without LibTorch.

  bench_opset_check.py --binary build/layerbench [--device cpu|cuda]
  bench_opset_check.py --dataset run.json [--device cpu]     # an existing dataset instead of a run
  bench_opset_check.py --self-test                           # the comparison itself, no torch needed
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parent.parent
SKIP = 77


def dataset_op_sets(dataset: dict) -> dict:
    """{layer: {aten:: name: calls}} of the batch-1 cells (any batch where there is no batch 1)."""
    sets: dict = {}
    for cell in dataset.get("results", []):
        # Only the reference corner runs what Python's module runs in inference mode (schema 1.3 axes).
        if cell.get("status") != "ok" or cell.get("axes"):
            continue
        if cell["layer"] in sets and cell.get("batch_size") != 1:
            continue
        names = cell.get("operators")
        if names is None:
            sets[cell["layer"]] = None
            continue
        sets[cell["layer"]] = {op["name"]: op.get("calls", 1) for op in names if op["name"].startswith("aten::")}
    return sets


def compare(ours: dict, python: dict) -> list:
    """One message per layer whose operator set differs (or is missing); empty when all agree."""
    problems = []
    for layer in sorted(python):
        expected = python[layer]["operators"]
        if layer not in ours:
            problems.append(f"{layer}: no ok cell in the dataset")
            continue
        got = ours[layer]
        if got is None:
            problems.append(f"{layer}: the cell has no 'operators' (a dataset older than 1.2.0?)")
            continue
        if set(got) != set(expected):
            problems.append(f"{layer}: operator sets differ\n"
                            f"    only in LayerBench: {', '.join(sorted(set(got) - set(expected))) or '-'}\n"
                            f"    only in Python:     {', '.join(sorted(set(expected) - set(got))) or '-'}")
            continue
        counts = [f"{name} {got[name]} against {expected[name]}" for name in sorted(got) if got[name] != expected[name]]
        if counts:
            problems.append(f"{layer}: call counts differ (LayerBench against Python): {', '.join(counts)}")
    for layer in sorted(set(ours) - set(python)):
        problems.append(f"{layer}: in the dataset but not among the Python layers")
    return problems


def self_test() -> int:
    python = {"A": {"operators": {"aten::linear": 1, "aten::addmm": 1}}, "B": {"operators": {"aten::relu": 1}}}

    def cell(layer, names, batch=1, calls=None):
        return {"layer": layer, "batch_size": batch, "status": "ok",
                "operators": [{"name": n, "calls": (calls or {}).get(n, 1), "self_cpu_fraction": 0.5} for n in names]}

    same = {"results": [cell("A", ["aten::addmm", "aten::linear"]), cell("B", ["aten::relu"]),
                        cell("B", ["aten::other"], batch=8)]}
    assert compare(dataset_op_sets(same), python) == [], compare(dataset_op_sets(same), python)
    extra = {"results": [cell("A", ["aten::addmm", "aten::linear", "aten::bmm"]), cell("B", ["aten::relu"])]}
    problems = compare(dataset_op_sets(extra), python)
    assert len(problems) == 1 and "only in LayerBench: aten::bmm" in problems[0], problems
    fewer = {"results": [cell("A", ["aten::linear"]), cell("B", ["aten::relu"])]}
    problems = compare(dataset_op_sets(fewer), python)
    assert len(problems) == 1 and "only in Python:     aten::addmm" in problems[0], problems
    missing = {"results": [cell("A", ["aten::addmm", "aten::linear"]),
                           {"layer": "B", "batch_size": 1, "status": "ok"}]}
    problems = compare(dataset_op_sets(missing), python)
    assert len(problems) == 1 and "no 'operators'" in problems[0], problems
    absent = {"results": [cell("A", ["aten::addmm", "aten::linear"])]}
    assert len(compare(dataset_op_sets(absent), python)) == 1
    twice = {"results": [cell("A", ["aten::addmm", "aten::linear"], calls={"aten::addmm": 2}), cell("B", ["aten::relu"])]}
    problems = compare(dataset_op_sets(twice), python)
    assert len(problems) == 1 and "call counts differ (LayerBench against Python): aten::addmm 2 against 1" in problems[0], problems
    print("self-test: the comparison passes equal operators and counts, and fails on every kind of difference")
    return 0


def run_layerbench(binary: str, device: str, out: Path, suite: str) -> dict:
    command = [binary, "run", "--device", device, "--suite", suite, "--batch-sizes", "1", "--cell-budget", "0.05",
               "--min-samples", "3", "--warmup", "0", "--out", str(out)]
    print("$ " + " ".join(command), flush=True)
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        if "built without LibTorch" in done.stdout:
            print("SKIPPED: layerbench was built without LibTorch")
            sys.exit(SKIP)
        print(done.stdout)
        raise SystemExit(f"FAILED: layerbench run exited {done.returncode}")
    return json.loads(out.read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="layerbench to run")
    parser.add_argument("--dataset", help="compare this dataset instead of running layerbench")
    parser.add_argument("--device", default="cpu", help="cpu or cuda (default cpu)")
    parser.add_argument("--self-test", action="store_true", help="test the comparison and exit")
    parser.add_argument("--suite", default="reference", choices=("reference", "today"),
                        help="the fourteen layers of the reference (default), or today's layers beyond them")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    import torch  # noqa: E402  (not needed by the self-test)
    if args.device == "cuda" and not torch.cuda.is_available():
        print("SKIPPED: torch sees no CUDA device; the CUDA operator check runs only on a GPU machine")
        return SKIP
    sys.path.insert(0, str(SOURCE_DIR / "bench" / "parity"))
    import python_ops  # noqa: E402
    if args.dataset:
        dataset = json.loads(Path(args.dataset).read_text())
    elif args.binary:
        with tempfile.TemporaryDirectory() as folder:
            dataset = run_layerbench(args.binary, args.device, Path(folder) / "run.json", args.suite)
    else:
        parser.error("give --binary, --dataset or --self-test")
    python = python_ops.op_sets(torch.device(args.device), 1, "all" if args.suite == "reference" else "today")
    problems = compare(dataset_op_sets(dataset), python)
    for problem in problems:
        print("FAILED: " + problem)
    if problems:
        return 1
    print(f"ok: the aten:: operators and their call counts of all {len(python)} layers equal Python's ({args.device})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
