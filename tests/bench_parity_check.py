#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The arithmetic and file shape of the parity benchmark (bench/parity/parity.py), without timing anything:
per-cell ratio, within_target, summary and the "layerbench-parity" 1.0.0 document of /tmp/lb/spec-1.2.md."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench" / "parity"))
import parity  # noqa: E402
import round_notes  # noqa: E402


def check(condition: bool, message: str) -> None:
    if not condition:
        raise SystemExit(f"FAILED: {message}")


def main() -> int:
    ratio, rounds = parity.cell_ratio([1.1, 1.0, 3.0], [1.0, 1.0, 1.0])
    check(abs(ratio - 1.1) < 1e-12 and len(rounds) == 3, f"median of per-round ratios, got {ratio} {rounds}")
    t = parity.TARGETS
    check(parity.within_target(1.0, 1.0, 1.04, t), "1.04 on a 1 ms cell is within 0.95-1.05")
    check(not parity.within_target(1.0, 1.0, 1.06, t), "1.06 on a 1 ms cell is outside")
    check(not parity.within_target(0.9, 1.0, 0.94, t), "0.94 on a 1 ms cell is outside")
    check(parity.within_target(0.02, 0.01, 2.0, t), "a cell under 0.1 ms is never outside")
    lb = {("Conv2d", 1): [1.0, 1.2], ("Dropout", 1): [0.02, 0.02], ("Linear", 8): [2.0, 2.0]}
    py = {("Conv2d", 1): [1.0, 1.0], ("Dropout", 1): [0.01, 0.01]}
    cells = parity.build_cells(lb, py, {"Conv2d@1": "why"}, t)
    check([c["layer"] for c in cells] == ["Conv2d", "Dropout"], "cells present on both sides only")
    conv = cells[0]
    check(conv["ratio"] == 1.1 and conv["round_ratios"] == [1.0, 1.2] and not conv["within_target"]
          and conv["note"] == "why", f"Conv2d cell: {conv}")
    check(cells[1]["within_target"] and cells[1]["note"] == "", f"Dropout cell: {cells[1]}")
    meta = {"id": "parity-test", "title": "t", "created": "2026-11-22T18:00:00Z", "cpu": "x", "threads": 2,
            "torch_version": "2.11.0", "policy": "steady-state", "rounds": 2, "method": "m", "command": "c"}
    doc = parity.document(meta, cells, t)
    check(doc["format"] == "layerbench-parity" and doc["format_version"] == "1.0.0", "format and version")
    keys = ["format", "format_version", "id", "title", "created", "device", "threads", "torch_version",
            "cpu_memory_policy", "rounds", "method", "command", "targets", "summary", "cells"]
    check(list(doc) == keys, f"top-level keys {list(doc)}")
    check(doc["device"] == {"type": "cpu", "name": "x"}, "device")
    check(set(doc["targets"]) == {"median_ratio_low", "median_ratio_high", "cell_ratio_low", "cell_ratio_high",
                                  "cell_min_ms"}, "targets")
    check(doc["summary"] == {"cells": 2, "median_ratio": 1.55, "cells_at_least_min_ms": 1, "cells_within": 0},
          f"summary {doc['summary']}")
    cell_keys = ["layer", "batch_size", "layerbench_median_ms", "python_median_ms", "ratio", "round_ratios",
                 "within_target", "note"]
    check(all(list(c) == cell_keys for c in doc["cells"]), "cell keys")
    check("OUTSIDE" in parity.table(doc), "the table marks cells outside the target")

    # CUDA: a launch-bound cell (graph replay at most half its eager time) must reach a ratio of at most 0.7.
    check(parity.within_target(0.05, 0.08, 0.65, t, launch_bound=True), "0.65 on a launch-bound cell is within")
    check(not parity.within_target(0.05, 0.05, 0.9, t, launch_bound=True), "0.9 on a launch-bound cell is outside")
    lb = {("Dropout", 1): [0.02, 0.02], ("Linear", 128): [1.0, 1.0]}
    py = {("Dropout", 1): [0.03, 0.03], ("Linear", 128): [1.0, 1.0]}
    graph = {("Dropout", 1): [0.3, 0.4], ("Linear", 128): [0.99, 0.98]}
    cells = parity.build_cells(lb, py, {}, t, graph)
    check(cells[0]["within_target"] and cells[0]["note"].startswith("launch-bound"), f"Dropout@1: {cells[0]}")
    check(cells[1]["note"] == "" and cells[1]["within_target"], f"Linear@128: {cells[1]}")
    cells = parity.build_cells({("Dropout", 1): [0.03]}, {("Dropout", 1): [0.03]}, {}, t, {("Dropout", 1): [0.2]})
    check(not cells[0]["within_target"], "a launch-bound cell at ratio 1.0 misses the 0.7 target")

    # Rounds split over processes: read back from run-N.json and python-N.json.
    import json
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        for n, (ms, ratio) in enumerate([(0.02, 0.3), (0.04, 0.5)], start=1):
            dataset = {"environment": {"device": {"name": "GPU"}, "torch_version": "2.11.0"},
                       "results": [{"layer": "Dropout", "batch_size": 1, "status": "ok", "stats": {"median_ms": ms},
                                    "cuda": {"graph_over_eager": ratio}},
                                   {"layer": "LSTM", "batch_size": 1, "status": "skipped"}]}
            (Path(folder) / f"run-{n}.json").write_text(json.dumps(dataset))
            (Path(folder) / f"python-{n}.json").write_text(json.dumps({"Dropout@1": 0.05}))
        (Path(folder) / "run-3.json").write_text("{}")  # no python-3.json: not a round
        numbers, layerbench, python, graph, first = parity.read_rounds(Path(folder))
        check(numbers == [1, 2], f"rounds {numbers}")
        check(layerbench == {("Dropout", 1): [0.02, 0.04]} and python == {("Dropout", 1): [0.05, 0.05]},
              f"medians {layerbench} {python}")
        check(graph == {("Dropout", 1): [0.3, 0.5]}, f"graph ratios {graph}")
        check(first["environment"]["device"]["name"] == "GPU", "the first round's dataset names the device")
    print("ok: parity ratio, within_target, summary, document shape, launch-bound cells and split rounds")
    # round_notes.py: each note says only what the rounds show
    lower = {"ratio": 0.8, "round_ratios": [0.78, 0.8, 0.9], "python_median_ms": 1.0}
    text = round_notes.note(lower)
    check(text.startswith("LayerBench lower in every round (0.780 to 0.900)") and "1.3% of this cell's time" in text
          and text.endswith("at most that much of the gap"), f"lower note: {text}")
    small = {"ratio": 0.95, "round_ratios": [0.94, 0.95, 0.96], "python_median_ms": 0.2}
    check(round_notes.note(small).endswith("so it explains the gap"), "a 13 us share of 0.2 ms covers 5%")
    check(round_notes.note({"ratio": 1.2, "round_ratios": [1.1, 1.2, 1.3], "python_median_ms": 1.0})
          == "LayerBench higher in every round (1.100 to 1.300)", "higher note")
    check(round_notes.note({"ratio": 1.0, "round_ratios": [0.9, 1.2], "python_median_ms": 1.0})
          .startswith("the rounds fall on both sides of 1 (0.900 to 1.200)"), "both sides note")
    return 0


if __name__ == "__main__":
    sys.exit(main())
