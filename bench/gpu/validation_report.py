#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a layerbench GPU run against independent measurements and writes a validation report
(JSON for the site, Markdown for people):

  1. our median per cell against Python's torch.utils.benchmark Timer (python_timer.py): the ratio, and
     every cell outside 0.9-1.1 flagged, with a hint where a structural cause is known;
  2. the spread of our median across fresh-process repeats (coefficient of variation) against the
     within-run noise each run reported;
  3. FlopCounterMode's count (flop_counter.py) against our FLOP formulas;
  4. achieved TFLOP/s per cell against the GPU's published dense fp32 and tf32 peaks.

  python3 bench/gpu/validation_report.py --run r1.json --run r2.json --run r3.json \\
      --python-timer python_timer.json --flops flops.json --out-json validation.json --out-md validation.md
"""

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flop_expectations import expected_fused_count  # noqa: E402

RATIO_BAND = (0.9, 1.1)

# Published NVIDIA datasheet figures (not measured here), in TFLOP/s. The datasheets give TF32 Tensor
# Core figures "with sparsity"; the dense figure is half of that, as their footnote says.
PEAK_SOURCES = {
    "H100": "NVIDIA H100 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/h100/",
    "H200": "NVIDIA H200 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/h200/",
}
# (label, words that must all be in the device name, fp32, tf32 with sparsity), most specific first.
PEAKS = [
    ("H100 PCIe", ("H100", "PCIe"), 51.0, 756.0),
    ("H100 NVL", ("H100", "NVL"), 60.0, 835.0),
    ("H100 SXM5", ("H100",), 67.0, 989.0),
    ("H200 SXM", ("H200",), 67.0, 989.0),
]

# Which precision switch governs each layer's main work (LibTorch's global context, recorded per run).
CUDNN_LAYERS = {"Conv2d", "Conv1d", "ConvTranspose2d", "LSTM", "GRU"}  # cuDNN convolutions and RNNs
MATMUL_LAYERS = {"Linear", "TransformerEncoder", "MultiheadAttention"}  # cuBLAS matrix products

# Known structural differences between our C++ module and the Python one, shown for flagged cells.
HINTS = {
    "TransformerEncoder": (
        "Datasets before schema 1.2 ran LibTorch's C++ nn::TransformerEncoderLayer, which asks its attention "
        "for weights (need_weights=true: explicit softmax between two batched products), while Python's asks "
        "for none and runs scaled_dot_product_attention (fused kernels on CUDA). Since 1.2 LayerBench calls "
        "the Python module's operators (the dataset's layers[].dispatch says so), and this hint applies only "
        "to older files. The timer's 'TransformerEncoder[need_weights]' twin runs the old C++ computation."),
}
LAUNCH_BOUND_MS = 0.05


class ReportError(Exception):
    pass


def load_json(path: str, what: str) -> dict:
    try:
        return json.loads(Path(path).read_text())
    except OSError as error:
        raise ReportError(f"{path}: cannot read the {what}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise ReportError(f"{path}: the {what} is not JSON: {error}") from None


_KIND_NAMES = {str: "a string", int: "an integer", list: "an array", dict: "an object", (int, float): "a number"}


def require(document: dict, path: str, pointer: str, kind: type):
    """The value at a JSON pointer ("/environment/device/name"), checked for type."""
    value = document
    for key in pointer.strip("/").split("/"):
        if isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        elif isinstance(value, dict) and key in value:
            value = value[key]
        else:
            raise ReportError(f"{path}: {pointer} is missing")
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ReportError(f"{path}: {pointer} is not {_KIND_NAMES.get(kind, kind)}")
    return value


class Run:
    """One layerbench dataset: its cells by (layer, batch size) and its layers by name."""

    def __init__(self, path: str):
        self.path = path
        self.document = load_json(path, "dataset")
        self.device = require(self.document, path, "/environment/device/name", str)
        self.environment = require(self.document, path, "/environment", dict)
        self.layers = {require(self.document, path, f"/layers/{i}/name", str): layer
                       for i, layer in enumerate(require(self.document, path, "/layers", list))}
        self.cells: Dict[Tuple[str, int], dict] = {}
        for i, cell in enumerate(require(self.document, path, "/results", list)):
            key = (require(self.document, path, f"/results/{i}/layer", str),
                   require(self.document, path, f"/results/{i}/batch_size", int))
            if cell.get("status") == "ok":
                require(self.document, path, f"/results/{i}/stats/median_ms", (int, float))
            self.cells[key] = cell

    def median_ms(self, key) -> Optional[float]:
        cell = self.cells.get(key)
        return cell["stats"]["median_ms"] if cell and cell.get("status") == "ok" else None

    def noise(self, key) -> Optional[float]:
        cell = self.cells.get(key)
        return cell.get("stats", {}).get("noise") if cell and cell.get("status") == "ok" else None

    def cuda(self, key) -> Optional[dict]:
        """The cell's CUDA record (schema 1.3.0: graph replay, cold L2, clocks), if any."""
        cell = self.cells.get(key)
        return cell.get("cuda") if cell and cell.get("status") == "ok" else None

    def summary(self) -> dict:
        ok = [cell for cell in self.cells.values() if cell.get("status") == "ok"]
        return {
            "file": self.path,
            "id": self.document.get("id", ""),
            "created": self.document.get("created", ""),
            "device": self.device,
            "cells": len(self.cells),
            "cells_ok": len(ok),
            "cells_noise_target_met": sum(1 for cell in ok if cell.get("stats", {}).get("noise_target_met")),
            "wall_s": sum(cell.get("cell_seconds", 0.0) for cell in self.cells.values()),
        }


