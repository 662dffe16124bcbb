#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Whole-model cross-check (issue 25, item 4): LayerBench's model cells against the same steps timed in Python with
torch.utils.benchmark.Timer(num_threads=N).blocked_autorange(min_run_time=...), eager, after a warm-up.

  # against a dataset already measured (its medians; the Python side measured now, --rounds fresh processes)
  parity.py --dataset runs/models.json --threads 2 --out /tmp/models-parity.json
  # LayerBench and Python in alternating rounds, as bench/parity/parity.py does for the layers
  parity.py --layerbench build/layerbench --rounds 3 --models ResNet50,BertBase --batch-sizes 1,8 \
      --modes inference_mode,train --precisions fp32,bf16 --out /tmp/models-parity.json
  # the Python side alone, tiny models, a few seconds
  parity.py --smoke

A cell is (model, batch size, mode, precision), eager, contiguous, cudnn.benchmark off; its Python twin is
py_models.py's. Ratio = LayerBench median / Python median (median over rounds of the per-round ratios); eager
cells of at least CELL_MIN_MS on either side are flagged outside 0.95-1.05. The report is bench/parity's
"layerbench-parity" format at 1.1.0: 1.0.0 plus cells[].axes (the corner, as a dataset cell spells it).
"""

import argparse
import datetime
import difflib
import importlib.util
import json
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE_DIR = HERE.parents[1]
sys.path.insert(0, str(HERE))
import py_models  # noqa: E402


def load_layer_parity():
    """bench/parity/parity.py, the layers' cross-check, whose ratio rule, targets, memory policies and child
    handling this one shares (loaded by path: this file has the same name)."""
    spec = importlib.util.spec_from_file_location("layer_parity", SOURCE_DIR / "bench" / "parity" / "parity.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


layer_parity = load_layer_parity()

FORMAT_VERSION = "1.1.0"  # layerbench-parity 1.0.0 plus cells[].axes
CELL_MIN_MS = 10.0  # issue 25: eager model cells of 10 ms or more within +-5 %
TARGETS = dict(layer_parity.TARGETS, cell_min_ms=CELL_MIN_MS)
REFERENCE_AXES = {"precision": "fp32", "memory_format": "contiguous", "cudnn_benchmark": "off",
                  "mode": "inference_mode", "compiled": "eager"}
# One thread: a smoke run on a shared machine must not spin two OpenMP threads against other work.
SMOKE = dict(models="ResNetTiny,BertTiny", batch_sizes="1", modes="inference_mode,train", precisions="fp32",
             rounds=1, min_run_time=0.2, threads=1)


# ---- cells ---------------------------------------------------------------------------------------------

def cell_name(key: tuple) -> str:
    model, batch, mode, precision = key
    return f"{model}@{batch} {mode} {precision}"


def parse_cell_name(name: str) -> tuple:
    where, mode, precision = name.split(" ")
    model, batch = where.rsplit("@", 1)
    return model, int(batch), mode, precision


def axes_of(key: tuple) -> dict:
    return dict(REFERENCE_AXES, mode=key[2], precision=key[3])


def dataset_key(cell: dict, models: set):
    """(model, batch, mode, precision) of an ok eager model cell at the contiguous, cudnn-off corner; else None."""
    axes = dict(REFERENCE_AXES, **cell.get("axes", {}))
    if cell.get("status") != "ok" or cell["layer"] not in models:
        return None
    if (axes["compiled"], axes["memory_format"], axes["cudnn_benchmark"]) != ("eager", "contiguous", "off"):
        return None
    return cell["layer"], cell["batch_size"], axes["mode"], axes["precision"]


def dataset_medians(dataset: dict, models: set) -> dict:
    """{key: median_ms} of the dataset's model cells that have a Python twin."""
    medians = {}
    for cell in dataset.get("results", []):
        key = dataset_key(cell, models)
        if key is not None:
            medians[key] = cell["stats"]["median_ms"]
    return medians


def round_ratios(layerbench_ms: list, python_ms: list) -> list:
    """Rounds pair up by index; a single LayerBench median (--dataset) stands against every Python round."""
    return [layerbench_ms[min(i, len(layerbench_ms) - 1)] / py for i, py in enumerate(python_ms)]


def build_cells(layerbench: dict, python: dict, notes: dict) -> list:
    """layerbench and python: {key: [median_ms per round]}; the cells on both sides, in LayerBench's order."""
    cells = []
    for key, lb_ms in layerbench.items():
        if key not in python:
            continue
        ratios = round_ratios(lb_ms, python[key])
        ratio = statistics.median(ratios)
        lb_median, py_median = statistics.median(lb_ms), statistics.median(python[key])
        cells.append({"layer": key[0], "batch_size": key[1], "axes": axes_of(key),
                      "layerbench_median_ms": round(lb_median, 6), "python_median_ms": round(py_median, 6),
                      "ratio": round(ratio, 4), "round_ratios": [round(r, 4) for r in ratios],
                      "within_target": layer_parity.within_target(lb_median, py_median, ratio, TARGETS),
                      "note": notes.get(cell_name(key), "")})
    return cells


