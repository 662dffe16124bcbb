#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The copies of the catalog against the catalog (issue 37, item 2), run by CTest as catalog/copies.

The C++ catalog is the source: `layerbench layers --format json` (the 14 layers), `--models` (the whole
models) and `--axes` (each performance-setting axis and its values, the first the reference). Compared:

  bench/gpu/layers.py           LAYERS: names in the catalog's order, nn class, mode, input shape, parameter
                                count, and every number of the catalog's config text among the module's
  bench/models/py_models.py     MODELS (and their family, input shape, parameter count, built on the meta
                                device), PRECISIONS, MODES (less the modes the torch.compile worker refuses,
                                engine/bench/axes_plan.cpp)
  bench/models/compiled_train.py  COMPILED, a value of the compiled axis
  bench/models/parity.py        REFERENCE_AXES, the first value of every axis
  data/schema/dataset.schema.json  the axes' enums (a cell's and the methodology's), peak precisions, the layer
                                modes and kinds the catalog uses
  data/schema/datasheet-peaks.schema.json  the peak precisions
  engine/dataset/validate.cpp, engine/dataset/datasheet.cpp  the precision lists typed again in C++ (read as text)

Usage: catalog_copies_check.py LAYERBENCH. Prints one MISMATCH line per difference, naming the copy, the
catalog and the value; exits 1 on any, 77 (skipped) where the binary has no LibTorch.
"""

import ast
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(SOURCE_DIR / "bench" / "gpu"))
sys.path.insert(0, str(SOURCE_DIR / "bench" / "models"))

import torch  # noqa: E402

import layers  # noqa: E402
import py_models  # noqa: E402

SKIP = 77
LAYERS_JSON = "layerbench layers --format json"
MODELS_JSON = "layerbench layers --models --format json"
AXES_JSON = "layerbench layers --axes --format json"

problems = []


def mismatch(copy: str, catalog: str, text: str) -> None:
    problems.append(f"{copy} vs {catalog}: {text}")


def listing(binary: str, *flags: str) -> list:
    result = subprocess.run([binary, "layers", "--format", "json", *flags], capture_output=True, text=True)
    if result.returncode != 0 and "without LibTorch" in result.stderr:
        print(f"SKIPPED: {binary} was built without LibTorch, so it has no catalog to compare with")
        sys.exit(SKIP)
    if result.returncode != 0:
        sys.exit(f"'{binary} layers --format json {' '.join(flags)}' failed ({result.returncode}): "
                 f"{result.stderr.strip()}")
    return json.loads(result.stdout)


def compare_sets(copy: str, copied: list, catalog: str, listed: list, what: str) -> None:
    for value in listed:
        if value not in copied:
            mismatch(copy, catalog, f"{what} '{value}' is in the catalog, missing from the copy")
    for value in copied:
        if value not in listed:
            mismatch(copy, catalog, f"{what} '{value}' is in the copy, not in the catalog")


def compare_lists(copy: str, copied: list, catalog: str, listed: list, what: str) -> None:
    """The same values in the same order (the first of an axis is its reference)."""
    compare_sets(copy, copied, catalog, listed, what)
    if set(copied) == set(listed) and list(copied) != list(listed):
        mismatch(copy, catalog, f"{what}s in another order: {', '.join(copied)} against {', '.join(listed)}")


def shape_of(text: str, batch: int) -> list:
    """'100 x B x 512' or 'B x 128 (int64 indices)' at a batch size: each part's leading B or integer."""
    dims = []
    for part in text.split(" x "):
        found = re.match(r"\s*(B|\d+)", part)
        dims.append(batch if found is None or found.group(1) == "B" else int(found.group(1)))
    return dims


def config_numbers(config: str) -> list:
    """The numbers of a config text, '64', '8' of '8heads', '0.5'; not the '2' of 'Conv2d' or 'x32'."""
    return [float(number) for number in re.findall(r"(?<![A-Za-z_.\d])\d+(?:\.\d+)?", config)]


def module_numbers(module: torch.nn.Module, input_shape: list, batch: int) -> Counter:
    """Every number a module and its submodules hold as a hyperparameter, and the input's dimensions but
    the batch, counted: MaxPool2d(3, stride=2) holds one 2, so it is not 'MaxPool2d(2,stride=2)'."""
    numbers = Counter()
    for sub in module.modules():
        for key, value in vars(sub).items():
            if key.startswith("_") or isinstance(value, bool):
                continue
            items = value if isinstance(value, (tuple, list)) else [value]
            numbers.update(float(item) for item in items if isinstance(item, (int, float)) and not isinstance(item, bool))
    numbers.update(float(size) for size in input_shape)
    numbers[float(batch)] -= 1
    return numbers


