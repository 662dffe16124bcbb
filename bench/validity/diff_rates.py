#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How often `layerbench diff` calls a change that is not there, and how often it finds one that is
(issue 24, docs/validity.md). A benchmark of the comparison rule, not a test: rerun it on your machine.

Give it two runs of the same binary on the same machine, measured one after the other, each in rounds:

    build/layerbench run --rounds 3 --out runs/a.json
    build/layerbench run --rounds 3 --out runs/b.json
    python3 bench/validity/diff_rates.py build/layerbench runs/a.json runs/b.json [--out report.json]

It reports, at the given thresholds (default: 5% and diff's own, 10%):
  - the false-positive rate: the share of cells timed in both that `diff A B` calls faster or slower;
    also for single rounds (round k of A against round k of B, built from the rounds each dataset keeps),
    which is what a one-process run would have called;
  - the sensitivity: B copied with a planted slowdown of 10%, 25% and 50% on a random fifth of its
    cells (every time of the cell scaled, rounds and interval included), `diff A B'`, the share of planted
    cells called slower (and the same among the cells that A and B did not already differ on, where the
    call is the planted change alone); 20 draws per size, seeded.
"""
import argparse
import copy
import json
import os
import random
import subprocess
import sys
import tempfile

SIZES = (0.10, 0.25, 0.50)
DRAWS = 20


def diff(layerbench, a_path, b_path, threshold):
    run = subprocess.run([layerbench, "diff", a_path, b_path, "--format", "json", "--threshold", str(threshold)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"diff_rates: layerbench diff failed: {run.stderr.strip()}")
    return json.loads(run.stdout)["cells"]


def compared(cells):
    return [c for c in cells if c["change"] != "missing"]


def called(cells):
    return [c for c in cells if c["change"] in ("faster", "slower")]


def scale_stats(stats, factor):
    for key in ("median_ms", "p25_ms", "p75_ms", "min_ms", "mean_ms", "stddev_ms"):
        if stats.get(key) is not None:
            stats[key] *= factor
    if "samples_ms" in stats:
        stats["samples_ms"] = [value * factor for value in stats["samples_ms"]]


def plant(dataset, keys, factor):
    """A copy of `dataset` with every time of the cells in `keys` scaled by `factor`."""
    planted = copy.deepcopy(dataset)
    for cell in planted["results"]:
        if key_of(cell) not in keys:
            continue
        scale_stats(cell["stats"], factor)
        for round_cell in cell.get("rounds", []):
            if round_cell.get("stats"):
                scale_stats(round_cell["stats"], factor)
        spread = cell.get("round_spread")
        if spread:
            for key in ("min_median_ms", "max_median_ms", "ci95_low_ms", "ci95_high_ms"):
                spread[key] *= factor
        for key in ("throughput_samples_per_s", "achieved_flop_per_s"):
            if cell.get(key) is not None:
                cell[key] /= factor
    return planted


def one_round(dataset, index):
    """The dataset as its round `index` alone measured it: the round's stats as the cell's, no rounds."""
    single = copy.deepcopy(dataset)
    single.pop("rounds", None)
    for cell in single["results"]:
        rounds = {r["round"]: r for r in cell.pop("rounds", [])}
        cell.pop("round_spread", None)
        mine = rounds.get(index)
        if cell["status"] == "ok" and mine and mine.get("stats"):
            cell["stats"] = mine["stats"]
    return single


def write(folder, name, dataset):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        json.dump(dataset, f)
    return path


# The reference corner: a dataset writes no axes for it, diff's JSON writes every axis.
REFERENCE_AXES = {"precision": "fp32", "memory_format": "contiguous", "cudnn_benchmark": "off",
                  "mode": "inference_mode", "compiled": "eager"}


def key_of(cell):
    axes = {k: v for k, v in cell.get("axes", {}).items() if REFERENCE_AXES.get(k) != v}
    return (cell["layer"], cell["batch_size"], json.dumps(axes, sort_keys=True))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("layerbench")
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--thresholds", default="0.05,0.10")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--out", help="write the report here as JSON")
    args = parser.parse_args()
    with open(args.a) as f:
        a = json.load(f)
    with open(args.b) as f:
        b = json.load(f)
    rounds = min(a.get("rounds", {}).get("count", 1), b.get("rounds", {}).get("count", 1))
    timed = [key_of(c) for c in b["results"] if c["status"] == "ok"]
    report = {"a": args.a, "b": args.b, "rounds": rounds, "cells": len(timed), "seed": args.seed, "thresholds": []}
    with tempfile.TemporaryDirectory() as folder:
        a_path = write(folder, "a.json", a)
        b_path = write(folder, "b.json", b)
        for threshold in (float(t) for t in args.thresholds.split(",")):
            cells = compared(diff(args.layerbench, a_path, b_path, threshold))
            entry = {"threshold": threshold, "compared": len(cells), "false_positives": len(called(cells)),
                     "false_positive_rate": len(called(cells)) / max(len(cells), 1), "single_round": [],
                     "sensitivity": []}
            for index in range(1, rounds + 1) if rounds > 1 else []:
                single = compared(diff(args.layerbench, write(folder, f"a{index}.json", one_round(a, index)),
                                       write(folder, f"b{index}.json", one_round(b, index)), threshold))
                entry["single_round"].append({"round": index, "compared": len(single),
                                              "false_positives": len(called(single)),
                                              "false_positive_rate": len(called(single)) / max(len(single), 1)})
            already = {key_of(c) for c in called(cells)}
            generator = random.Random(args.seed)
            for size in SIZES:
                detected = planted_total = fresh_total = fresh_detected = 0
                for _ in range(DRAWS):
                    keys = set(generator.sample(timed, max(1, len(timed) // 5)))
                    planted_path = write(folder, "planted.json", plant(b, keys, 1 + size))
                    result = diff(args.layerbench, a_path, planted_path, threshold)
                    planted_cells = [c for c in result if key_of(c) in keys]
                    planted_total += len(planted_cells)
                    detected += sum(1 for c in planted_cells if c["change"] == "slower")
                    # The cells A and B did not already differ on: there the call is the planted change alone.
                    fresh = [c for c in planted_cells if key_of(c) not in already]
                    fresh_total += len(fresh)
                    fresh_detected += sum(1 for c in fresh if c["change"] == "slower")
                entry["sensitivity"].append({"slowdown": size, "planted": planted_total, "detected": detected,
                                             "rate": detected / max(planted_total, 1),
                                             "planted_where_unchanged": fresh_total,
                                             "detected_where_unchanged": fresh_detected,
                                             "rate_where_unchanged": fresh_detected / max(fresh_total, 1)})
            report["thresholds"].append(entry)
    lines = [f"A: {args.a}\nB: {args.b}\n{report['cells']} timed cells, {rounds} rounds each\n"]
    for entry in report["thresholds"]:
        lines.append(f"threshold {entry['threshold']:.0%}: false positives {entry['false_positives']} of "
                     f"{entry['compared']} ({entry['false_positive_rate']:.1%})")
        for single in entry["single_round"]:
            lines.append(f"  one round only (round {single['round']} of each): {single['false_positives']} of "
                         f"{single['compared']} ({single['false_positive_rate']:.1%})")
        for s in entry["sensitivity"]:
            lines.append(f"  planted +{s['slowdown']:.0%} on a fifth of the cells, {DRAWS} draws: detected "
                         f"{s['detected']} of {s['planted']} ({s['rate']:.1%}); of those A and B did not already "
                         f"differ on, {s['detected_where_unchanged']} of {s['planted_where_unchanged']} "
                         f"({s['rate_where_unchanged']:.1%})")
    print("\n".join(lines))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