def table(doc: dict) -> str:
    lines = [f"{'cell':<36} {'layerbench ms':>14} {'python ms':>12} {'ratio':>7}  rounds"]
    for c in doc["cells"]:
        key = (c["layer"], c["batch_size"], c["axes"]["mode"], c["axes"]["precision"])
        mark = "" if c["within_target"] else "  OUTSIDE"
        lines.append(f"{cell_name(key):<36} {c['layerbench_median_ms']:>14.3f} {c['python_median_ms']:>12.3f} "
                     f"{c['ratio']:>7.3f}  {' '.join(f'{r:.3f}' for r in c['round_ratios'])}{mark}")
    s, t = doc["summary"], doc["targets"]
    lines.append(f"median ratio {s['median_ratio']}; {s['cells_within']} of {s['cells_at_least_min_ms']} cells >= "
                 f"{t['cell_min_ms']} ms within {t['cell_ratio_low']}-{t['cell_ratio_high']}")
    return "\n".join(lines)


# ---- the Python side -----------------------------------------------------------------------------------

def matrix(args) -> list:
    """Every (model, batch, mode, precision) asked for, in matrix order (names checked by check_names)."""
    return [(model, int(batch), mode, precision) for model in split(args.models) for batch in split(args.batch_sizes)
            for mode in split(args.modes) for precision in split(args.precisions)]


def unknown_name(option: str, value: str, known: tuple) -> str:
    close = difflib.get_close_matches(value, known, n=1)
    hint = f", did you mean '{close[0]}'?" if close else ""
    return f"argument {option}: unknown value '{value}'{hint} (values: {', '.join(known)})"


def check_names(args) -> str:
    """The first problem with --models, --modes, --precisions or --batch-sizes, or '' when there is none."""
    for option, text, known in [("--models", args.models, py_models.MODELS), ("--modes", args.modes, py_models.MODES),
                                ("--precisions", args.precisions, py_models.PRECISIONS)]:
        for value in split(text) or [""]:
            if value not in known:
                return unknown_name(option, value, known)
    for precision in split(args.precisions):
        if precision in py_models.CUDA_ONLY and args.device != "cuda":
            return f"argument --precisions: {precision} ({py_models.CUDA_ONLY[precision]}) needs --device cuda"
    sizes = split(args.batch_sizes)
    if not sizes or not all(size.isdigit() and int(size) > 0 for size in sizes):
        return f"argument --batch-sizes: '{args.batch_sizes}' is not a list of positive integers"
    return ""


def split(text: str) -> list:
    return [item for item in text.split(",") if item]


def time_twin(key: tuple, args) -> float:
    """Median ms per step: a first call, a warm-up of at least --warmup seconds (and 2 steps), then blocked_autorange."""
    import torch
    from torch.utils import benchmark
    twin = py_models.build(*key, torch.device(args.device))
    timer = benchmark.Timer(stmt="step()", globals={"step": twin.step}, num_threads=args.threads)
    first = timer.timeit(1).median
    timer.timeit(max(2, int(args.warmup / max(first, 1e-6))))
    return timer.blocked_autorange(min_run_time=args.min_run_time).median * 1e3


def python_side(args) -> int:
    """In a fresh process: every cell, each appended to --partial as soon as it is timed (resumable)."""
    layer_parity.apply_memory_policy(args.cpu_memory)
    import torch
    torch.set_num_threads(args.threads)
    partial = Path(args.partial)
    done = layer_parity.read_partial(partial)
    try:
        for key in matrix(args):
            if cell_name(key) not in done:
                time_into(partial, key, args)
    except KeyboardInterrupt:
        print(f"models parity: interrupted; the cells timed so far are kept in {partial}", file=sys.stderr)
        return 130
    return 0


def time_into(partial: Path, key: tuple, args) -> None:
    """A cell that cannot run here (out of memory) is left out of the comparison, with a message; the rest go on."""
    try:
        median_ms = time_twin(key, args)
    except Exception as error:  # torch.OutOfMemoryError and the like
        print(f"models parity: {cell_name(key)}: not timed in Python: {type(error).__name__}: "
              f"{str(error).strip().splitlines()[0] if str(error).strip() else ''}", file=sys.stderr)
        return
    layer_parity.append_partial(partial, cell_name(key), median_ms)