def find_peak(device_name: str) -> Optional[dict]:
    for label, words, fp32, tf32_sparse in PEAKS:
        if all(word.lower() in device_name.lower() for word in words):
            return {"device": label, "fp32_tflops": fp32, "tf32_dense_tflops": tf32_sparse / 2,
                    "tf32_sparse_tflops": tf32_sparse, "source": PEAK_SOURCES[label.split()[0]],
                    "note": "published NVIDIA datasheet figures, not measured here; tf32 dense = half the "
                            "datasheet's figure, which is given with sparsity"}
    return None


def precision(layer: str, environment: dict) -> str:
    if layer in CUDNN_LAYERS:
        return "tf32" if environment.get("cudnn_allow_tf32") else "fp32"
    if layer in MATMUL_LAYERS:
        return "tf32" if environment.get("matmul_allow_tf32") else "fp32"
    return "fp32 (no matrix work)"


def coefficient_of_variation(values: List[float]) -> Optional[float]:
    if len(values) < 2 or statistics.mean(values) == 0:
        return None
    return statistics.stdev(values) / statistics.mean(values)


def timer_from_rounds(folder: str) -> dict:
    """The Python timer's place taken by the parity rounds' torch.utils.benchmark sides (python-N.json,
    {"layer@batch": median_ms}), as the lease measures them: per cell the median over the rounds."""
    rounds = sorted(Path(folder).glob("python-*.json"))
    if not rounds:
        raise ReportError(f"{folder}: no python-N.json (the parity rounds' Python sides) to stand in for the timer")
    medians: Dict[Tuple[str, int], List[float]] = {}
    for path in rounds:
        for cell, median in load_json(str(path), "parity round's Python side").items():
            layer, batch = cell.rsplit("@", 1)
            medians.setdefault((layer, int(batch)), []).append(float(median))
    return {"tool": f"bench/parity/parity.py rounds ({len(rounds)}: {', '.join(p.name for p in rounds)})",
            "cells": [{"layer": layer, "batch_size": batch, "status": "ok", "median_ms": statistics.median(values)}
                      for (layer, batch), values in sorted(medians.items())]}


