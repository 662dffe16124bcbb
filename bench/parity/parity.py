#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Parity benchmark (issue 9): the same cells timed by LayerBench and by torch.utils.benchmark, interleaved.

Round r runs one `layerbench run` process for all cells, then one Python process (this script with
--python-side) for all cells; odd rounds reverse the order. Both sides use the same threads and the same
glibc memory policy. Per cell: ratio = median over rounds of (LayerBench median / Python median).
Writes data/validation/<id>.json in the "layerbench-parity" format 1.0.0 and prints a table.
A benchmark: run it on a quiet machine; no test asserts its timings.
"""

import argparse
import ctypes
import datetime
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parents[2]
FORMAT = "layerbench-parity"
FORMAT_VERSION = "1.0.0"
TARGETS = {"median_ratio_low": 0.97, "median_ratio_high": 1.03,
           "cell_ratio_low": 0.95, "cell_ratio_high": 1.05, "cell_min_ms": 0.1}
# CUDA (issue 15): a cell whose CUDA-graph replay takes at most this share of its eager time is bound by the
# host's launches, where C++ dispatch should beat Python's: its target is a ratio of at most LAUNCH_BOUND_RATIO_MAX.
LAUNCH_BOUND_GRAPH_OVER_EAGER = 0.5
LAUNCH_BOUND_RATIO_MAX = 0.7
# How long a side may take to save its cells after the SIGINT that ends a step (bench/gpu/run-all.sh).
CHILD_GRACE_SECONDS = 15

# mallopt parameters (malloc.h) and the policies of engine/bench/cpu_memory.cpp.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, M_MMAP_MAX = -1, -3, -4
POLICIES = {
    "steady-state": [(M_MMAP_MAX, 0), (M_TRIM_THRESHOLD, -1)],
    "fresh-pages": [(M_MMAP_MAX, 65536), (M_MMAP_THRESHOLD, 131072)],
    "system": [],
}


def apply_memory_policy(policy: str) -> None:
    """The same mallopt calls LayerBench makes at start, so both sides allocate alike."""
    libc = ctypes.CDLL("libc.so.6")
    for parameter, value in POLICIES[policy]:
        if libc.mallopt(parameter, value) != 1:
            raise SystemExit(f"mallopt({parameter}, {value}) failed")


# ---- pure logic (tested by tests/bench_parity_check.py) -------------------------------------------

def cell_ratio(layerbench_ms: list, python_ms: list) -> tuple:
    """(median of per-round ratios, the per-round ratios); rounds pair up by index."""
    rounds = [lb / py for lb, py in zip(layerbench_ms, python_ms)]
    return statistics.median(rounds), rounds


def within_target(layerbench_median_ms: float, python_median_ms: float, ratio: float, targets: dict,
                  launch_bound: bool = False) -> bool:
    """False only for a cell of at least cell_min_ms (on either side) outside the cell band, or a launch-bound
    CUDA cell above LAUNCH_BOUND_RATIO_MAX."""
    if launch_bound:
        return ratio <= LAUNCH_BOUND_RATIO_MAX
    if max(layerbench_median_ms, python_median_ms) < targets["cell_min_ms"]:
        return True
    return targets["cell_ratio_low"] <= ratio <= targets["cell_ratio_high"]


def build_cells(layerbench: dict, python: dict, notes: dict, targets: dict, graph_over_eager: dict = None) -> list:
    """layerbench and python: {(layer, batch): [median_ms per round]}; cells present on both sides.
    graph_over_eager (CUDA): {(layer, batch): [LayerBench's graph/eager ratio per round]}; a cell whose median
    is at most LAUNCH_BOUND_GRAPH_OVER_EAGER is launch-bound, and its note says so unless --notes does."""
    cells = []
    for key in layerbench:
        if key not in python:
            continue
        layer, batch = key
        ratio, rounds = cell_ratio(layerbench[key], python[key])
        lb_median, py_median = statistics.median(layerbench[key]), statistics.median(python[key])
        graph = statistics.median(graph_over_eager[key]) if graph_over_eager and graph_over_eager.get(key) else None
        launch_bound = graph is not None and graph <= LAUNCH_BOUND_GRAPH_OVER_EAGER
        note = notes.get(f"{layer}@{batch}", "")
        if launch_bound and not note:
            note = (f"launch-bound: LayerBench's CUDA-graph replay takes {graph:.2f} of its eager time; "
                    f"target: ratio at most {LAUNCH_BOUND_RATIO_MAX}")
        cells.append({"layer": layer, "batch_size": batch,
                      "layerbench_median_ms": round(lb_median, 6), "python_median_ms": round(py_median, 6),
                      "ratio": round(ratio, 4), "round_ratios": [round(r, 4) for r in rounds],
                      "within_target": within_target(lb_median, py_median, ratio, targets, launch_bound),
                      "note": note})
    return cells


def summarize(cells: list, targets: dict) -> dict:
    big = [c for c in cells if max(c["layerbench_median_ms"], c["python_median_ms"]) >= targets["cell_min_ms"]]
    return {"cells": len(cells),
            "median_ratio": round(statistics.median(c["ratio"] for c in cells), 4) if cells else None,
            "cells_at_least_min_ms": len(big),
            "cells_within": sum(1 for c in big if c["within_target"])}


def document(meta: dict, cells: list, targets: dict) -> dict:
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "id": meta["id"], "title": meta["title"],
            "created": meta["created"], "device": {"type": meta.get("device_type", "cpu"), "name": meta["cpu"]},
            "threads": meta["threads"], "torch_version": meta["torch_version"],
            "cpu_memory_policy": meta["policy"], "rounds": meta["rounds"], "method": meta["method"],
            "command": meta["command"], "targets": targets, "summary": summarize(cells, targets), "cells": cells}


def table(doc: dict) -> str:
    lines = [f"{'cell':<24} {'layerbench ms':>14} {'python ms':>12} {'ratio':>7}  rounds"]
    for c in doc["cells"]:
        mark = "" if c["within_target"] else "  OUTSIDE"
        lines.append(f"{c['layer'] + '@' + str(c['batch_size']):<24} {c['layerbench_median_ms']:>14.4f} "
                     f"{c['python_median_ms']:>12.4f} {c['ratio']:>7.3f}  "
                     f"{' '.join(f'{r:.3f}' for r in c['round_ratios'])}{mark}")
    s = doc["summary"]
    lines.append(f"median ratio {s['median_ratio']} (target {doc['targets']['median_ratio_low']}-"
                 f"{doc['targets']['median_ratio_high']}); {s['cells_within']} of {s['cells_at_least_min_ms']} "
                 f"cells >= {doc['targets']['cell_min_ms']} ms within {doc['targets']['cell_ratio_low']}-"
                 f"{doc['targets']['cell_ratio_high']}")
    return "\n".join(lines)


# ---- the two sides ---------------------------------------------------------------------------------

def read_partial(path: Path) -> dict:
    """The cells a Python side already measured: one JSON object per line, {"cell": "layer@batch", "median_ms": x}.
    A last line cut short by a kill is ignored (it is measured again)."""
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                entry = json.loads(line)
                done[entry["cell"]] = float(entry["median_ms"])
            except (ValueError, KeyError, TypeError):
                continue
    return done


def append_partial(path: Path, cell: str, median_ms: float) -> None:
    """One measured cell, on disk before the next starts, so an interrupted round keeps it."""
    with path.open("a") as stream:
        stream.write(json.dumps({"cell": cell, "median_ms": median_ms}) + "\n")
        stream.flush()
        os.fsync(stream.fileno())


def python_side(args) -> int:
    """In a fresh process: time every cell with torch.utils.benchmark, each appended to --partial as it is done
    (cells already there are not measured again). On CUDA the Timer synchronises the device around each block."""
    apply_memory_policy(args.cpu_memory)
    import torch
    from torch.utils import benchmark
    sys.path.insert(0, str(SOURCE_DIR / "bench" / "gpu"))
    import layers as catalog
    torch.set_num_threads(args.threads)
    catalog.use_ieee_float32()
    device = torch.device(args.device)
    partial = Path(args.partial)
    done = read_partial(partial)
    try:
        for layer in catalog.select(args.layers):
            for batch in catalog.parse_batch_sizes(args.batch_sizes):
                cell = f"{layer.name}@{batch}"
                if cell in done:
                    continue
                with torch.inference_mode():
                    _, forward = layer.instantiate(batch, device)
                    timer = benchmark.Timer(stmt="forward()", globals={"forward": forward}, num_threads=args.threads)
                    timer.timeit(max(1, int(0.05 / max(timer.timeit(1).median, 1e-6))))  # warm-up, ~50 ms
                    measurement = timer.blocked_autorange(min_run_time=args.min_run_time)
                append_partial(partial, cell, measurement.median * 1e3)
                del forward
    except KeyboardInterrupt:
        print(f"parity: interrupted; the cells measured so far are kept in {partial}", file=sys.stderr)
        return 130
    return 0


def run_child(command: list, **kwargs) -> subprocess.CompletedProcess:
    """Runs a side to its end. On Ctrl-C or the step's SIGINT (which the child receives too) it waits up to
    CHILD_GRACE_SECONDS for the child to save what it measured, instead of killing it at once."""
    with subprocess.Popen(command, **kwargs) as process:
        try:
            stdout, stderr = process.communicate()
        except KeyboardInterrupt:
            try:
                process.wait(timeout=CHILD_GRACE_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
            raise
        return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def run_python(args, out: Path) -> None:
    """One fresh Python process for all cells (resuming `out`.partial); {layer@batch: median_ms} goes to `out`."""
    partial = Path(str(out) + ".partial")
    command = [sys.executable, __file__, "--python-side", "--device", args.device, "--threads", str(args.threads),
               "--layers", args.layers, "--batch-sizes", args.batch_sizes, "--cpu-memory", args.cpu_memory,
               "--min-run-time", str(args.min_run_time), "--partial", str(partial)]
    done = run_child(command)
    if done.returncode != 0:
        raise SystemExit(f"parity: the Python side exited {done.returncode}; its cells so far are in {partial}, and "
                         f"the same round resumes from them")
    temporary = Path(str(out) + ".tmp")
    temporary.write_text(json.dumps(read_partial(partial)) + "\n")
    temporary.replace(out)
    partial.unlink()


def run_layerbench(args, out: Path) -> None:
    """One `layerbench run` process for all cells, its dataset written to `out`; resumed from its checkpoint
    (`out`.partial) when an earlier process of this round was cut short."""
    command = [args.binary, "run", "--device", args.device, "--threads", str(args.threads), "--batch-sizes",
               args.batch_sizes, "--cpu-memory", args.cpu_memory, "--out", str(out)]
    if args.layers != "all":
        command += ["--layers", args.layers]
    # The lease's CUDA budgets (bench/gpu/run-all.sh): options that only shape how `layerbench run` samples.
    command += shlex.split(args.run_args)
    if Path(str(out) + ".partial").exists():
        command.append("--resume")
    done = run_child(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise SystemExit(f"parity: {shlex.join(command)} exited {done.returncode}:\n{done.stderr[-2000:]}")


def run_round(args, folder: Path, r: int) -> None:
    """Round r (from 1): run-<r>.json and python-<r>.json in `folder`; even rounds run Python first. A side whose
    file exists is done; one cut short continues from its .partial."""
    order = ["layerbench", "python"] if r % 2 == 1 else ["python", "layerbench"]
    for side in order:
        out = folder / (f"run-{r}.json" if side == "layerbench" else f"python-{r}.json")
        if out.exists():
            print(f"round {r}/{args.rounds}: {side} already measured ({out.name})", file=sys.stderr, flush=True)
            continue
        resumed = " (resumed)" if Path(str(out) + ".partial").exists() else ""
        print(f"round {r}/{args.rounds}: {side}{resumed}", file=sys.stderr, flush=True)
        try:
            (run_layerbench if side == "layerbench" else run_python)(args, out)
        except KeyboardInterrupt:
            raise SystemExit(f"parity: round {r} interrupted during the {side} side; what it measured is kept, and "
                             f"`--round {r}` with the same --keep-dir resumes it") from None


def read_rounds(folder: Path) -> tuple:
    """The rounds in `folder` that have both sides: per cell, LayerBench's medians, Python's medians and
    LayerBench's graph/eager ratios (CUDA), round by round; and the first LayerBench dataset."""
    layerbench, python, graph, first = {}, {}, {}, None
    numbers = sorted(int(p.stem.split("-")[1]) for p in folder.glob("run-*.json")
                     if p.stem.split("-")[1].isdigit() and (folder / f"python-{p.stem.split('-')[1]}.json").exists())
    devices = {}
    for number in numbers:
        dataset = json.loads((folder / f"run-{number}.json").read_text())
        first = first or dataset
        devices[number] = dataset.get("environment", {}).get("device", {}).get("name")
        if len(set(devices.values())) > 1:
            raise SystemExit("parity: the rounds in " + str(folder) + " were measured on different devices ("
                             + ", ".join(f"run-{n}.json: {name}" for n, name in devices.items())
                             + "); rounds of two devices are never combined")
        for c in dataset["results"]:
            if c.get("status") != "ok":
                continue
            key = (c["layer"], c["batch_size"])
            layerbench.setdefault(key, []).append(c["stats"]["median_ms"])
            ratio = c.get("cuda", {}).get("graph_over_eager")
            if ratio is not None:
                graph.setdefault(key, []).append(ratio)
        for k, v in json.loads((folder / f"python-{number}.json").read_text()).items():
            python.setdefault((k.rsplit("@", 1)[0], int(k.rsplit("@", 1)[1])), []).append(v)
    return numbers, layerbench, python, graph, first


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def torch_version() -> str:
    done = subprocess.run([sys.executable, "-c", "import torch; print(torch.__version__)"],
                          stdout=subprocess.PIPE, text=True, check=True)
    return done.stdout.strip()


def annotate(source: Path, notes: dict, out: Path) -> int:
    """Explanations for the cells outside the target are written once their ratios are known."""
    doc = json.loads(source.read_text())
    known = {f"{c['layer']}@{c['batch_size']}" for c in doc["cells"]}
    unknown = sorted(set(notes) - known)
    if unknown:
        raise SystemExit(f"--notes: no such cell in {source}: {', '.join(unknown)}")
    for cell in doc["cells"]:
        cell["note"] = notes.get(f"{cell['layer']}@{cell['batch_size']}", cell.get("note", ""))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2) + "\n")
    print(table(doc))
    print(f"wrote {out}")
    return 0