def run_python(args, out: Path) -> None:
    partial = Path(str(out) + ".partial")
    command = [sys.executable, __file__, "--python-side", "--partial", str(partial)] + side_arguments(args)
    done = layer_parity.run_child(command)
    if done.returncode != 0:
        raise SystemExit(f"models parity: the Python side exited {done.returncode}; its cells so far are in {partial}")
    out.write_text(json.dumps(layer_parity.read_partial(partial)) + "\n")
    partial.unlink()


def side_arguments(args) -> list:
    return ["--device", args.device, "--threads", str(args.threads), "--models", args.models, "--batch-sizes",
            args.batch_sizes, "--modes", args.modes, "--precisions", args.precisions, "--cpu-memory",
            args.cpu_memory, "--min-run-time", str(args.min_run_time), "--warmup", str(args.warmup)]


def read_python(path: Path) -> dict:
    return {parse_cell_name(name): ms for name, ms in json.loads(path.read_text()).items()}


# ---- the LayerBench side -------------------------------------------------------------------------------

def layerbench_command(args, out: Path) -> list:
    """One `layerbench run` for every cell; timings only (no profiles, no peaks: both come after the timings).
    Resumed from its checkpoint when an earlier process of the round was cut short."""
    command = [args.layerbench, "run", "--device", args.device, "--threads", str(args.threads), "--layers",
               args.models, "--batch-sizes", args.batch_sizes, "--axes", f"mode={args.modes}", "--axes",
               f"precision={args.precisions}", "--cpu-memory", args.cpu_memory, "--no-profiles", "--no-peaks",
               "--out", str(out)]
    return command + (["--resume"] if Path(str(out) + ".partial").exists() else [])


def run_layerbench(args, out: Path) -> None:
    command = layerbench_command(args, out)
    done = layer_parity.run_child(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise SystemExit(f"models parity: {shlex.join(command)} exited {done.returncode}:\n{done.stderr[-2000:]}")


def run_rounds(args, folder: Path) -> tuple:
    """Alternating rounds: odd rounds LayerBench first. Returns ({key: [LB ms]}, {key: [Python ms]}, first dataset)."""
    models = set(split(args.models))
    layerbench, python, first = {}, {}, None
    for r in range(1, args.rounds + 1):
        sides = ["layerbench", "python"] if r % 2 == 1 else ["python", "layerbench"]
        for side in sides:
            run_side(args, side, r, folder / (f"run-{r}.json" if side == "layerbench" else f"python-{r}.json"))
        dataset = json.loads((folder / f"run-{r}.json").read_text())
        first = first or dataset
        append_round(layerbench, dataset_medians(dataset, models))
        append_round(python, read_python(folder / f"python-{r}.json"))
    return layerbench, python, first


def run_side(args, side: str, r: int, out: Path) -> None:
    """A side whose file exists (in --keep-dir) is done; one cut short continues from its .partial."""
    if out.exists():
        print(f"round {r}/{args.rounds}: {side} already measured ({out.name})", file=sys.stderr, flush=True)
        return
    print(f"round {r}/{args.rounds}: {side}", file=sys.stderr, flush=True)
    (run_layerbench if side == "layerbench" else run_python)(args, out)


def append_round(into: dict, medians: dict) -> None:
    for key, ms in medians.items():
        into.setdefault(key, []).append(ms)


def python_rounds(args, folder: Path) -> dict:
    python = {}
    for r in range(1, args.rounds + 1):
        run_side(args, "python", r, folder / f"python-{r}.json")
        append_round(python, read_python(folder / f"python-{r}.json"))
    return python


# ---- the report ----------------------------------------------------------------------------------------

def document(args, cells: list, dataset: dict, method: str) -> dict:
    environment = (dataset or {}).get("environment", {})
    meta = {"id": args.id, "title": args.title,
            "created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "device_type": args.device, "cpu": environment.get("device", {}).get("name") or layer_parity.cpu_model(),
            "threads": args.threads, "torch_version": environment.get("torch_version") or layer_parity.torch_version(),
            "policy": args.cpu_memory, "rounds": args.rounds, "command": shlex.join(sys.argv), "method": method}
    doc = layer_parity.document(meta, cells, TARGETS)
    doc["format_version"] = FORMAT_VERSION
    return doc


def method_text(args) -> str:
    layerbench = (f"the model cells of {Path(args.dataset).name} (measured before, their medians)" if args.dataset
                  else f"one `layerbench run --device {args.device}` process per round (its median per cell), the "
                       f"rounds alternating which side goes first")
    return (f"Rounds: {args.rounds}; {layerbench}; against one fresh Python process per round timing py_models.py's "
            f"twins with torch.utils.benchmark.Timer(num_threads={args.threads}).blocked_autorange(min_run_time="
            f"{args.min_run_time}) after a first call and a warm-up of at least {args.warmup} s and 2 steps, eager; "
            f"the Python side with the '{args.cpu_memory}' glibc policy (mallopt), as LayerBench's --cpu-memory. "
            f"Ratio: median over rounds of LayerBench / Python; cells of {CELL_MIN_MS} ms or more are held to "
            f"{TARGETS['cell_ratio_low']}-{TARGETS['cell_ratio_high']}.")


def python_table(python: dict) -> str:
    lines = [f"{'cell':<36} {'python ms':>12}  rounds"]
    for key, ms in python.items():
        lines.append(f"{cell_name(key):<36} {statistics.median(ms):>12.3f}  {' '.join(f'{m:.3f}' for m in ms)}")
    return "\n".join(lines)


def write_report(doc: dict, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2) + "\n")
    print(table(doc))
    print(f"wrote {out}")


