#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Keeps data/schema/*.schema.json and the C++ reader in step.

  check_schema.py files LAYERBENCH FILE...   every FILE (a folder: every .json in it) validates against its
                                             schema (catalog, inconsistencies or dataset, by content) and
                                             `layerbench validate` accepts it
  check_schema.py cases LAYERBENCH BASE      BASE is accepted by both; each mutation of it in CASES is
                                             rejected by both the schema and `layerbench validate`
  check_schema.py engine LAYERBENCH BASE [run]
                                             what the engine writes validates: `merge` of two shards cut
                                             from BASE, `publish` of the merge (dataset and catalog), and
                                             with "run" a small CPU `layerbench run` in two shards, merged

Needs the Python jsonschema package (4.x, for draft 2020-12); exits 77 (skipped) without it.
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:
    print("SKIPPED: Python jsonschema >= 4 is not installed (Debian package python3-jsonschema)")
    sys.exit(77)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(ROOT, "data", "schema")


def validator(name):
    with open(os.path.join(SCHEMAS, name)) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


DATASET = validator("dataset.schema.json")
CATALOG = validator("catalog.schema.json")
INCONSISTENCIES = validator("inconsistencies.schema.json")


def is_inconsistencies(document):
    return isinstance(document, dict) and "inconsistencies" in document


def schema_errors(document):
    chosen = CATALOG if isinstance(document, dict) and "datasets" in document and "results" not in document else DATASET
    chosen = INCONSISTENCIES if is_inconsistencies(document) else chosen
    return [f"{'/' + '/'.join(map(str, e.absolute_path))}: {e.message}" for e in chosen.iter_errors(document)]


def cpp_validate(layerbench, path):
    run = subprocess.run([layerbench, "validate", path], capture_output=True, text=True)
    return run.returncode, (run.stdout + run.stderr).strip()


def expand(paths):
    """Files as given; a folder stands for every .json under it except the schemas themselves and the
    validation (parity) files, which have no JSON Schema yet: dataset::parse_parity checks them."""
    for path in paths:
        if not os.path.isdir(path):
            yield path
            continue
        for folder, _, names in sorted(os.walk(path)):
            if os.path.abspath(folder) != SCHEMAS and os.path.basename(folder) != "validation":
                yield from (os.path.join(folder, n) for n in sorted(names) if n.endswith(".json"))


def check_files(layerbench, files):
    failures = 0
    for path in expand(files):
        with open(path) as f:
            document = json.load(f)
        errors = schema_errors(document)
        # layerbench validate knows datasets and catalogs; the inconsistencies list has its schema only.
        code, output = (0, "") if is_inconsistencies(document) else cpp_validate(layerbench, path)
        if errors or code != 0:
            failures += 1
            print(f"FAIL {path}: schema: {errors[:5]}; layerbench validate (exit {code}): {output}")
        else:
            print(f"ok   {path}")
    return failures


def drop(*path):
    def apply(d):
        target = d
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return apply


def put(value, *path):
    def apply(d):
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return apply


# Each case: a name and a change to the valid base dataset that both checkers must reject. The base
# is tests/fuzz-seeds/measured-small.json: results[0] is an ok cell with full stats, [1] skipped.
CASES = [
    ("missing title", drop("title")),
    ("unknown top-level field", put(1, "colour")),
    ("unknown field in stats", put(1, "results", 0, "stats", "median_us")),
    ("version is a string", put("1", "version")),
    ("kind not in the enum", put("simulated", "kind")),
    ("negative median", put(-1.0, "results", 0, "stats", "median_ms")),
    ("zero median", put(0.0, "results", 0, "stats", "median_ms")),
    ("huge median", put(1e300, "results", 0, "stats", "median_ms")),
    ("negative p25", put(-0.5, "results", 0, "stats", "p25_ms")),
    ("negative memory", put(-1, "results", 0, "peak_memory_bytes")),
    ("huge memory", put(2 ** 62, "results", 0, "peak_memory_bytes")),
    ("time unit changed", put("s", "units", "time")),
    ("schema version too new", put("2.0.0", "schema_version")),
    ("schema version minor too new", put("1.9.0", "schema_version")),
    ("schema version too old", put("0.9.0", "schema_version")),
    ("schema version not semantic", put("1.1", "schema_version")),
    ("id with capitals", put("Test-CPU", "id")),
    ("created not UTC", put("2026-11-22 04:05:07", "created")),
    ("licence not CC-BY-4.0", put("MIT", "license", "id")),
    ("empty attribution", put("", "license", "attribution")),
    ("batch size zero", put(0, "results", 0, "batch_size")),
    ("ok cell without stats", drop("results", 0, "stats")),
    ("skipped cell without reason", drop("results", 1, "skip_reason")),
    ("status not in the enum", put("failed", "results", 0, "status")),
    ("layer mode not in the enum", put("training", "layers", 0, "mode")),
    ("layers not an array", put({}, "layers")),
    ("measured without environment", drop("environment")),
    ("reference with environment", put("published-reference", "kind")),
    ("bad replaces", put("test-cpu", "replaces")),
    ("bad shard", put("two/four", "methodology", "shard")),
    ("samples zero", put(0, "results", 0, "stats", "samples")),
    ("logical_cores a float", put(2.5, "environment", "logical_cores")),
    ("integer beyond int64", put(2 ** 64, "environment", "device", "memory_bytes")),
    ("title over 4096 bytes", put("t" * 4097, "title")),
    ("skip reason over 4096 bytes", put("r" * 5000, "results", 1, "skip_reason")),
    ("layer name over 4096 bytes", put(["L" * 4097], "methodology", "layers")),
    ("cuda record without clocks", put({"graph_skip_reason": "x", "cold_skip_reason": "y"}, "results", 0, "cuda")),
    ("cuda graph median zero", put({"graph": {"median_ms": 0.0, "p25_ms": 0.0, "p75_ms": 0.0, "samples": 3,
                                              "iterations_per_sample": 1, "noise": 0.0},
                                    "cold_skip_reason": "y",
                                    "clocks": {"threshold": 0.75, "event_reasons": [], "dropped_samples": 0,
                                               "kept_below_threshold": 0}}, "results", 0, "cuda")),
    ("cuda clock threshold above 1", put({"graph_skip_reason": "x", "cold_skip_reason": "y",
                                          "clocks": {"threshold": 75, "event_reasons": [], "dropped_samples": 0,
                                                     "kept_below_threshold": 0}}, "results", 0, "cuda")),
]