def check_layers(catalog: list) -> None:
    copy = "bench/gpu/layers.py LAYERS"
    names = [layer.name for layer in layers.LAYERS]
    listed = [entry["name"] for entry in catalog]
    compare_lists(copy, names, LAYERS_JSON, listed, "layer")
    entries = {entry["name"]: entry for entry in catalog}
    batch = 7  # a batch size no configuration number equals, so the batch dimension is told apart
    for layer in layers.LAYERS:
        entry = entries.get(layer.name)
        if entry is None:
            continue
        where = f"{copy} '{layer.name}'"
        with torch.device("meta"):
            module = layer.build()
        inputs = layer.make_input(batch, torch.device("cpu"))
        python_class = "nn." + type(module).__name__
        if python_class != entry["module"]:
            mismatch(where, LAYERS_JSON, f"module {python_class} against {entry['module']}")
        python_mode = "train" if layer.train_mode else "eval"
        if python_mode != entry["mode"]:
            mismatch(where, LAYERS_JSON, f"mode {python_mode} against {entry['mode']}")
        expected = shape_of(entry["input_shape"], batch)
        if list(inputs[0].shape) != expected:
            mismatch(where, LAYERS_JSON, f"input shape {list(inputs[0].shape)} at batch {batch} against "
                     f"'{entry['input_shape']}' ({expected})")
        if ("int64" in entry["input_shape"]) != (inputs[0].dtype == torch.int64):
            mismatch(where, LAYERS_JSON, f"input dtype {inputs[0].dtype} against '{entry['input_shape']}'")
        params = sum(p.numel() for p in module.parameters())
        if params != entry["params"]:
            mismatch(where, LAYERS_JSON, f"{params:,} parameters against {entry['params']:,}")
        held = module_numbers(module, list(inputs[0].shape), batch)
        for number, count in Counter(config_numbers(entry["config"])).items():
            if held[number] < count:
                mismatch(where, LAYERS_JSON, f"config '{entry['config']}' says {number:g} {count} time(s); the module "
                         f"and its input hold it {held[number]} time(s)")


def check_models(models: list, axes: dict) -> None:
    copy = "bench/models/py_models.py"
    compare_sets(f"{copy} MODELS", list(py_models.MODELS), MODELS_JSON, [entry["name"] for entry in models], "model")
    families = {name: "torchvision." for name in py_models.RESNET_BLOCKS}
    families.update({name: "transformers." for name in py_models.BERT_SHAPES})
    batch = 3
    for entry in models:
        name = entry["name"]
        if name not in py_models.MODELS:
            continue
        where = f"{copy} '{name}'"
        if not entry["module"].startswith(families[name]):
            mismatch(where, MODELS_JSON, f"built from {families[name]}* against module {entry['module']}")
        shape = list(py_models.example_input(name, batch, torch.device("cpu")).shape)
        if shape != shape_of(entry["input_shape"], batch):
            mismatch(where, MODELS_JSON, f"input shape {shape} at batch {batch} against '{entry['input_shape']}'")
        with torch.device("meta"):  # BertLarge's 334 M parameters take no memory here
            module = py_models.build_resnet(name) if name in py_models.RESNET_BLOCKS else \
                py_models.build_bert(name, "inference_mode")
        params = sum(p.numel() for p in module.parameters())
        if params != entry["params"]:
            mismatch(where, MODELS_JSON, f"{params:,} parameters against {entry['params']:,}")
    compare_lists(f"{copy} PRECISIONS", list(py_models.PRECISIONS), AXES_JSON, axes.get("precision", []), "precision")
    # The worker runs every mode that engine/bench/axes_plan.cpp does not refuse for torch_compile.
    plan = "engine/bench/axes_plan.cpp torch_compile_unsupported"
    body = re.search(r"torch_compile_unsupported\(.*?\n\}", read("engine/bench/axes_plan.cpp"), re.S)
    refused = re.findall(r"GradMode::(\w+)", body.group(0)) if body else []
    compare_lists(f"{copy} MODES", list(py_models.MODES), f"{AXES_JSON} less the modes {plan} refuses",
                  [mode for mode in axes.get("mode", []) if mode not in refused], "mode")


def literal(path: str, name: str):
    """The value of a module-level `NAME = <literal>` in a Python file, read without importing it."""
    for node in ast.parse(read(path)).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    mismatch(path, AXES_JSON, f"no {name} = <literal> found")
    return None


def check_python_axes(axes: dict) -> None:
    compiled = literal("bench/models/compiled_train.py", "COMPILED")
    if compiled is not None and compiled not in axes.get("compiled", []):
        mismatch("bench/models/compiled_train.py COMPILED", AXES_JSON, f"compiled value '{compiled}' is not an axis value")
    reference = literal("bench/models/parity.py", "REFERENCE_AXES")
    if reference is not None:
        compare_sets("bench/models/parity.py REFERENCE_AXES", list(reference), AXES_JSON, list(axes), "axis")
        for name, values in axes.items():
            if name in reference and reference[name] != values[0]:
                mismatch("bench/models/parity.py REFERENCE_AXES", AXES_JSON,
                         f"axis {name}'s reference '{reference[name]}' against '{values[0]}'")