def compare(args, folder: Path) -> int:
    notes = json.loads(Path(args.notes).read_text()) if args.notes else {}
    if args.dataset:
        dataset = json.loads(Path(args.dataset).read_text())
        layerbench = {k: [ms] for k, ms in dataset_medians(dataset, set(split(args.models))).items()}
        if not layerbench:
            raise SystemExit(f"--dataset: {args.dataset} holds no ok eager model cell of {args.models}")
        python = python_rounds(args, folder)
    else:
        layerbench, python, dataset = run_rounds(args, folder)
    cells = build_cells(layerbench, python, notes)
    if not cells:
        raise SystemExit("models parity: no cell was measured on both sides (check --models, --batch-sizes, --modes, "
                         "--precisions against the dataset)")
    write_report(document(args, cells, dataset, method_text(args)), Path(args.out))
    return 0


# ---- arguments -----------------------------------------------------------------------------------------

def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dataset", help="a LayerBench dataset whose model cells are compared")
    p.add_argument("--layerbench", metavar="BINARY", help="run LayerBench too, in alternating rounds")
    p.add_argument("--smoke", action="store_true", help="tiny models, one round, 0.2 s per cell")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    p.add_argument("--models", default="ResNet50,BertBase")
    p.add_argument("--batch-sizes", default="1,8")
    p.add_argument("--modes", default="inference_mode,train")
    p.add_argument("--precisions", default="fp32,bf16")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--cpu-memory", default="steady-state", choices=sorted(layer_parity.POLICIES))
    p.add_argument("--min-run-time", type=float, default=1.0, help="Python: blocked_autorange seconds per cell")
    p.add_argument("--warmup", type=float, default=0.2, help="Python: warm-up seconds per cell after the first call")
    p.add_argument("--id", default=None, help="default parity-models-<device>")
    p.add_argument("--title", default=None)
    p.add_argument("--out", help="the report (default data/validation/<id>.json; never overwritten)")
    p.add_argument("--notes", help='JSON {"Model@batch mode precision": "why"} for cells outside the target')
    p.add_argument("--keep-dir", help="keep each round's run-N.json and python-N.json here")
    p.add_argument("--python-side", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--partial", help=argparse.SUPPRESS)
    return p


def parse_arguments(argv=None):
    p = parser()
    args = p.parse_args(argv)
    if args.smoke:
        for name, value in SMOKE.items():
            if getattr(args, name) == p.get_default(name):
                setattr(args, name, value)
    if args.threads < 1 or args.rounds < 1 or args.min_run_time <= 0 or args.warmup < 0:
        p.error("--threads and --rounds must be at least 1, --min-run-time positive, --warmup not negative")
    if args.dataset and args.layerbench:
        p.error("--dataset and --layerbench: give one (a dataset measured before, or LayerBench run now)")
    problem = check_names(args)
    if problem:
        p.error(problem)
    args.id = args.id or f"parity-models-{args.device}"
    args.title = args.title or f"LayerBench's model cells against torch.utils.benchmark, {args.device.upper()}"
    args.out = args.out or str(SOURCE_DIR / "data" / "validation" / f"{args.id}.json")
    return args


def main(argv=None) -> int:
    args = parse_arguments(argv)
    if args.python_side:
        return python_side(args)
    compares = args.dataset or args.layerbench
    if compares and Path(args.out).exists():
        raise SystemExit(f"{args.out}: exists; not overwritten")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(args.keep_dir or temporary)
        folder.mkdir(parents=True, exist_ok=True)
        if compares:
            return compare(args, folder)
        print(python_table(python_rounds(args, folder)))
        return 0


if __name__ == "__main__":
    sys.exit(main())
