#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Keeps data/schema/*.schema.json and the C++ reader in step.

  check_schema.py files LAYERBENCH FILE...   every FILE (a folder: every .json in it) validates against its
                                             schema (catalog, inconsistencies or dataset, by content) and
                                             `layerbench validate` accepts it
  check_schema.py cases LAYERBENCH BASE      BASE is accepted by both; each mutation of it in CASES is
                                             rejected by both the schema and `layerbench validate`
  check_schema.py inconsistency-cases LAYERBENCH BASE
                                             the same for a reference's inconsistencies file and
                                             INCONSISTENCY_CASES
  check_schema.py catalog-cases LAYERBENCH BASE
                                             the same for a catalog and CATALOG_CASES
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
DATASHEET_PEAKS = validator("datasheet-peaks.schema.json")
FINDING = validator("finding.schema.json")


def is_inconsistencies(document):
    return isinstance(document, dict) and "inconsistencies" in document


def is_datasheet_peaks(document):
    return isinstance(document, dict) and "devices" in document


def schema_errors(document):
    chosen = CATALOG if isinstance(document, dict) and "datasets" in document and "results" not in document else DATASET
    chosen = INCONSISTENCIES if is_inconsistencies(document) else chosen
    chosen = DATASHEET_PEAKS if is_datasheet_peaks(document) else chosen
    chosen = FINDING if isinstance(document, dict) and document.get("format") == "layerbench-finding" else chosen
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


# The physics refusals of `layerbench validate` (engine/dataset/physics.cpp): a cell faster than the peaks its
# own run measured. A run made inside this test measures its peaks while other tests share the two cores, so a
# peak can come out low and a quieter cell above it: a verdict on the load, not on the schema this test checks.
PHYSICS_REFUSALS = ("so the time or the peak is wrong",)


def only_physics_refusals(output):
    problems = [line for line in output.splitlines() if line.strip() and not line.startswith("warning:")]
    return bool(problems) and all(any(mark in line for mark in PHYSICS_REFUSALS) for line in problems)


def check_files(layerbench, files, measured_here=()):
    failures = 0
    for path in expand(files):
        with open(path) as f:
            document = json.load(f)
        errors = schema_errors(document)
        # layerbench validate knows datasets, catalogs and the inconsistencies list; the datasheet peaks
        # have their schema here (the peaks' C++ reader is tested in test_dataset_datasheet.cpp).
        if isinstance(document, dict) and document.get("format") == "layerbench-scaling-reference":
            # No JSON Schema yet: dataset::parse_scaling_reference reads it, and test_dataset's
            # dataset::scaling_reference cases hold data/'s copy to the runs it transcribes.
            print(f"ok   {path} (read by the C++ reader only)")
            continue
        schema_only = is_datasheet_peaks(document)
        code, output = (0, "") if schema_only else cpp_validate(layerbench, path)
        if not errors and code != 0 and path in measured_here and only_physics_refusals(output):
            print(f"ok   {path} (schema and reader; its physics refused a cell against peaks measured under the "
                  f"test's load: {output.splitlines()[0][:200]})")
            continue
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


def model_layer(part_of):
    """layers[0] made a model's layer (schema 1.6.0) that is `part_of` a model the file does not hold."""
    def apply(d):
        d["layers"][0]["kind"] = "model_layer"
        d["layers"][0]["part_of"] = part_of
    return apply