def at(document, path: str, origin: str):
    node = document
    for key in path.strip("/").split("/"):
        try:
            node = node[int(key)] if isinstance(node, list) else node[key]
        except (KeyError, IndexError, ValueError):
            mismatch(f"{origin} {path}", AXES_JSON, "no such place in the schema (moved? update this check)")
            return None
    return node


def check_schemas(axes: dict, catalog: list) -> None:
    origin = "data/schema/dataset.schema.json"
    schema = json.loads(read(origin))
    for place, suffix in (("/$defs/axes/properties", "/anyOf/0/enum"),
                          ("/$defs/methodology/properties/axes/anyOf/0/properties", "/anyOf/0/items/enum")):
        properties = at(schema, place, origin)
        if properties is None:
            continue
        compare_lists(f"{origin} {place}", list(properties), AXES_JSON, list(axes), "axis")
        for name, values in axes.items():
            if name in properties:
                enum = at(schema, place + "/" + name + suffix, origin)
                if enum is not None:
                    compare_lists(f"{origin} {place}/{name}{suffix}", enum, AXES_JSON, values, f"{name} value")
    precisions = axes.get("precision", [])
    for origin_file, place in ((origin, "/$defs/peak_compute/properties/precision/enum"),
                               ("data/schema/datasheet-peaks.schema.json",
                                "/properties/devices/items/properties/compute/items/properties/precision/enum")):
        enum = at(json.loads(read(origin_file)), place, origin_file)
        if enum is not None:
            compare_lists(f"{origin_file} {place}", enum, AXES_JSON, precisions, "precision")
    # The schema may allow more than this catalog lists (model_layer, datasets of older catalogs); not less.
    for field, default in (("mode", None), ("kind", "layer")):
        place = f"/$defs/layer/properties/{field}/enum"
        enum = at(schema, place, origin)
        for entry in catalog if enum is not None else []:
            value = entry.get(field, default)
            if value not in enum:
                mismatch(f"{origin} {place}", MODELS_JSON, f"{entry['name']}'s {field} '{value}' is not in the enum")


def quoted(text: str) -> list:
    return re.findall(r'"([^"]*)"', text)


def check_cpp_lists(precisions: list) -> None:
    origin = "engine/dataset/validate.cpp"
    text = read(origin)
    declared = re.search(r"k_precisions\s*=\s*\{([^}]*)\}", text)
    if declared is None:
        mismatch(origin, AXES_JSON, "no k_precisions = {...} found (moved? update this check)")
    else:
        compare_sets(f"{origin} k_precisions", quoted(declared.group(1)), AXES_JSON, precisions, "precision")
    message = re.search(r'k_precisions\.count.*?is not one of ([\w, ]+)"', text, re.S)
    if message is None:
        mismatch(origin, AXES_JSON, "no 'is not one of ...' message found for the precisions")
    else:
        compare_lists(f"{origin} message", [v.strip() for v in message.group(1).split(",")], AXES_JSON, precisions,
                      "precision")
    origin = "engine/dataset/datasheet.cpp"
    parsed = re.search(r'"precision",\s*\{(\{.*?\})\}\)', read(origin), re.S)
    if parsed is None:
        mismatch(origin, AXES_JSON, "no parse_enum(reader, \"precision\", {...}) found (moved? update this check)")
    else:
        compare_lists(f"{origin} parse_enum", quoted(parsed.group(1))[::2], AXES_JSON, precisions, "precision")


def check_setting_words(axes: dict) -> None:
    """The site's words for each setting (engine/site/setting_words.cpp): a value without words would reach
    a page spelled as its key, so every axis value must have its entry, and no entry may name a value gone."""
    origin = "engine/site/setting_words.cpp"
    entries = re.findall(r'\{\{"(\w+)", "(\w+)"\}, "[^"]*"\}', read(origin))
    if not entries:
        mismatch(origin, AXES_JSON, "no {{\"axis\", \"value\"}, \"words\"} entries found (moved? update this check)")
        return
    for name, values in axes.items():
        compare_sets(f"{origin} words_table, axis {name}", [v for a, v in entries if a == name], AXES_JSON, values, name)
    for name in sorted({a for a, _ in entries} - set(axes)):
        mismatch(origin, AXES_JSON, f"words for axis '{name}', which the catalog does not have")


def read(path: str) -> str:
    return (SOURCE_DIR / path).read_text()


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    if not Path(binary).is_file():
        print(f"SKIPPED: no layerbench binary at '{binary}'")
        return SKIP
    catalog = listing(binary)
    everything = listing(binary, "--models")
    models = [entry for entry in everything if entry.get("kind") == "model"]
    axes = {axis["name"]: axis["values"] for axis in listing(binary, "--axes")}
    check_layers(catalog)
    check_models(models, axes)
    check_python_axes(axes)
    check_schemas(axes, everything)
    check_cpp_lists(axes.get("precision", []))
    check_setting_words(axes)
    for problem in problems:
        print(f"MISMATCH: {problem}")
    if problems:
        return 1
    print(f"{len(catalog)} layers, {len(models)} models and {len(axes)} axes: every copy agrees with the catalog")
    return 0


if __name__ == "__main__":
    sys.exit(main())