def timer_cells(timer: dict, path: str) -> Dict[Tuple[str, int], dict]:
    cells = {}
    for i, cell in enumerate(require(timer, path, "/cells", list)):
        key = (require(timer, path, f"/cells/{i}/layer", str), require(timer, path, f"/cells/{i}/batch_size", int))
        if cell.get("status", "ok") == "ok":
            require(timer, path, f"/cells/{i}/median_ms", (int, float))
        cells[key] = cell
    return cells


def hint_for(layer: str, batch_size: int, ours_ms: float, timed: Dict[Tuple[str, int], dict]) -> str:
    hints = []
    if layer in HINTS:
        hints.append(HINTS[layer])
        twin = timed.get((f"{layer}[need_weights]", batch_size))
        if twin and twin.get("status", "ok") == "ok":
            hints.append(f"Against that twin the ratio is {ours_ms / twin['median_ms']:.3f}.")
    if ours_ms < LAUNCH_BOUND_MS:
        hints.append(f"The cell takes under {LAUNCH_BOUND_MS * 1e3:.0f} µs, so it is bound by kernel launches "
                     "and host overhead per call (Python's module call path against C++'s), which such a "
                     "ratio magnifies; a candidate cause, not a proven one.")
    return " ".join(hints) if hints else "no known cause: to be explained"


def cuda_method(runs: List["Run"], key) -> dict:
    """Per cell over the runs (schema 1.3.0): the median graph/eager and cold/hot ratios, why a graph was not
    captured, the SM clock's mean and the samples dropped below the throttle threshold. Empty before 1.3.0."""
    records = [record for record in (run.cuda(key) for run in runs) if record]
    if not records:
        return {}

    def median_of(name):
        values = [record[name] for record in records if record.get(name) is not None]
        return statistics.median(values) if values else None

    clocks = [record.get("clocks", {}) for record in records]
    mhz = [c["sm_mean_mhz"] for c in clocks if c.get("sm_mean_mhz") is not None]
    return {"graph_over_eager": median_of("graph_over_eager"), "cold_over_hot": median_of("cold_over_hot"),
            "graph_skip_reason": next((r["graph_skip_reason"] for r in records if r.get("graph_skip_reason")), ""),
            "sm_mean_mhz": statistics.mean(mhz) if mhz else None,
            "dropped_samples": sum(c.get("dropped_samples", 0) for c in clocks),
            "clock_event_reasons": sorted({reason for c in clocks for reason in c.get("event_reasons", [])})}


def compare_cells(runs: List[Run], timed: Dict[Tuple[str, int], dict], peak: Optional[dict]) -> List[dict]:
    keys = list(runs[0].cells)
    for run in runs[1:]:
        keys += [key for key in run.cells if key not in keys]
    rows = []
    for layer, batch_size in keys:
        medians = [m for m in (run.median_ms((layer, batch_size)) for run in runs) if m is not None]
        row = {"layer": layer, "batch_size": batch_size, "run_medians_ms": medians}
        if not medians:
            rows.append({**row, "status": "skipped in every run"})
            continue
        ours = statistics.median(medians)
        noises = [n for n in (run.noise((layer, batch_size)) for run in runs) if n is not None]
        row.update({
            "status": "ok",
            "ours_median_ms": ours,
            "cross_run_cv": coefficient_of_variation(medians),
            "within_run_noise": noises,
            "within_run_noise_median": statistics.median(noises) if noises else None,
        })
        if row["cross_run_cv"] is not None and row["within_run_noise_median"] is not None:
            row["cv_exceeds_noise"] = row["cross_run_cv"] > row["within_run_noise_median"]
        python = timed.get((layer, batch_size))
        if python and python.get("status", "ok") == "ok":
            ratio = ours / python["median_ms"]
            outside = not RATIO_BAND[0] <= ratio <= RATIO_BAND[1]
            row.update({"python_median_ms": python["median_ms"], "python_iqr_ms": python.get("iqr_ms"),
                        "ratio": ratio, "outside_band": outside})
            if outside:
                row["hint"] = hint_for(layer, batch_size, ours, timed)
        row.update(cuda_method(runs, (layer, batch_size)))
        layer_info = runs[0].layers.get(layer, {})
        flops = layer_info.get("flops_per_sample")
        if flops:
            tflops = flops * batch_size / (ours * 1e-3) / 1e12
            row["achieved_tflops"] = tflops
            row["precision"] = precision(layer, runs[0].environment)
            if peak:
                row["fraction_of_fp32_peak"] = tflops / peak["fp32_tflops"]
                row["fraction_of_tf32_dense_peak"] = tflops / peak["tf32_dense_tflops"]
        rows.append(row)
    return rows