PEAK = {"precision": "fp32", "operation": "a product", "flop": 2e9, "median_ms": 20.0, "flop_per_s": 1e11}

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
    ("data-parallel world of one", put({"world_size": 1, "backend": "gloo", "bucket_cap_bytes": 26214400,
                                        "bucket_bytes": [1048576], "all_reduce_median_ms": 2.0,
                                        "all_reduce_p25_ms": 1.5, "all_reduce_p75_ms": 3.0},
                                       "results", 0, "data_parallel")),
    ("data-parallel bucket of no bytes", put({"world_size": 2, "backend": "gloo", "bucket_cap_bytes": 26214400,
                                              "bucket_bytes": [0], "all_reduce_median_ms": 2.0,
                                              "all_reduce_p25_ms": 1.5, "all_reduce_p75_ms": 3.0},
                                             "results", 0, "data_parallel")),
    ("schema version too new", put("2.0.0", "schema_version")),
    ("schema version minor too new", put("1.12.0", "schema_version")),
    ("schema version too old", put("0.9.0", "schema_version")),
    ("schema version not semantic", put("1.1", "schema_version")),
    ("id with capitals", put("Test-CPU", "id")),
    ("created not UTC", put("2026-11-22 04:05:07", "created")),
    ("licence not CC-BY-4.0", put("MIT", "license", "id")),
    ("empty attribution", put("", "license", "attribution")),
    ("licence url not https", put("javascript:alert(1)", "license", "url")),
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
    ("shard cell at batch size 0", put([{"layer": "Linear", "batch_size": 0}], "methodology", "shard_cells")),
    ("listed cell at batch size 0 (1.9.0)", put([{"layer": "Linear", "batch_size": 0}], "methodology", "cells")),
    ("union part not text (1.9.0)", put([1], "provenance", "parts")),
    ("cpu identity without its flags (1.10.0)", put({"vendor": "AuthenticAMD"}, "environment", "cpu")),
    ("cpu flag not text (1.10.0)", put({"vendor": "AuthenticAMD", "isa": ["avx2", 1]}, "environment", "cpu")),
    ("cpu family negative (1.10.0)", put({"vendor": "AuthenticAMD", "family": -1, "isa": []}, "environment", "cpu")),
    ("unknown field in the cpu identity (1.10.0)", put({"vendor": "AuthenticAMD", "isa": [], "cores": 2}, "environment", "cpu")),
    ("samples zero", put(0, "results", 0, "stats", "samples")),
    ("logical_cores a float", put(2.5, "environment", "logical_cores")),
    ("integer beyond int64", put(2 ** 64, "environment", "device", "memory_bytes")),
    ("title over 4096 bytes", put("t" * 4097, "title")),
    ("skip reason over 4096 bytes", put("r" * 5000, "results", 1, "skip_reason")),
    ("layer name over 4096 bytes", put(["L" * 4097], "methodology", "layers")),
    ("peak precision not in the enum", put({"method": "m", "compute": [dict(PEAK, precision="fp64")]}, "environment", "peaks")),
    ("peak rate zero", put({"method": "m", "compute": [dict(PEAK, flop_per_s=0)]}, "environment", "peaks")),
    ("peak fastest sample zero (1.8.0)", put({"method": "m", "compute": [dict(PEAK, best_ms=0.0)]}, "environment", "peaks")),
    ("unknown field in a peak", put({"method": "m", "compute": [dict(PEAK, tflops=1)]}, "environment", "peaks")),
    ("negative bytes per sample", put(-4.0, "layers", 0, "bytes_per_sample")),
    ("cuda record without clocks", put({"graph_skip_reason": "x", "cold_skip_reason": "y"}, "results", 0, "cuda")),
    ("cuda graph median zero", put({"graph": {"median_ms": 0.0, "p25_ms": 0.0, "p75_ms": 0.0, "samples": 3,
                                              "iterations_per_sample": 1, "noise": 0.0},
                                    "cold_skip_reason": "y",
                                    "clocks": {"threshold": 0.75, "event_reasons": [], "dropped_samples": 0,
                                               "kept_below_threshold": 0}}, "results", 0, "cuda")),
    ("cuda clock threshold above 1", put({"graph_skip_reason": "x", "cold_skip_reason": "y",
                                          "clocks": {"threshold": 75, "event_reasons": [], "dropped_samples": 0,
                                                     "kept_below_threshold": 0}}, "results", 0, "cuda")),
    ("aoti compile seconds negative", put({"compile_seconds": -1.0, "cached": False}, "results", 0, "aoti")),
    ("aoti without cached", put({"compile_seconds": 40.0}, "results", 0, "aoti")),
    ("aoti cached not a boolean", put({"compile_seconds": 40.0, "cached": "yes"}, "results", 0, "aoti")),
    ("layer kind not in the enum", put("part", "layers", 0, "kind")),
    ("part_of without count", model_layer({"model": "ResNet50", "use": 0})),
    ("part_of use negative", model_layer({"model": "ResNet50", "use": -1, "count": 1})),
    ("part_of count zero", model_layer({"model": "ResNet50", "use": 0, "count": 0})),
    ("part_of on a layer", put({"model": "ResNet50", "use": 0, "count": 1}, "layers", 0, "part_of")),
]


# Mutations of data/reference/a100-80gb-reference-inconsistencies.json: inconsistencies[0] is
# params_differ_from_pytorch, [1] params_differ_from_page_formula, the last claim_differs_from_table.
# The claim cases mutate the reference's last claim_differs_from_table item, wherever the generator put it.
def _last_claim_index():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "reference",
                        "a100-80gb-reference-inconsistencies.json")
    with open(path) as f:
        items = json.load(f)["inconsistencies"]
    return max(i for i, item in enumerate(items)
               if item["kind"] == "claim_differs_from_table" and isinstance(item["table"], dict) and "1" in item["table"])


CLAIM = _last_claim_index()