def check_cases(layerbench, base_path):
    with open(base_path) as f:
        base = json.load(f)
    failures = check_files(layerbench, [base_path])
    with tempfile.TemporaryDirectory() as folder:
        for name, change in CASES:
            document = copy.deepcopy(base)
            change(document)
            path = os.path.join(folder, "case.json")
            with open(path, "w") as f:
                json.dump(document, f)
            errors = schema_errors(document)
            code, output = cpp_validate(layerbench, path)
            if errors and code == 1:
                print(f"ok   {name}: schema: {errors[0]} | layerbench: {output.splitlines()[0]}")
                continue
            failures += 1
            print(f"FAIL {name}: schema rejects: {bool(errors)}; layerbench validate exit {code}: {output}")
        # NaN is not JSON (so no schema sees it), but Python writes it and so might a hand edit.
        path = os.path.join(folder, "nan.json")
        document = copy.deepcopy(base)
        document["results"][0]["stats"]["median_ms"] = float("nan")
        with open(path, "w") as f:
            json.dump(document, f)
        code, output = cpp_validate(layerbench, path)
        if code != 1 or "not valid JSON" not in output:
            failures += 1
            print(f"FAIL NaN median: layerbench validate exit {code}: {output}")
        else:
            print(f"ok   NaN median: {output.splitlines()[0]}")
    return failures


def layerbench_ok(layerbench, *arguments):
    run = subprocess.run([layerbench, *arguments], capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"FAIL layerbench {' '.join(arguments)}: exit {run.returncode}: {run.stderr.strip()}")
    return run.stdout


def cut_shards(base, count):
    """The shards `run --shard i/count` would write: cells dealt round-robin in layer-major order."""
    order = [(layer, batch) for layer in base["methodology"]["layers"] for batch in base["methodology"]["batch_sizes"]]
    shards = []
    for index in range(1, count + 1):
        shard = copy.deepcopy(base)
        mine = {key for k, key in enumerate(order) if k % count == index - 1}
        shard["results"] = [c for c in base["results"] if (c["layer"], c["batch_size"]) in mine]
        shard["methodology"]["shard"] = f"{index}/{count}"
        shards.append(shard)
    return shards


def check_engine(layerbench, base_path, with_run):
    with open(base_path) as f:
        base = json.load(f)
    with tempfile.TemporaryDirectory() as folder:
        shard_paths = []
        for k, shard in enumerate(cut_shards(base, 2)):
            shard_paths.append(os.path.join(folder, f"shard{k + 1}.json"))
            with open(shard_paths[-1], "w") as f:
                json.dump(shard, f)
        merged = os.path.join(folder, "merged.json")
        layerbench_ok(layerbench, "merge", *shard_paths, "--out", merged)
        data = os.path.join(folder, "data")
        layerbench_ok(layerbench, "publish", merged, "--data", data, "--init", "--id", "engine-output-test")
        written = [merged, os.path.join(data, "catalog.json"), os.path.join(data, "datasets", "engine-output-test-v1.json")]
        if with_run:
            runs = []
            for index in (1, 2):
                runs.append(os.path.join(folder, f"run{index}.json"))
                layerbench_ok(layerbench, "run", "--device", "cpu", "--layers", "Dropout,LayerNorm", "--batch-sizes", "1,2",
                              "--shard", f"{index}/2", "--cell-budget", "0.2", "--min-samples", "3", "--max-samples", "5",
                              "--warmup", "0.01", "--out", runs[-1])
            layerbench_ok(layerbench, "merge", *runs, "--out", os.path.join(folder, "run.json"))
            written += runs + [os.path.join(folder, "run.json")]
        return check_files(layerbench, written)


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("files", "cases", "engine"):
        print(__doc__)
        return 2
    layerbench = sys.argv[2]
    if sys.argv[1] == "files":
        failures = check_files(layerbench, sys.argv[3:])
    elif sys.argv[1] == "cases":
        failures = check_cases(layerbench, sys.argv[3])
    else:
        failures = check_engine(layerbench, sys.argv[3], sys.argv[4:] == ["run"])
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