def compare_flops(run: Run, counted: dict, path: str) -> List[dict]:
    device_type = require(counted, path, "/device/type", str)
    rows = []
    for i, entry in enumerate(require(counted, path, "/layers", list)):
        name = require(counted, path, f"/layers/{i}/layer", str)
        ours = run.layers.get(name)
        if ours is None or ours.get("matmul_flops_per_sample") is None:
            rows.append({"layer": name, "status": f"not in {run.path} or without matmul_flops_per_sample"})
            continue
        matmul = ours["matmul_flops_per_sample"]
        fused = require(counted, path, f"/layers/{i}/fused/flops_per_sample", (int, float))
        decomposed = require(counted, path, f"/layers/{i}/decomposed/flops_per_sample", (int, float))
        expected, reason = expected_fused_count(device_type, name, matmul)
        if decomposed != matmul:
            status = "MISMATCH: the decomposed count differs from our formula"
        elif fused == matmul:
            status = "equal"
        elif fused == expected:
            status = "fused count lower, as documented"
        else:
            status = "formula confirmed by the decomposed count; the fused count is not what docs/flops.md expects"
        rows.append({"layer": name, "ours_matmul_flops_per_sample": matmul,
                     "ours_flops_per_sample": ours.get("flops_per_sample"),
                     "counter_fused": fused, "counter_decomposed": decomposed, "fused_expected": expected,
                     "status": status, "reason": reason if fused != matmul else "",
                     "params_ours": ours.get("params"), "params_python": entry.get("params")})
    return rows


def environment_checks(runs: List[Run], timer: dict) -> List[str]:
    notes = []
    devices = {run.device for run in runs}  # one, build_report has checked
    timer_device = timer.get("device", {}).get("name", "")
    if timer_device and timer_device not in devices:
        notes.append(f"the Python timer ran on '{timer_device}', our runs on {', '.join(sorted(devices))}")
    for flag in ("matmul_allow_tf32", "cudnn_allow_tf32", "cudnn_benchmark"):
        ours = {run.environment.get(flag) for run in runs}
        if flag in timer and ours != {timer[flag]}:
            notes.append(f"{flag}: our runs {sorted(ours)}, the Python timer {timer[flag]}")
    return notes