INCONSISTENCY_CASES = [
    ("format missing", drop("format")),
    ("another format", put("layerbench-parity", "format")),
    ("format version too new", put("2.0.0", "format_version")),
    ("format version minor too new", put("1.2.0", "format_version")),
    ("format version too old", put("0.9.0", "format_version")),
    ("unknown top-level field", put(1, "colour")),
    ("reference without sha256", drop("reference", "sha256")),
    ("reference sha256 not hex", put("XYZ", "reference", "sha256")),
    ("reference not ID@N", put("a100-80gb-reference", "reference", "dataset")),
    ("unknown kind", put("memory_differs", "inconsistencies", 0, "kind")),
    ("unknown field in an item", put(1, "inconsistencies", 0, "pytorch_counts")),
    ("a formula field in a pytorch item", put("2 * x", "inconsistencies", 0, "formula")),
    ("pytorch missing", drop("inconsistencies", 0, "pytorch")),
    ("page a float in a parameter count", put(7.5, "inconsistencies", 0, "page")),
    ("binding a string", put("512", "inconsistencies", 1, "bindings", "in")),
    ("formula_value missing", drop("inconsistencies", 1, "formula_value")),
    ("claim without computation", drop("inconsistencies", CLAIM, "computation")),
    ("table value a number", put(3, "inconsistencies", CLAIM, "table", "1")),
    ("table a string", put("Embedding", "inconsistencies", CLAIM, "table")),
    ("claimed an object", put({"1": "X"}, "inconsistencies", CLAIM, "claimed")),
    ("conventions not strings", put([1], "conventions")),
    ("note over 4096 bytes", put("n" * 4097, "inconsistencies", 0, "note")),
]

# Mutations of data/catalog.json.
CATALOG_CASES = [
    ("schema version too new", put("1.4.0", "schema_version")),
    ("erratum withdrawing a field there is none of", put([{"field": "median_ms", "reason": "r", "date": "2026-11-27", "fixed_by": "0123abc"}], "datasets", 0, "errata")),
    ("erratum withdrawing a peak of no precision", put([{"field": "environment.peaks.compute.", "reason": "r", "date": "2026-11-27", "fixed_by": "0123abc"}], "datasets", 0, "errata")),
    ("erratum without a reason", put([{"field": "peak_memory_bytes", "date": "2026-11-27", "fixed_by": "0123abc"}], "datasets", 0, "errata")),
    ("erratum dated otherwise than YYYY-MM-DD", put([{"field": "peak_memory_bytes", "reason": "r", "date": "27/11/2026", "fixed_by": "0123abc"}], "datasets", 0, "errata")),
    ("erratum fixed by no commit", put([{"field": "peak_memory_bytes", "reason": "r", "date": "2026-11-27", "fixed_by": "main"}], "datasets", 0, "errata")),
    ("erratum with an unknown field", put([{"field": "peak_memory_bytes", "reason": "r", "date": "2026-11-27", "fixed_by": "0123abc", "by": "x"}], "datasets", 0, "errata")),
    ("unknown field in an entry", put(1, "datasets", 0, "colour")),
    ("empty label", put("", "datasets", 0, "label")),
    ("label over 40 characters", put("L" * 41, "datasets", 0, "label")),
    ("label of two lines", put("two\nlines", "datasets", 0, "label")),
    ("label starting with a space", put(" A100", "datasets", 0, "label")),
    ("label a number", put(100, "datasets", 0, "label")),
    ("sha256 not hex", put("xyz", "datasets", 0, "sha256")),
    ("path elsewhere", put("../x.json", "datasets", 0, "path")),
]


def check_cases(layerbench, base_path, cases=CASES):
    with open(base_path) as f:
        base = json.load(f)
    failures = check_files(layerbench, [base_path])
    with tempfile.TemporaryDirectory() as folder:
        for name, change in cases:
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
        if cases is not CASES:
            return failures
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
    """Shards as `run --shard i/count` writes them (1.3.0): each lists its cells and names the plan. The
    cells are dealt round-robin here; what matters is that the lists are disjoint and cover the matrix."""
    order = [(layer, batch) for layer in base["methodology"]["layers"] for batch in base["methodology"]["batch_sizes"]]
    shards = []
    for index in range(1, count + 1):
        shard = copy.deepcopy(base)
        mine = {key for k, key in enumerate(order) if k % count == index - 1}
        shard["results"] = [c for c in base["results"] if (c["layer"], c["batch_size"]) in mine]
        shard["methodology"]["shard"] = f"{index}/{count}"
        shard["methodology"]["shard_plan"] = "round-robin, cut by check_schema.py"
        shard["methodology"]["shard_cells"] = [{"layer": l, "batch_size": b} for (l, b) in order if (l, b) in mine]
        shard["schema_version"] = "1.3.0"
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
        layerbench_ok(layerbench, "publish", merged, "--data", data, "--init", "--id", "engine-output-test",
                      "--force", "schema test: shards cut from a fixture")
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
            return check_files(layerbench, written, measured_here=runs + [os.path.join(folder, "run.json")])
        return check_files(layerbench, written)


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("files", "cases", "inconsistency-cases", "catalog-cases", "engine"):
        print(__doc__)
        return 2
    layerbench = sys.argv[2]
    if sys.argv[1] == "files":
        failures = check_files(layerbench, sys.argv[3:])
    elif sys.argv[1] == "cases":
        failures = check_cases(layerbench, sys.argv[3])
    elif sys.argv[1] == "inconsistency-cases":
        failures = check_cases(layerbench, sys.argv[3], INCONSISTENCY_CASES)
    elif sys.argv[1] == "catalog-cases":
        failures = check_cases(layerbench, sys.argv[3], CATALOG_CASES)
    else:
        failures = check_engine(layerbench, sys.argv[3], sys.argv[4:] == ["run"])
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
