#!/usr/bin/env python3
"""Per-cell medians of several LayerBench datasets side by side, with the spread between them.

    python3 bench/validity/compare_runs.py NAME=run.json NAME=run.json ... [--min-ms 0.1] [--markdown]

spread = max(median) / min(median) - 1 over the runs that have the cell; "canary mm" and "canary copy" are the
same spread of the machine-speed canaries timed right before the cell (results[].canary, schema 1.2.0). The summary counts the cells of at
least --min-ms (in the first run) whose spread is within 10%. Only the standard library: it reads the files.
"""
import argparse
import json
import sys


def load(spec):
    name, _, path = spec.partition("=")
    if not path:
        sys.exit(f"compare_runs.py: {spec!r}: give NAME=FILE")
    with open(path, encoding="utf-8") as handle:
        dataset = json.load(handle)
    cells = {}
    for cell in dataset["results"]:
        if cell.get("status") == "ok" and cell.get("stats"):
            canary = cell.get("canary") or {}
            cells[(cell["layer"], cell["batch_size"])] = (cell["stats"]["median_ms"], cell.get("page_faults_per_iteration"),
                                                          canary.get("matmul_ms"), canary.get("copy_ms"))
    methodology = dataset.get("methodology") or {}
    environment = dataset.get("environment") or {}
    return name, cells, methodology.get("cpu_memory_policy", "not recorded"), environment


def spread_of(values):
    values = [v for v in values if v]
    return max(values) / min(values) - 1 if len(values) > 1 else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="NAME=FILE")
    parser.add_argument("--min-ms", type=float, default=0.1)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    runs = [load(spec) for spec in args.runs]
    first = runs[0]
    print(f"CPU: {first[3].get('cpu_model', '?')}, threads {first[3].get('threads', '?')}")
    for name, _, policy, environment in runs:
        print(f"  {name}: cpu-memory {policy}, GLIBC_TUNABLES {environment.get('glibc_tunables') or 'unset'}")
    keys = [key for key in first[1]]
    for _, cells, _, _ in runs[1:]:
        keys += [key for key in cells if key not in keys]
    header = (["cell"] + [f"{name} ms" for name, *_ in runs] + [f"{name} faults/it" for name, *_ in runs]
              + ["spread", "canary mm", "canary copy"])
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
    else:
        print("  ".join(f"{h:>14}" for h in header))
    spreads = []
    within = counted = 0
    outside_with_moving_canary = outside = within_with_moving_canary = 0
    worst = (0.0, None)
    for key in keys:
        medians = [cells[key][0] for _, cells, _, _ in runs if key in cells]
        faults = [cells[key][1] if key in cells else None for _, cells, _, _ in runs]
        spread = max(medians) / min(medians) - 1 if len(medians) > 1 else None
        canaries = [spread_of([cells[key][i] for _, cells, _, _ in runs if key in cells]) for i in (2, 3)]
        if spread is not None and key in first[1] and first[1][key][0] >= args.min_ms:
            counted += 1
            spreads.append(spread)
            within += spread <= 0.10
            worst = max(worst, (spread, key), key=lambda item: item[0])
            moved = any(c is not None and c > 0.05 for c in canaries)
            if spread > 0.10:
                outside += 1
                outside_with_moving_canary += moved
            else:
                within_with_moving_canary += moved
        row = [f"{key[0]}@{key[1]}"]
        row += [f"{cells[key][0]:.4g}" if key in cells else "-" for _, cells, _, _ in runs]
        row += ["-" if f is None else f"{f:.3g}" for f in faults]
        row += ["-" if spread is None else f"{100 * spread:.1f}%"]
        row += ["-" if c is None else f"{100 * c:.1f}%" for c in canaries]
        print(("| " + " | ".join(row) + " |") if args.markdown else "  ".join(f"{c:>14}" for c in row))
    if counted:
        print(f"\ncells of at least {args.min_ms} ms: {within} of {counted} within 10%; "
              f"largest spread {100 * worst[0]:.1f}% ({worst[1][0]}@{worst[1][1]}); median spread "
              f"{100 * sorted(spreads)[len(spreads) // 2]:.1f}%")
        print(f"a canary (the machine's own speed, timed before the cell) differed by more than 5% between the runs "
              f"before {outside_with_moving_canary} of the {outside} cells outside and {within_with_moving_canary} of "
              f"the {counted - outside} within")


if __name__ == "__main__":
    main()