def build_report(args) -> dict:
    runs = [Run(path) for path in args.run]
    devices = {run.device for run in runs}
    if len(devices) > 1:
        # The cross-run CV and the ratios would mix two machines: one kind of machine per report.
        raise ReportError("the runs were measured on different devices ("
                          + ", ".join(f"{Path(run.path).name}: {run.device}" for run in runs)
                          + "); report each device's runs apart")
    timer = (load_json(args.python_timer, "Python timer output") if args.python_timer
             else timer_from_rounds(args.python_rounds))
    counted = load_json(args.flops, "FlopCounterMode output")
    peak = find_peak(runs[0].device)
    cells = compare_cells(runs, timer_cells(timer, args.python_timer or args.python_rounds), peak)
    flops = compare_flops(runs[0], counted, args.flops)
    cvs = [row["cross_run_cv"] for row in cells if row.get("cross_run_cv") is not None]
    return {
        "generated_by": "bench/gpu/validation_report.py",
        "inputs": {"runs": args.run, "python_timer": args.python_timer or args.python_rounds, "flops": args.flops},
        "ratio_band": list(RATIO_BAND),
        "peak": peak,
        "runs": [run.summary() for run in runs],
        "python_timer": {key: timer.get(key) for key in ("tool", "torch_version", "device", "min_run_time_s",
                                                         "wall_s", "matmul_allow_tf32", "cudnn_allow_tf32")},
        "environment_checks": environment_checks(runs, timer),
        "summary": {
            "cells": len(cells),
            "cells_compared_with_python": sum(1 for row in cells if "ratio" in row),
            "cells_outside_band": [f"{row['layer']}/{row['batch_size']}" for row in cells if row.get("outside_band")],
            "median_cross_run_cv": statistics.median(cvs) if cvs else None,
            "cells_cv_exceeds_noise": sum(1 for row in cells if row.get("cv_exceeds_noise")),
            "flop_mismatches": [row["layer"] for row in flops if row["status"].startswith("MISMATCH")],
            "flop_fused_undocumented": [row["layer"] for row in flops if row["status"].startswith("formula confirmed")],
        },
        "cells": cells,
        "flops": flops,
    }


def _fmt(value, spec: str, missing: str = "–") -> str:
    return missing if value is None else format(value, spec)


