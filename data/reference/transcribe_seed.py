#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Transcribes the A100 table of the reference page into an unpublished LayerBench dataset.

  transcribe_seed.py [--url URL] PAGE.txt LAYERBENCH OUT.json

--url records the page's address, when the copy being transcribed gives it; without it the dataset
says the address is not known (never guess one).

PAGE.txt is the text copy of "PyTorch Layer Performance Benchmark" (../shared/seeds/000_*.txt).
Every figure is read from the page by the parser below, none is typed in here: the medians per batch
size, the parameter counts, the FLOPs and memory as printed (rounded), the speed class, and the
formulas. Then `layerbench publish OUT.json --id a100-80gb-reference` makes it data/ version 1.
"""
import json
import re
import shlex
import subprocess
import sys
import time

BATCH_SIZES = [1, 8, 32, 128]
SUFFIX = {"": 1, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}


def rows(page, header):
    """The data rows of the table whose header starts with `header`; a row may wrap over lines."""
    start = page.index(header)
    body = page[start:].split("\n", 2)[2]  # skip the header and |---| lines
    cells, out = [], []
    for line in body.split("\n"):
        if not line.startswith("|") and not cells:
            break
        cells += [c.strip() for c in line.strip().strip("|").split("|")]
        expected = 10 if header.startswith("| Layer Type | Config") else 4
        if len(cells) >= expected:
            out.append(cells[:expected])
            cells = []
    return out


def printed_count(text):
    """'242M' -> 242000000, '4.7B' -> 4700000000, '73,856' -> 73856: the page's value as printed."""
    match = re.fullmatch(r"([0-9][0-9,]*(?:\.[0-9]+)?)([KMBT]?)", text)
    if not match:
        raise SystemExit(f"cannot read the count {text!r}")
    return round(float(match.group(1).replace(",", "")) * SUFFIX[match.group(2)])


def printed_mebibytes(text):
    match = re.fullmatch(r"([0-9.]+) MB", text)
    if not match:
        raise SystemExit(f"cannot read the memory {text!r}")
    return round(float(match.group(1)) * 2**20)


def tool_version(layerbench):
    out = subprocess.run([layerbench, "--version"], capture_output=True, text=True, check=True).stdout.split()
    return out[1], out[2].strip("()")


def main():
    arguments = sys.argv[1:]
    url = None
    if arguments[:1] == ["--url"] and len(arguments) > 1:
        url, arguments = arguments[1], arguments[2:]
    if len(arguments) != 3:
        print(__doc__)
        return 2
    page_path, layerbench, out_path = arguments
    with open(page_path) as f:
        page = f.read()
    title = page.split("\n", 1)[0].strip()
    results = rows(page, "| Layer Type | Config")
    formulas = {r[0]: r for r in rows(page, "| Layer Type | Parameter Formula")}
    fetch_date = re.search(r"on ([A-Z][a-z]+ [0-9]{1,2}, [0-9]{4})", page).group(1)
    device = re.search(r"on (NVIDIA A100 \(80GB\))", page).group(1)
    software = re.search(r"All benchmarks run with (PyTorch [0-9.]+, CUDA [0-9.]+, cuDNN [0-9]+(?:\.[0-9x]+)*)", page).group(1)
    torch_version = re.match(r"PyTorch ([0-9.]+)", software).group(1)
    licence_line = re.search(r"Free to use under CC BY 4\.0 license\. Cite this page when sharing\.", page).group(0)
    training = re.search(r"Dropout benchmark measured in training mode", page) is not None

    layers, cells = [], []
    for module, config, params, flops, *times, memory, speed in [r[:2] + r[2:4] + r[4:8] + r[8:10] for r in results]:
        name = module.removeprefix("nn.")
        formula = formulas[name]
        layers.append({
            "name": name, "module": module, "config": config, "input_shape": "",
            "mode": "train" if name == "Dropout" and training else "eval",
            "params": printed_count(params), "params_formula": formula[1],
            "flops_per_sample": float(printed_count(flops)), "flops_formula": formula[2],
            "speed_class": speed,
        })
        for batch_size, median in zip(BATCH_SIZES, times):
            cell = {"layer": name, "batch_size": batch_size, "status": "ok", "stats": {"median_ms": float(median)}}
            if batch_size == 32:
                cell["peak_memory_bytes"] = printed_mebibytes(memory)
            cells.append(cell)

    version, commit = tool_version(layerbench)
    attribution = (f"Figures from \"{title}\" (CC BY 4.0), transcribed by LayerBench. When reusing them, "
                   f"cite that page; LayerBench did not measure them.")
    dataset = {
        "schema_version": "1.1.0",
        "kind": "published-reference",
        "id": "a100-80gb-reference",
        "version": 0,
        "replaces": None,
        "title": f"{device}, as published by \"{title}\" (reference, not measured by LayerBench)",
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "license": {"id": "CC-BY-4.0", "url": "https://creativecommons.org/licenses/by/4.0/", "attribution": attribution},
        "creators": [{"name": "LayerBench contributors"}],
        "provenance": {
            "tool": "layerbench", "tool_version": version, "git_commit": commit,
            "command_line": " ".join(shlex.quote(a) for a in ["python3"] + sys.argv),
            "source": {
                "title": title,
                "date": fetch_date,
                "license": "CC BY 4.0",
                "attribution": licence_line,
                "device": device,
                "torch_version": torch_version,
                "software": software,
                **({"url": url} if url else {}),
                "notes": ([] if url else [
                    "The copy we transcribed does not give the page's address; url is therefore absent."]) + [
                    f"date: the only date on the page, the day it says its model list was fetched ({fetch_date}).",
                    "Times are the page's medians in ms per forward pass; the page gives no other statistic.",
                    "params and flops_per_sample are the page's figures as printed; FLOPs are rounded as printed "
                    "(242M is recorded as 242000000, 4.7B as 4700000000).",
                    "peak_memory_bytes exists for batch size 32 only, the page's 'Memory (BS=32)'; its 'MB' is read as "
                    "MiB (2^20 bytes) and rounded to whole bytes, so 17.2 MB is 18035507 bytes.",
                    "mode: the page says Dropout was measured in training mode; it states no mode for the other "
                    "layers, recorded here as eval.",
                    "input_shape is empty: the page gives configurations, not input shapes.",
                ],
            },
        },
        "units": {"time": "ms", "memory": "bytes", "flops": "FLOP", "throughput": "samples/s", "flop_rate": "FLOP/s"},
        "environment": None,
        "methodology": None,
        "layers": layers,
        "results": cells,
    }
    with open(out_path, "w") as f:
        json.dump(dataset, f, indent=2)
        f.write("\n")
    print(f"{out_path}: {len(layers)} layers, {len(cells)} cells")
    return 0


if __name__ == "__main__":
    sys.exit(main())
