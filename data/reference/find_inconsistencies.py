#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Lists the reference page's inconsistencies that our own computations expose, each with both numbers.

  find_inconsistencies.py [--check] LAYERBENCH DATA_DIR REFERENCE_ID@VERSION OUT.json

With --check, OUT.json is not written but compared with what would be written (exit 1 if stale).

Inputs, nothing typed in here but the page's two claims (quoted) and how its configuration texts
are read:
  - our layer catalog: `LAYERBENCH layers --format json` (params_counted: counted on the LibTorch modules)
  - the reference dataset DATA_DIR/datasets/<id>-v<N>.json: the page's figures and formulas as transcribed
Checks:
  1. parameter counts that differ from PyTorch's modules;
  2. parameter counts and FLOPs that differ from the page's own formulas evaluated on the page's own
     configurations (FLOPs are compared at the precision the page printed them);
  3. the page's claims against ratios of its own table: the opening ratio, the FAQ's fastest layers, the
     Notes column's percentages;
  4. FLOP conventions: FLOPs per multiply-accumulate of each page formula, where they differ from the 2
     that Linear and the convolutions count;
  5. the rates the page's times imply with PyTorch's FLOPs (ours), above the device's datasheet fp32 peak
     (DATA_DIR/peaks/datasheet.json);
  6. memory figures below the size of the layer's own input.
"""
import ast
import hashlib
import json
import operator
import os
import re
import subprocess
import sys


def significant_digits(value):
    """Digits the page printed: 131000000 ('131M') has 3, 4700000000 ('4.7B') has 2."""
    digits = str(int(round(value))).rstrip("0")
    return max(len(digits), 1)


def same_as_printed(value, page):
    """Whether `value`, rounded as the page rounds its figure, prints as the page's figure."""
    if page == 0 or value == 0:
        return page == value
    digits = significant_digits(page)
    return float(f"{value:.{digits - 1}e}") == page