def render_markdown(report: dict) -> str:
    summary = report["summary"]
    lines = ["# Validation of the GPU run", "",
             f"Generated by `{report['generated_by']}` from {len(report['runs'])} run(s) of layerbench, "
             f"Python's benchmark Timer and FlopCounterMode.", "", "## Runs", "",
             "| file | device | cells ok | noise target met | wall time of the cells (s) |",
             "| --- | --- | ---: | ---: | ---: |"]
    for run in report["runs"]:
        lines.append(f"| {Path(run['file']).name} | {run['device']} | {run['cells_ok']}/{run['cells']} | "
                     f"{run['cells_noise_target_met']} | {run['wall_s']:.1f} |")
    lines += ["", f"Median cross-run CV: {_fmt(summary['median_cross_run_cv'], '.2%')}. "
              f"Cells outside {report['ratio_band'][0]}-{report['ratio_band'][1]} of the Python timer: "
              f"{len(summary['cells_outside_band'])} of {summary['cells_compared_with_python']} (⚠). "
              f"Cells whose cross-run CV exceeds their within-run noise: {summary['cells_cv_exceeds_noise']} (↑)."]
    for note in report["environment_checks"]:
        lines.append(f"\n**Check:** {note}")
    lines += ["", "## Per cell", "",
              "| layer | batch | ours (ms) | Python (ms) | ratio | cross-run CV | within-run noise | TFLOP/s | precision |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for row in report["cells"]:
        if row["status"] != "ok":
            lines.append(f"| {row['layer']} | {row['batch_size']} | {row['status']} | | | | | | |")
            continue
        flag = " ⚠" if row.get("outside_band") else ""
        spread = " ↑" if row.get("cv_exceeds_noise") else ""
        lines.append(f"| {row['layer']} | {row['batch_size']} | {row['ours_median_ms']:.4f} | "
                     f"{_fmt(row.get('python_median_ms'), '.4f')} | {_fmt(row.get('ratio'), '.3f')}{flag} | "
                     f"{_fmt(row['cross_run_cv'], '.2%')}{spread} | {_fmt(row['within_run_noise_median'], '.2%')} | "
                     f"{_fmt(row.get('achieved_tflops'), '.3f')} | {row.get('precision', '–')} |")
    cuda_rows = [row for row in report["cells"] if "graph_over_eager" in row]
    if cuda_rows:
        lines += ["", "## CUDA method: launch-free, cold L2, clocks (median over the runs)", "",
                  "| layer | batch | graph / eager | cold / hot | SM clock (MHz) | dropped samples | clock events |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
        for row in cuda_rows:
            graph = _fmt(row["graph_over_eager"], ".3f", "not captured: " + row["graph_skip_reason"])
            lines.append(f"| {row['layer']} | {row['batch_size']} | {graph} | {_fmt(row['cold_over_hot'], '.3f')} | "
                         f"{_fmt(row['sm_mean_mhz'], '.0f')} | {row['dropped_samples']} | "
                         f"{', '.join(row['clock_event_reasons']) or '–'} |")
    flagged = [row for row in report["cells"] if row.get("outside_band")]
    if flagged:
        lines += ["", "## Cells outside the band", ""]
        lines += [f"- **{row['layer']} / {row['batch_size']}**: ratio {row['ratio']:.3f}. {row['hint']}" for row in flagged]
    lines += ["", "## FLOPs: FlopCounterMode against our formulas (per sample)", "",
              "| layer | ours, matrix | counter, fused kernels | counter, decomposed | status | reason |",
              "| --- | ---: | ---: | ---: | --- | --- |"]
    for row in report["flops"]:
        if "counter_fused" not in row:
            lines.append(f"| {row['layer']} | | | | {row['status']} | |")
            continue
        lines.append(f"| {row['layer']} | {row['ours_matmul_flops_per_sample']:,.0f} | {row['counter_fused']:,.0f} | "
                     f"{row['counter_decomposed']:,.0f} | {row['status']} | {row['reason']} |")
    peak = report["peak"]
    lines += ["", "## Peaks", ""]
    if peak:
        lines += [f"{peak['device']}: fp32 {peak['fp32_tflops']:g} TFLOP/s, tf32 Tensor Core "
                  f"{peak['tf32_dense_tflops']:g} TFLOP/s dense ({peak['tf32_sparse_tflops']:g} with sparsity). "
                  f"Source: {peak['source']}; {peak['note']}.", "",
                  "| layer | batch | TFLOP/s | % of fp32 peak | % of tf32 dense peak | precision in force |",
                  "| --- | ---: | ---: | ---: | ---: | --- |"]
        for row in report["cells"]:
            if "fraction_of_fp32_peak" in row:
                lines.append(f"| {row['layer']} | {row['batch_size']} | {row['achieved_tflops']:.3f} | "
                             f"{row['fraction_of_fp32_peak']:.1%} | {row['fraction_of_tf32_dense_peak']:.1%} | "
                             f"{row['precision']} |")
    else:
        lines.append(f"No published peak is known to this script for '{report['runs'][0]['device']}'.")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", action="append", required=True, help="a layerbench dataset; repeat per run")
    timer = parser.add_mutually_exclusive_group(required=True)
    timer.add_argument("--python-timer", help="output of python_timer.py")
    timer.add_argument("--python-rounds", metavar="DIR",
                       help="instead: the parity rounds' python-N.json in DIR, the median over rounds per cell")
    parser.add_argument("--flops", required=True, help="output of flop_counter.py")
    parser.add_argument("--out-json", required=True)
    parser.add_argument("--out-md", required=True)
    args = parser.parse_args()
    try:
        report = build_report(args)
    except ReportError as error:
        print(f"validation_report: error: {error}", file=sys.stderr)
        return 1
    Path(args.out_json).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    Path(args.out_md).write_text(render_markdown(report))
    summary = report["summary"]
    print(f"validation_report: {summary['cells']} cells, {len(summary['cells_outside_band'])} outside "
          f"{RATIO_BAND[0]}-{RATIO_BAND[1]}, median cross-run CV {_fmt(summary['median_cross_run_cv'], '.2%')}, "
          f"FLOP mismatches: {', '.join(summary['flop_mismatches']) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
