# SPDX-License-Identifier: MIT
"""Exports one catalog layer as an AOTInductor package for `compiled=aot_inductor` cells (docs/settings.md).

The layer is built by layers.py, as the Python twins build it, and wrapped so that its forward takes the
single input tensor the C++ Instance holds (MultiheadAttention gets it as query, key and value; the
recurrent layers and attention keep their first output). A whole model (ResNet50, BertBase, BertLarge and
the tests' tiny ones) is built by bench/models/py_models.py as its inference twin (eval, fp32; BERT's
BertModel returns its last hidden state). The batch dimension is dynamic, so one package serves every
batch size. The C++ cache (engine/bench/aoti_cache.cpp) calls this script with a temporary
--out path and renames it into place; on failure the last line on stderr is the reason, and the exit
status is 1."""

import argparse
import sys
import time
from pathlib import Path

import torch
from torch import nn

import layers

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "models"))
import py_models  # noqa: E402

# The largest batch a package accepts; the CUDA preset goes to 128.
MAX_BATCH = 1024


class SingleInput(nn.Module):
    """module(x, x, ...)[0]: the C++ call of a layer, on its one input tensor."""

    def __init__(self, module: nn.Module, arity: int, first_output: bool):
        super().__init__()
        self.module = module
        self.arity = arity
        self.first_output = first_output

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.module(*([x] * self.arity))
        return out[0] if self.first_output else out


def batch_axis(layer: layers.Layer) -> int:
    """Where the batch goes in the layer's input: the one axis that differs between batch sizes 2 and 3."""
    two, three = layer.make_input(2, torch.device("meta"))[0].shape, layer.make_input(3, torch.device("meta"))[0].shape
    return next(axis for axis, (a, b) in enumerate(zip(two, three)) if a != b)


def export(layer: layers.Layer, device: torch.device, out: str) -> None:
    module = layer.build().to(device)
    module.train(layer.train_mode)
    # Batch 2: torch.export specialises sizes 0 and 1, so an example of 1 would fix the batch.
    inputs = layer.make_input(2, device)
    wrapped = SingleInput(module, len(inputs), layer.first_output)
    batch = torch.export.Dim("batch", min=1, max=MAX_BATCH)
    start = time.monotonic()
    with torch.inference_mode():
        program = torch.export.export(wrapped, (inputs[0],), dynamic_shapes=({batch_axis(layer): batch},))
    exported = time.monotonic()
    torch._inductor.aoti_compile_and_package(program, package_path=out)
    print(f"{layer.name}: exported in {exported - start:.1f} s, compiled in {time.monotonic() - exported:.1f} s")


class LastHiddenState(nn.Module):
    """BertModel(input_ids).last_hidden_state: what LayerBench's BERT inference cell returns."""

    def __init__(self, bert: nn.Module):
        super().__init__()
        self.bert = bert

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        return self.bert(input_ids).last_hidden_state


def export_model(model: str, device: torch.device, out: str) -> None:
    # Batch 2, as for the layers: torch.export specialises sizes 0 and 1.
    twin = py_models.build(model, 2, "inference_mode", "fp32", device)
    module = twin.module.eval()
    wrapped = module if model in py_models.RESNET_BLOCKS else LastHiddenState(module)
    example = py_models.example_input(model, 2, device)
    batch = torch.export.Dim("batch", min=1, max=MAX_BATCH)
    start = time.monotonic()
    with torch.inference_mode():
        program = torch.export.export(wrapped, (example,), dynamic_shapes=({0: batch},))
    exported = time.monotonic()
    torch._inductor.aoti_compile_and_package(program, package_path=out)
    print(f"{model}: exported in {exported - start:.1f} s, compiled in {time.monotonic() - exported:.1f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layer", required=True)
    parser.add_argument("--device", required=True, choices=("cpu", "cuda"))
    parser.add_argument("--out", required=True, help="the .pt2 package to write")
    parser.add_argument("--torch-version", help="LibTorch's version; the package must come from the same torch")
    args = parser.parse_args()
    version = torch.__version__.split("+")[0]
    if args.torch_version and version != args.torch_version.split("+")[0]:
        print(f"python's torch is {torch.__version__}, LibTorch is {args.torch_version}", file=sys.stderr)
        return 1
    if args.layer not in layers.BY_NAME and args.layer not in py_models.MODELS:
        print(f"{args.layer}: not a layer of bench/gpu/layers.py nor a model of bench/models/py_models.py",
              file=sys.stderr)
        return 1
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        print("python's torch sees no CUDA device", file=sys.stderr)
        return 1
    layers.use_ieee_float32()
    try:
        if args.layer in py_models.MODELS:
            export_model(args.layer, device, args.out)
        else:
            export(layers.BY_NAME[args.layer], device, args.out)
    except Exception as error:  # the reason goes into a skipped cell, one line
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        print(f"{args.layer}: export failed: {type(error).__name__}: {first}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
