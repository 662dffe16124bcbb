#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/models/ (issue 25): the compiled=torch_compile worker and the model cross-check's arithmetic.

  models_python_check.py

1. The worker's copy of LayerBench's statistics and stopping rule, on known samples.
2. compiled_train.py on ResNetTiny, batch 1, a training step on the CPU, one thread, a tiny budget: the cell it
   writes has the fields and values a dataset cell at that corner must have (never a timing's value).
3. Bad arguments exit 2 naming the argument; a CUDA cell without CUDA is a skipped cell, exit 0.
4. parity.py's reading of a hand-made dataset (tests/fixtures/models/) and its cells, without timing anything.

Exit 77 (CTest's skip code here) with the reason when torchvision or transformers is not installed.
"""

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parents[1]
MODELS_DIR = SOURCE_DIR / "bench" / "models"
FIXTURE = SOURCE_DIR / "tests" / "fixtures" / "models" / "dataset-model-cells.json"
SKIP = 77

try:
    import torch  # noqa: F401
    import torchvision  # noqa: F401
    import transformers  # noqa: F401
except ImportError as missing:
    print(f"SKIPPED: {missing.name} is not installed in {sys.executable} (scripts/setup.sh installs them into the venv)")
    sys.exit(SKIP)

sys.path.insert(0, str(MODELS_DIR))
import compiled_train  # noqa: E402
import parity  # noqa: E402  (bench/models/parity.py: MODELS_DIR is first on the path)


def check(condition: bool, message: str) -> None:
    if not condition:
        raise SystemExit(f"FAILED: {message}")


def worker(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(MODELS_DIR / "compiled_train.py"), *arguments],
                          capture_output=True, text=True, env=dict(os.environ, HF_HUB_OFFLINE="1"))


def check_statistics() -> None:
    samples = [4.0, 1.0, 3.0, 2.0]
    check(compiled_train.quantile(samples, 0.25) == 1.75, "p25 by linear interpolation (numpy's default)")
    check(compiled_train.quantile(samples, 0.5) == 2.5, "median of an even count")
    check(abs(compiled_train.noise(samples) - 1.5 / 2.5) < 1e-12, "noise = (p75 - p25) / median")
    rule = dict(min_samples=5, max_samples=6, noise_target=0.05, cell_budget=1.0)
    quiet = [1.0] * 5
    check(compiled_train.decide(quiet[:4], 0.0, rule) == "continue", "min_samples comes first")
    check(compiled_train.decide(quiet, 0.0, rule) == "target_met", "five equal samples meet the target")
    noisy = [1.0, 2.0, 1.0, 2.0, 1.0, 2.0]
    check(compiled_train.decide(noisy[:5], 0.0, rule) == "continue", "noisy, under max_samples, within budget")
    check(compiled_train.decide(noisy, 0.0, rule) == "max_samples", "max_samples ends a noisy cell")
    check(compiled_train.decide(noisy[:2], 2.0, rule) == "continue", "a spent budget still needs 3 samples")
    check(compiled_train.decide(noisy[:3], 2.0, rule) == "budget_spent", "a spent budget ends at 3 samples")
    check(compiled_train.next_block(1, 0.001, 0.01) == 10, "a block grows at most 10x a step")
    check(compiled_train.next_block(4, 0.009, 0.01) == 8, "and at least 2x")
    check(compiled_train.next_block(4, 0.25, 0.5) == 10, "aiming 20 % past the target from the rate seen")
    stats = compiled_train.stats_of([1.0, 3.0, 2.0], 4, "budget_spent")
    check(stats["median_ms"] == 2.0 and stats["stddev_ms"] == 1.0 and stats["iterations_per_sample"] == 4
          and stats["noise_target_met"] is False and stats["samples_ms"] == [1.0, 3.0, 2.0], f"stats {stats}")


def check_compiled_cell(folder: Path) -> None:
    out = folder / "cell.json"
    done = worker("--model", "ResNetTiny", "--batch-size", "1", "--mode", "train", "--device", "cpu", "--threads", "1",
                  "--warmup", "0.01", "--block-target", "0.001", "--min-samples", "3", "--cell-budget", "0.2",
                  "--out", str(out))
    check(done.returncode == 0, f"compiled_train.py exited {done.returncode}:\n{done.stderr[-3000:]}")
    cell = json.loads(out.read_text())
    check(cell["status"] == "ok", f"the cell was skipped: {cell.get('skip_reason')}")
    check((cell["layer"], cell["batch_size"]) == ("ResNetTiny", 1), "layer and batch size")
    check(cell["axes"] == {"precision": "fp32", "memory_format": "contiguous", "cudnn_benchmark": "off",
                           "mode": "train", "compiled": "torch_compile"}, f"axes {cell['axes']}")
    stats = cell["stats"]
    check(stats["samples"] == len(stats["samples_ms"]) >= 3, "at least 3 samples, each recorded")
    check(stats["p25_ms"] <= stats["median_ms"] <= stats["p75_ms"] and stats["min_ms"] <= stats["p25_ms"],
          f"quartiles in order: {stats}")
    check(stats["median_ms"] == compiled_train.quantile(stats["samples_ms"], 0.5), "the median is the samples'")
    check(abs(cell["throughput_samples_per_s"] - 1000.0 / stats["median_ms"]) < 1e-6, "throughput = batch / median")
    check(cell["first_call_ms"] > 0 and "peak_memory_bytes" not in cell, "first call; no CPU peak from Python")
    runtime = cell["runtime"]
    check(runtime["torch"] == torch.__version__ and runtime["python"].count(".") == 2, f"runtime {runtime}")
    check(runtime["compile_seconds"] > 0 and cell["cell_seconds"] >= runtime["compile_seconds"],
          "compilation recorded, and inside the cell's wall time")
    check(set(cell) == {"layer", "batch_size", "axes", "status", "stats", "first_call_ms", "throughput_samples_per_s",
                        "cell_seconds", "runtime"}, f"cell keys {sorted(cell)}")


def main_in_process(*arguments: str) -> tuple:
    """compiled_train.main's exit code and stderr, without a new interpreter (torch is imported once)."""
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        try:
            code = compiled_train.main(list(arguments))
        except SystemExit as exit_:
            code = exit_.code
    return code, stderr.getvalue()


def check_arguments(folder: Path) -> None:
    out = str(folder / "bad.json")
    tiny = ["--model", "ResNetTiny", "--batch-size", "1"]
    for arguments, named in [(["--model", "ResNet51", "--batch-size", "1", "--out", out], "--model"),
                             (["--model", "ResNetTiny", "--batch-size", "0", "--out", out], "--batch-size"),
                             (tiny + ["--precision", "fp16", "--out", out], "--precision"),
                             (tiny + ["--noise-target", "-1", "--out", out], "--noise-target"),
                             (tiny + ["--out", "/nonexistent/cell.json"], "--out")]:
        code, stderr = main_in_process(*arguments)
        check(code == 2 and named in stderr, f"{arguments}: exit {code}, {stderr}")
    check(not Path(out).exists(), "a usage error writes no cell")
    if torch.cuda.is_available():
        return
    code, _ = main_in_process("--model", "ResNetTiny", "--batch-size", "1", "--device", "cuda", "--out", out)
    cell = json.loads(Path(out).read_text())
    check(code == 0 and cell["status"] == "skipped" and "CUDA" in cell["skip_reason"]
          and cell["runtime"]["compile_seconds"] is None, f"no CUDA: a skipped cell, exit 0: {cell}")


def check_parity() -> None:
    dataset = json.loads(FIXTURE.read_text())
    medians = parity.dataset_medians(dataset, {"ResNetTiny", "BertTiny"})
    check(medians == {("BertTiny", 1, "inference_mode", "fp32"): 3.0, ("BertTiny", 1, "train", "fp32"): 110.0,
                      ("ResNetTiny", 1, "inference_mode", "fp32"): 50.0},
          f"ok eager contiguous model cells only (no skipped, aot_inductor, channels_last or layer cell): {medians}")
    layerbench = {k: [v] for k, v in medians.items()}
    python = {("BertTiny", 1, "inference_mode", "fp32"): [1.0, 2.0], ("BertTiny", 1, "train", "fp32"): [100.0, 100.0],
              ("ResNetTiny", 1, "inference_mode", "fp32"): [50.0, 51.0]}
    cells = parity.build_cells(layerbench, python, {"BertTiny@1 train fp32": "why"})
    check([c["round_ratios"] for c in cells] == [[3.0, 1.5], [1.1, 1.1], [1.0, 0.9804]],
          "one dataset median stands against every Python round")
    check([c["within_target"] for c in cells] == [True, False, True], "a 3 ms cell is not held to the band; 10 ms is")
    check(cells[1]["ratio"] == 1.1 and cells[1]["note"] == "why" and cells[1]["axes"]["mode"] == "train",
          f"BertTiny train: {cells[1]}")
    check(parity.parse_cell_name(parity.cell_name(("BertTiny", 8, "train", "bf16"))) == ("BertTiny", 8, "train", "bf16"),
          "cell names read back")
    args = parity.parse_arguments(["--layerbench", "lb", "--models", "BertTiny", "--batch-sizes", "1,8", "--modes",
                                   "train", "--precisions", "fp32,bf16", "--threads", "2", "--out", "report.json"])
    check(parity.layerbench_command(args, Path("/nonexistent/run-1.json")) == [
        "lb", "run", "--device", "cpu", "--threads", "2", "--layers", "BertTiny", "--batch-sizes", "1,8", "--axes",
        "mode=train", "--axes", "precision=fp32,bf16", "--cpu-memory", "steady-state", "--no-profiles", "--no-peaks",
        "--out", "/nonexistent/run-1.json"], "the layerbench run of a round")
    check(len(parity.matrix(args)) == 4, "the cells: 2 batch sizes x 1 mode x 2 precisions")
    check("OUTSIDE" in parity.table({"cells": cells, "summary": parity.layer_parity.summarize(cells, parity.TARGETS),
                                     "targets": parity.TARGETS}), "the table marks cells outside the target")


def main() -> int:
    check_statistics()
    check_parity()
    with tempfile.TemporaryDirectory() as temporary:
        check_arguments(Path(temporary))
        check_compiled_cell(Path(temporary))
    print("models_python_check: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