# How each configuration text gives the formula's variables. What the text does not state takes
# PyTorch's default: stride 1 and padding 0 for convolutions.
CONFIGS = {
    "Conv2d": (r"Conv2d\((\d+),(\d+),(\d+)\) (\d+)x(\d+) input", ["C_in", "C_out", "K", "H", "W"],
               lambda v: {"H_out": v["H"] - v["K"] + 1, "W_out": v["W"] - v["K"] + 1}),
    "Conv1d": (r"Conv1d\((\d+),(\d+),(\d+)\) len=(\d+)", ["C_in", "C_out", "K", "L"],
               lambda v: {"L_out": v["L"] - v["K"] + 1}),
    "ConvTranspose2d": (r"ConvTranspose2d\((\d+),(\d+),(\d+),(\d+)\) (\d+)x(\d+)", ["C_in", "C_out", "K", "stride", "H_in", "W_in"],
                        lambda v: {}),
    "Linear": (r"Linear\((\d+),(\d+)\)", ["in", "out"], lambda v: {}),
    "LSTM": (r"LSTM\((\d+),(\d+),(\d+),bidir=True\) len=(\d+)", ["in", "hid", "L", "seq"], lambda v: {"D": 2}),
    "GRU": (r"GRU\((\d+),(\d+),(\d+)\) len=(\d+)", ["in", "hid", "L", "seq"], lambda v: {"D": 1}),
    "TransformerEncoder": (r"d=(\d+),(\d+)heads,ff=(\d+) seq=(\d+)", ["d", "heads", "d_ff", "seq"], lambda v: {}),
    "MultiheadAttention": (r"embed=(\d+),(\d+)heads seq=(\d+)", ["d", "heads", "seq"], lambda v: {}),
    "BatchNorm2d": (r"BatchNorm2d\((\d+)\) (\d+)x(\d+) input", ["features", "H", "W"], lambda v: {}),
    "LayerNorm": (r"LayerNorm\((\d+)\) seq=(\d+)", ["norm_shape", "seq"], lambda v: {}),
    "Embedding": (r"Embedding\((\d+),(\d+)\) seq=(\d+)", ["vocab", "dim", "seq"], lambda v: {}),
    "MaxPool2d": (r"MaxPool2d\((\d+),stride=(\d+)\) (\d+)ch (\d+)x(\d+)", ["K", "stride", "C", "H", "W"],
                  lambda v: {"H_out": v["H"] // v["stride"], "W_out": v["W"] // v["stride"]}),
    "AvgPool2d": (r"AvgPool2d\((\d+),stride=(\d+)\) (\d+)ch (\d+)x(\d+)", ["K", "stride", "C", "H", "W"],
                  lambda v: {"H_out": v["H"] // v["stride"], "W_out": v["W"] // v["stride"]}),
    "Dropout": (r"Dropout\(([0-9.]+)\) (\d+)-dim", ["p", "dim"], lambda v: {}),
}

# The page's claims, quoted, and how its own table answers them.
RATIO_CLAIM = {
    "claim": "TransformerEncoder is over 1,200x slower than Dropout at batch size 128",
    "where": "the page's opening paragraph",
    "claimed": 1200,
    "numerator": "TransformerEncoder", "denominator": "Dropout", "batch_size": 128,
}
FASTEST_PARAMETERISED_CLAIM = {
    "claim": "Among parameterized layers, BatchNorm2d is fastest due to its simple affine transform with running statistics.",
    "where": "FAQ: Which PyTorch layer has the fastest forward pass?",
    "claimed": "BatchNorm2d",
}

# "Dropout and MaxPool2d have the fastest forward pass times" (the FAQ): the two fastest at every batch size.
FASTEST_PAIR_CLAIM = {
    "claim": "Dropout and MaxPool2d have the fastest forward pass times because they have zero trainable parameters "
             "and perform simple element-wise or reduction operations.",
    "where": "FAQ: Which PyTorch layer has the fastest forward pass?",
    "claimed": ["Dropout", "MaxPool2d"],
}
# The Notes column of the formula table, quoted, and what its percentages compare.
NOTES_CLAIMS = [
    {"claim": "25% fewer params than LSTM", "where": "Notes column of the formula table, GRU row",
     "claimed": 25, "layer": "GRU", "other": "LSTM", "quantity": "params", "direction": "fewer"},
    {"claim": "~30% faster", "where": "Notes column of the formula table, GRU row (than LSTM)",
     "claimed": 30, "layer": "GRU", "other": "LSTM", "quantity": "time", "direction": "faster"},
    {"claim": "~30% slower than Conv2d same params", "where": "Notes column of the formula table, ConvTranspose2d row",
     "claimed": 30, "layer": "ConvTranspose2d", "other": "Conv2d", "quantity": "time", "direction": "slower"},
]
# Multiply-accumulates of each term of the page's matrix-work formulas, from the configuration: a term's
# FLOPs over its MACs is the FLOPs per multiply-accumulate it counts.
MAC_TERMS = {
    "Conv2d": [("2 * C_in * C_out * K * K * H_out * W_out", "C_in * C_out * K * K * H_out * W_out")],
    "Conv1d": [("2 * C_in * C_out * K * L_out", "C_in * C_out * K * L_out")],
    "ConvTranspose2d": [("2 * C_in * C_out * K * K * H_in * W_in", "C_in * C_out * K * K * H_in * W_in")],
    "Linear": [("2 * in * out", "in * out")],
    "MultiheadAttention": [("4*d^2*seq + 2*d*seq^2", "4*d^2*seq + 2*d*seq^2")],
    "TransformerEncoder": [("4*d^2*seq + 2*d*seq^2", "4*d^2*seq + 2*d*seq^2"), ("4*d*d_ff*seq", "2*d*d_ff*seq")],
}
MAC_NOTES = {
    "MultiheadAttention": "Q, K, V and output projections are 4*d^2*seq multiply-accumulates and QK^T plus AV 2*seq^2*d: "
                          "the formula counts each once, half of what torch.utils.flop_counter and the page's own Linear "
                          "and convolution formulas count",
    "TransformerEncoder": "the attention terms count 1 FLOP per multiply-accumulate and the feed-forward term 2, so the "
                          "total mixes both conventions",
}
# Input elements per sample, and bytes per element, by configuration.
INPUT_ELEMENTS = {
    "Conv2d": lambda v: v["C_in"] * v["H"] * v["W"],
    "Conv1d": lambda v: v["C_in"] * v["L"],
    "ConvTranspose2d": lambda v: v["C_in"] * v["H_in"] * v["W_in"],
    "Linear": lambda v: v["in"],
    "LSTM": lambda v: v["seq"] * v["in"],
    "GRU": lambda v: v["seq"] * v["in"],
    "TransformerEncoder": lambda v: v["seq"] * v["d"],
    "MultiheadAttention": lambda v: v["seq"] * v["d"],
    "BatchNorm2d": lambda v: v["features"] * v["H"] * v["W"],
    "LayerNorm": lambda v: v["seq"] * v["norm_shape"],
    "Embedding": lambda v: v["seq"],
    "MaxPool2d": lambda v: v["C"] * v["H"] * v["W"],
    "AvgPool2d": lambda v: v["C"] * v["H"] * v["W"],
    "Dropout": lambda v: v["dim"],
}
INPUT_ELEMENT_BYTES = {"Embedding": 8}  # int64 indices; every other input is float32

OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
             ast.Pow: operator.pow}


def evaluate(formula, bindings):
    """The page's formula on the bindings; '+ biases' is left out, making the result a lower bound."""
    text = re.sub(r"\([a-z ]+\)", "", formula)  # "0 (lookup only)"
    lower_bound = "biases" in text
    text = text.replace("+ biases", "").replace("^", "**")
    text = re.sub(r"\bin\b", "in_", text)  # "in" is a Python keyword
    bindings = {("in_" if name == "in" else name): value for name, value in bindings.items()}

    def walk(node):
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
            return OPERATORS[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.Name) and node.id in bindings:
            return bindings[node.id]
        raise ValueError(f"cannot evaluate {formula!r}: {ast.dump(node)}")

    return walk(ast.parse(text.strip(), mode="eval")), lower_bound


def bindings_of(layer):
    pattern, names, derived = CONFIGS[layer["name"]]
    match = re.fullmatch(pattern, layer["config"])
    if not match:
        raise SystemExit(f"{layer['name']}: cannot read the configuration {layer['config']!r}")
    values = {n: (float(g) if "." in g else int(g)) for n, g in zip(names, match.groups())}
    values.update(derived(values))
    return values


def median(reference, layer, batch_size):
    for cell in reference["results"]:
        if cell["layer"] == layer and cell["batch_size"] == batch_size:
            return cell["stats"]["median_ms"]
    raise SystemExit(f"the reference has no {layer} at batch size {batch_size}")


def parameter_findings(reference, ours):
    findings = []
    for layer in reference["layers"]:
        counted = ours[layer["name"]].get("params_counted")
        if counted is not None and counted != layer["params"]:
            findings.append({
                "kind": "params_differ_from_pytorch", "layer": layer["name"], "config": layer["config"],
                "page": layer["params"], "pytorch": counted,
                "pytorch_source": "params_counted of `layerbench layers --format json`: the parameters of the LibTorch module built from this configuration",
            })
        value, lower_bound = evaluate(layer["params_formula"], bindings_of(layer))
        if (value > layer["params"]) if lower_bound else (value != layer["params"]):
            finding = {
                "kind": "params_differ_from_page_formula", "layer": layer["name"], "config": layer["config"],
                "formula": layer["params_formula"], "bindings": bindings_of(layer),
                "page": layer["params"], "formula_value": value,
            }
            if lower_bound:
                finding["note"] = "the formula's unspecified 'biases' are left out, so it gives at least formula_value"
            findings.append(finding)
    return findings


def flop_findings(reference):
    findings = []
    for layer in reference["layers"]:
        value, _ = evaluate(layer["flops_formula"], bindings_of(layer))
        page = layer["flops_per_sample"]
        if not same_as_printed(value, page):
            findings.append({
                "kind": "flops_differ_from_page_formula", "layer": layer["name"], "config": layer["config"],
                "formula": layer["flops_formula"], "bindings": bindings_of(layer),
                "page": page, "formula_value": value,
                "page_over_formula": round(page / value, 3) if value else None,
            })
    return findings


def claim_findings(reference):
    c = RATIO_CLAIM
    top, bottom = median(reference, c["numerator"], c["batch_size"]), median(reference, c["denominator"], c["batch_size"])
    ratio = top / bottom
    findings = [{
        "kind": "claim_differs_from_table", "claim": c["claim"], "where": c["where"],
        "claimed": c["claimed"], "table": round(ratio, 1),
        "computation": f"{c['numerator']} {top} ms / {c['denominator']} {bottom} ms at batch size {c['batch_size']}",
        "note": f"true as a lower bound, but the table's own ratio is {ratio / c['claimed']:.1f} times the claimed one",
    }]
    parameterised = [l["name"] for l in reference["layers"] if l["params"] > 0]
    batch_sizes = sorted({cell["batch_size"] for cell in reference["results"]})
    fastest = {b: min(parameterised, key=lambda name: median(reference, name, b)) for b in batch_sizes}
    wrong = {b: name for b, name in fastest.items() if name != FASTEST_PARAMETERISED_CLAIM["claimed"]}
    if wrong:
        claimed = FASTEST_PARAMETERISED_CLAIM["claimed"]
        findings.append({
            "kind": "claim_differs_from_table", "claim": FASTEST_PARAMETERISED_CLAIM["claim"],
            "where": FASTEST_PARAMETERISED_CLAIM["where"], "claimed": claimed,
            "table": {str(b): name for b, name in fastest.items()},
            "computation": "; ".join(
                f"batch size {b}: {name} {median(reference, name, b)} ms < {claimed} {median(reference, claimed, b)} ms"
                for b, name in wrong.items()),
        })
    return findings


def times_at(reference, batch_size):
    return sorted(((cell["stats"]["median_ms"], cell["layer"]) for cell in reference["results"]
                   if cell["batch_size"] == batch_size and cell.get("stats")), key=lambda item: item[0])


def fastest_pair_findings(reference):
    """The layers that beat one of the claimed pair at a batch size, with both times."""
    c = FASTEST_PAIR_CLAIM
    batch_sizes = sorted({cell["batch_size"] for cell in reference["results"]})
    table, wrong = {}, []
    for b in batch_sizes:
        timed = times_at(reference, b)
        table[str(b)] = [name for _, name in timed[:2]]
        for claimed in c["claimed"]:
            ms = median(reference, claimed, b)
            faster = [f"{name} {t} ms" for t, name in timed if t < ms and name not in c["claimed"]]
            if faster:
                wrong.append(f"batch size {b}: {', '.join(faster)} < {claimed} {ms} ms")
    if not wrong:
        return []
    return [{
        "kind": "claim_differs_from_table", "claim": c["claim"], "where": c["where"],
        "claimed": " and ".join(c["claimed"]), "table": table, "computation": "; ".join(wrong),
        "note": "table: the two fastest layers at each batch size",
    }]


def notes_findings(reference):
    findings = []
    batch_sizes = sorted({cell["batch_size"] for cell in reference["results"]})
    focus = 32 if 32 in batch_sizes else batch_sizes[len(batch_sizes) // 2]
    layers = {layer["name"]: layer for layer in reference["layers"]}
    for c in NOTES_CLAIMS:
        if c["quantity"] == "params":
            mine, other = layers[c["layer"]]["params"], layers[c["other"]]["params"]
            percent = round((1 - mine / other) * 100, 1)
            computation = f"{c['layer']} {mine:,} parameters / {c['other']} {other:,} = {mine / other:.3f}"
        else:
            def percent_at(b):
                ratio = median(reference, c["layer"], b) / median(reference, c["other"], b)
                return round((1 - ratio) * 100 if c["direction"] == "faster" else (ratio - 1) * 100, 1)
            percent = percent_at(focus)
            computation = "; ".join(
                f"batch size {b}: {c['layer']} {median(reference, c['layer'], b)} ms / {c['other']} "
                f"{median(reference, c['other'], b)} ms, {percent_at(b)}% {c['direction']}" for b in batch_sizes)
        if abs(percent - c["claimed"]) >= 5:
            finding = {"kind": "claim_differs_from_table", "layer": c["layer"], "claim": c["claim"], "where": c["where"],
                       "claimed": c["claimed"], "table": percent, "computation": computation}
            if c["quantity"] == "time":
                finding["note"] = f"table: percent {c['direction']} at batch size {focus}, the page's memory column's batch size"
            findings.append(finding)
    return findings


def flops_per_mac_findings(reference):
    findings = []
    layers = {layer["name"]: layer for layer in reference["layers"]}
    per_mac = {}
    for name, terms in MAC_TERMS.items():
        bindings = bindings_of(layers[name])
        per_mac[name] = {term: evaluate(term, bindings)[0] / evaluate(macs, bindings)[0] for term, macs in terms}
    usual = {name: ratios[next(iter(ratios))] for name, ratios in per_mac.items() if name not in MAC_NOTES}
    for name in MAC_NOTES:
        layer = layers[name]
        ratios = per_mac[name]
        if all(ratio in usual.values() for ratio in ratios.values()) and len(set(ratios.values())) == 1:
            continue
        findings.append({
            "kind": "flops_per_mac_differs", "layer": name, "config": layer["config"], "formula": layer["flops_formula"],
            "bindings": bindings_of(layer),
            "flops_per_mac": {term: round(ratio, 3) for term, ratio in ratios.items()},
            "elsewhere": {other: round(ratio, 3) for other, ratio in usual.items()},
            "computation": "; ".join(f"{term} over its multiply-accumulates ({macs}) = {round(per_mac[name][term], 3)}"
                                     for term, macs in MAC_TERMS[name]),
            "note": MAC_NOTES[name],
        })
    return findings


def datasheet_device(data_dir, device_text):
    with open(os.path.join(data_dir, "peaks", "datasheet.json")) as f:
        datasheet = json.load(f)
    for device in datasheet["devices"]:
        if any(name in device_text for name in device["matches"]):
            return device
    raise SystemExit(f"{data_dir}/peaks/datasheet.json: no device matches {device_text!r}")


RATE_NOTES = {
    "Linear": "PyTorch's default keeps float32 matrix products in IEEE fp32 (torch.backends.cuda.matmul.allow_tf32 is "
              "False since 1.12), so the page's 'float32' run most likely enabled TF32, or the time is not the layer's",
    "convolution": "PyTorch's default lets cuDNN run float32 convolutions in TF32 (torch.backends.cudnn.allow_tf32 is "
                   "True), so the page's 'float32' convolutions most likely ran in TF32",
}


def implied_rate_findings(reference, ours, data_dir):
    device = datasheet_device(data_dir, reference["provenance"]["source"]["device"])
    fp32 = next(rate["flop_per_s"] for rate in device["compute"] if rate["precision"] == "fp32")
    findings = []
    for cell in reference["results"]:
        flops = ours[cell["layer"]]["flops_per_sample"]
        ms = cell["stats"]["median_ms"]
        implied = flops * cell["batch_size"] / (ms / 1000)
        if implied <= fp32:
            continue
        layer = next(l for l in reference["layers"] if l["name"] == cell["layer"])
        note = RATE_NOTES["Linear"] if cell["layer"] == "Linear" else RATE_NOTES["convolution"] if "Conv" in cell["layer"] else None
        finding = {
            "kind": "implied_rate_above_peak", "layer": cell["layer"], "config": layer["config"],
            "batch_size": cell["batch_size"], "page_ms": ms, "flops_per_sample": flops,
            "implied_flop_per_s": float(f"{implied:.4g}"), "peak_flop_per_s": fp32,
            "peak_source": f"{device['name']} fp32, datasheet: {device['source']['title']} (data/peaks/datasheet.json)",
            "computation": f"{flops:,.0f} FLOP x {cell['batch_size']} / {ms} ms = {implied / 1e12:.1f} TFLOP/s "
                           f"> {fp32 / 1e12:g} TFLOP/s",
        }
        if note:
            finding["note"] = note
        findings.append(finding)
    return findings


def implied_bandwidth_findings(reference, ours, data_dir):
    """Cells whose time is shorter than the memory needs for the share of the working set that the last-level cache
    cannot keep: at least (bytes - cache) come from memory, whatever the cache's replacement policy, so the time is at
    least (bytes - cache) / bandwidth. The same rule as `layerbench validate` applies to our data
    (engine/dataset/roofline.hpp, memory_roof_for); the cache's own share is not bounded, its bandwidth unmeasured."""
    device = datasheet_device(data_dir, reference["provenance"]["source"]["device"])
    memory = device["memory"]
    if "last_level_cache_bytes" not in memory:
        return []
    peak, cache = memory["bytes_per_s"], memory["last_level_cache_bytes"]
    findings = []
    for cell in reference["results"]:
        layer = ours[cell["layer"]]
        if layer.get("bytes_per_sample") is None:
            continue
        moved = layer["bytes_fixed"] + cell["batch_size"] * layer["bytes_per_sample"]
        ms = cell["stats"]["median_ms"]
        beyond = moved - cache
        implied = beyond / (ms / 1000)
        if beyond <= 0 or implied <= peak:
            continue
        findings.append({
            "kind": "implied_bandwidth_above_peak", "layer": cell["layer"],
            "config": next(l for l in reference["layers"] if l["name"] == cell["layer"])["config"],
            "batch_size": cell["batch_size"], "page_ms": ms, "bytes": moved,
            "implied_bytes_per_s": float(f"{implied:.4g}"), "peak_bytes_per_s": peak,
            "last_level_cache_bytes": cache,
            "peak_source": f"{device['name']} {memory['kind']}, datasheet: {device['source']['title']}; its L2: "
                           f"{memory.get('last_level_cache_note', '')} (data/peaks/datasheet.json)",
            "computation": f"at least {moved / 2**20:,.1f} MiB moved, of which the {cache / 2**20:g} MiB L2 can keep "
                           f"at most {cache / 2**20:g} MiB: {beyond / 2**20:,.1f} MiB / {ms} ms = "
                           f"{implied / 1e9:,.0f} GB/s > {peak / 1e9:,.0f} GB/s",
            "note": "no memory moves more than its bandwidth; what the cache cannot keep of the working set comes from "
                    "memory, so the time is too short for the work",
        })
    return findings


def memory_findings(reference):
    findings = []
    for cell in reference["results"]:
        if cell.get("peak_memory_bytes") is None:
            continue
        layer = next(l for l in reference["layers"] if l["name"] == cell["layer"])
        per_sample = INPUT_ELEMENTS[layer["name"]](bindings_of(layer)) * INPUT_ELEMENT_BYTES.get(layer["name"], 4)
        input_bytes = per_sample * cell["batch_size"]
        if cell["peak_memory_bytes"] < input_bytes:
            findings.append({
                "kind": "memory_below_input", "layer": layer["name"], "config": layer["config"],
                "batch_size": cell["batch_size"], "page_memory_bytes": cell["peak_memory_bytes"], "input_bytes": input_bytes,
                "computation": f"input {cell['batch_size']} x {per_sample:,} bytes = {input_bytes / 2**20:g} MiB > "
                               f"the page's {cell['peak_memory_bytes'] / 2**20:.1f} MiB",
                "note": "a forward pass holds at least its input while it runs",
            })
    return findings


def main():
    arguments = sys.argv[1:]
    check = arguments[:1] == ["--check"]
    arguments = arguments[1:] if check else arguments
    if len(arguments) != 4:
        print(__doc__)
        return 2
    layerbench, data_dir, reference_name, out_path = arguments
    reference_id, version = reference_name.rsplit("@", 1)
    relative = f"datasets/{reference_id}-v{version}.json"
    with open(os.path.join(data_dir, relative), "rb") as f:
        raw = f.read()
    reference = json.loads(raw)
    layers = subprocess.run([layerbench, "layers", "--format", "json"], capture_output=True, text=True, check=True)
    ours = {layer["name"]: layer for layer in json.loads(layers.stdout)}
    tool_version = subprocess.run([layerbench, "--version"], capture_output=True, text=True, check=True).stdout.split()[1]
    document = {
        "format": "layerbench-inconsistencies",
        # engine/dataset/inconsistencies.hpp reads it: a major change breaks readers, a minor one adds fields.
        "format_version": "1.1.0",
        "about": "Inconsistencies of the published reference page that LayerBench's own computations expose, each "
                 "with both numbers. Generated; do not edit. Regenerate with the command in generated_by.",
        "reference": {"dataset": reference_name, "path": relative, "sha256": hashlib.sha256(raw).hexdigest()},
        "ours": {"source": "layerbench layers --format json", "tool_version": tool_version},
        "generated_by": f"python3 data/reference/find_inconsistencies.py LAYERBENCH data {reference_name} "
                        f"data/reference/{reference_id}-inconsistencies.json",
        "conventions": [
            "Configuration texts are read with PyTorch's defaults for what they do not state (stride 1, padding 0).",
            "The page prints FLOPs rounded (242M); a formula's value differs when, rounded to as many significant "
            "digits as the page printed, it is not the page's figure.",
            "Formulas are evaluated as printed, not corrected: LayerNorm's '5 * norm_shape' has no seq factor, and "
            "the LSTM and GRU FLOP formulas have no layer or direction factor.",
            "Parameter counts are printed exactly and compared exactly.",
            "Implied rates use PyTorch's FLOPs for each configuration (flops_per_sample of `layerbench layers "
            "--format json`, 2 per multiply-accumulate) and the page's median times; peaks are the datasheet's, "
            "from DATA_DIR/peaks/datasheet.json.",
            "Implied traffic uses the least bytes a forward moves (bytes_fixed + batch x bytes_per_sample of "
            "`layerbench layers --format json`: weights, input and output once). The L2 cache may keep up to its "
            "size of it between passes, whatever its replacement policy; the rest comes from memory. A cell is "
            "listed where that rest over the page's median time exceeds the datasheet's memory bandwidth: the rule "
            "`layerbench validate` applies to our own data.",
            "Percentages in the Notes column are compared with the table's at batch size 32, the batch size of its "
            "memory column; a difference under 5 points is not listed.",
        ],
        "inconsistencies": parameter_findings(reference, ours) + flop_findings(reference) + claim_findings(reference)
        + fastest_pair_findings(reference) + notes_findings(reference) + flops_per_mac_findings(reference)
        + implied_rate_findings(reference, ours, data_dir) + memory_findings(reference)
        + implied_bandwidth_findings(reference, ours, data_dir),
    }
    text = json.dumps(document, indent=2) + "\n"
    if check:
        with open(out_path) as f:
            current = f.read() == text
        print(f"{out_path}: {'current' if current else 'STALE: regenerate it with ' + document['generated_by']}")
        return 0 if current else 1
    with open(out_path, "w") as f:
        f.write(text)
    print(f"{out_path}: {len(document['inconsistencies'])} inconsistencies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
