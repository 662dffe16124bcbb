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
  3. the page's claims against ratios of its own table.
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
        "format_version": "1.0.0",
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
        ],
        "inconsistencies": parameter_findings(reference, ours) + flop_findings(reference) + claim_findings(reference),
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
