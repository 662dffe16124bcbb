"""Each layer's formulas with their numbers put in ("...; with values: 64*128*3*3 + 128") must evaluate
to the parameter and FLOP figures the catalog computes, so the text on a page can never drift from
the number beside it. Usage: bench_formula_values.py LAYERBENCH_BINARY"""
import ast
import json
import operator
import subprocess
import sys

OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Pow: operator.pow}


def evaluate(text, batch=None):
    """Integer arithmetic only: + - * ^ and parentheses; B is the batch size where given."""
    def walk(node):
        if isinstance(node, ast.Name) and node.id == "B" and batch is not None:
            return batch
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
            return OPERATORS[type(node.op)](walk(node.left), walk(node.right))
        raise ValueError(f"not plain arithmetic: {text!r}")
    return walk(ast.parse(text.replace("^", "**"), mode="eval"))


def main():
    layers = json.loads(subprocess.run([sys.argv[1], "layers", "--format", "json"], check=True,
                                       capture_output=True, text=True).stdout)
    failures = []
    for layer in layers:
        for formula, figure in (("params_formula", "params"), ("flops_formula", "flops_per_sample")):
            text = layer[formula]
            if "; with values: " not in text:
                failures.append(f"{layer['name']}: {formula} has no values: {text!r}")
                continue
            value = evaluate(text.split("; with values: ", 1)[1])
            if value != layer[figure]:
                failures.append(f"{layer['name']}: {formula} gives {value}, {figure} is {layer[figure]}")
        # The bytes of a batch of B: fixed + B * per sample, so B = 0 and B = 1 give both figures.
        text = layer.get("bytes_formula", "")
        if "; with values: " not in text:
            failures.append(f"{layer['name']}: bytes_formula has no values: {text!r}")
            continue
        values = text.split("; with values: ", 1)[1]
        fixed, one = evaluate(values, 0), evaluate(values, 1)
        if (fixed, one - fixed) != (layer["bytes_fixed"], layer["bytes_per_sample"]):
            failures.append(f"{layer['name']}: bytes_formula gives {fixed} + B*{one - fixed}, the figures are "
                            f"{layer['bytes_fixed']} + B*{layer['bytes_per_sample']}")
    for failure in failures:
        print(failure)
    print(f"{len(layers) * 3 - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