def assemble(args, folder: Path, notes: dict, out: Path) -> int:
    """The parity document from the rounds in `folder` (this run's, or --assemble's)."""
    numbers, layerbench, python, graph, first = read_rounds(folder)
    if not numbers:
        raise SystemExit(f"parity: {folder} holds no round with both run-N.json and python-N.json")
    rounds = len(numbers)
    complete = {k: v for k, v in layerbench.items() if len(v) == rounds and len(python.get(k, [])) == rounds}
    cells = build_cells(complete, python, notes, TARGETS, graph if args.device == "cuda" else None)
    environment = first.get("environment", {})
    gpu_rule = (f" On CUDA a cell whose CUDA-graph replay (LayerBench's results[].cuda.graph_over_eager, median over "
                f"rounds) takes at most {LAUNCH_BOUND_GRAPH_OVER_EAGER} of its eager time is launch-bound, and its "
                f"target is a ratio of at most {LAUNCH_BOUND_RATIO_MAX}: C++ dispatch should beat Python's."
                if args.device == "cuda" else "")
    meta = {"id": args.id, "title": args.title,
            "created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "device_type": args.device, "cpu": environment.get("device", {}).get("name") or cpu_model(),
            "threads": args.threads, "torch_version": environment.get("torch_version") or torch_version(),
            "policy": args.cpu_memory, "rounds": rounds, "command": shlex.join(sys.argv),
            "method": (f"{rounds} rounds; each round one `layerbench run --device {args.device}` process (its median "
                       f"per cell) and one Python process timing the Python twins (bench/gpu/layers.py, float32 as IEEE "
                       f"fp32 on cuBLAS and cuDNN) with torch.utils.benchmark.Timer(num_threads={args.threads})"
                       f".blocked_autorange(min_run_time={args.min_run_time}) after a ~50 ms warm-up under "
                       f"inference_mode, alternating which goes first; both with the '{args.cpu_memory}' glibc policy "
                       f"(mallopt). Ratio: median over rounds of LayerBench / Python." + gpu_rule)}
    doc = document(meta, cells, TARGETS)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2) + "\n")
    print(table(doc))
    print(f"wrote {out}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--layers", default="all")
    # `layerbench run`'s default (engine/dataset/batch_sizes.hpp; a test holds this copy to it).
    parser.add_argument("--batch-sizes", default="1,8,32,128")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cpu-memory", default="steady-state", choices=sorted(POLICIES))
    parser.add_argument("--min-run-time", type=float, default=1.0, help="Python: blocked_autorange seconds per cell")
    parser.add_argument("--binary", default=str(SOURCE_DIR / "build" / "layerbench"))
    parser.add_argument("--run-args", default="",
                        help="more options for each `layerbench run` (one string, split as a shell would), e.g. budgets")
    parser.add_argument("--id", default=None, help="default parity-<device>")
    parser.add_argument("--title", default=None)
    parser.add_argument("--out", help="file to write (default data/validation/<id>.json)")
    parser.add_argument("--notes", help='JSON {"Layer@batch": "why"} for cells outside the target')
    parser.add_argument("--annotate", metavar="PARITY.json",
                        help="measure nothing: copy an existing parity file to --out with --notes applied to its cells")
    parser.add_argument("--keep-dir", help="keep each round's run-N.json (LayerBench) and python-N.json here")
    parser.add_argument("--round", type=int, metavar="N",
                        help="measure round N only, into --keep-dir, and write no parity file (rounds split "
                             "over several processes, as bench/gpu/run-all.sh does)")
    parser.add_argument("--assemble", metavar="DIR",
                        help="measure nothing: the parity file from the rounds kept in DIR")
    parser.add_argument("--python-side", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--partial", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.threads < 1 or args.rounds < 1:
        parser.error("--threads and --rounds must be at least 1")
    args.id = args.id or f"parity-{args.device}"
    args.title = args.title or f"LayerBench against torch.utils.benchmark, {'CUDA' if args.device == 'cuda' else 'CPU'}"
    if args.python_side:
        return python_side(args)
    if args.round is not None:
        if not args.keep_dir or args.round < 1:
            parser.error("--round N needs N >= 1 and --keep-dir")
        Path(args.keep_dir).mkdir(parents=True, exist_ok=True)
        run_round(args, Path(args.keep_dir), args.round)
        return 0
    notes = json.loads(Path(args.notes).read_text()) if args.notes else {}
    out = Path(args.out) if args.out else SOURCE_DIR / "data" / "validation" / f"{args.id}.json"
    if out.exists():
        raise SystemExit(f"{out}: exists; not overwritten")
    if args.annotate:
        return annotate(Path(args.annotate), notes, out)
    if args.assemble:
        return assemble(args, Path(args.assemble), notes, out)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(args.keep_dir or temporary)
        folder.mkdir(parents=True, exist_ok=True)
        for r in range(1, args.rounds + 1):
            run_round(args, folder, r)
        return assemble(args, folder, notes, out)


if __name__ == "__main__":
    sys.exit(main())
