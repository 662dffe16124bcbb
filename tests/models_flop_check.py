#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The whole models' matrix FLOPs, summed from their inventories (engine/catalog/models/inventory.cpp), equal
what torch.utils.flop_counter.FlopCounterMode counts for torchvision's resnet50 and transformers' BertModel
(one sample, eval, on the meta device: nothing is computed or downloaded).

  models_flop_check.py LAYERBENCH_BINARY          exits 77 (skipped) without torchvision or transformers
"""
import json
import os
import subprocess
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def counted(model, example) -> int:
    import torch
    from torch.utils.flop_counter import FlopCounterMode
    model.eval()
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        model(example)
    return counter.get_total_flops()


def python_flops() -> dict:
    import torch
    import torchvision
    from transformers import BertConfig, BertModel
    bert = dict(vocab_size=28996)
    large = dict(bert, num_hidden_layers=24, hidden_size=1024, num_attention_heads=16, intermediate_size=4096)
    tiny = dict(bert, num_hidden_layers=2, hidden_size=128, num_attention_heads=2, intermediate_size=512)
    tokens = torch.randint(1, 28996, (1, 128), device="meta")
    with torch.device("meta"):
        images = torch.randn(1, 3, 224, 224)
        return {
            "ResNet50": counted(torchvision.models.resnet50(), images),
            "ResNetTiny": counted(torchvision.models.resnet.ResNet(torchvision.models.resnet.Bottleneck, [1, 1, 1, 1]),
                                  images),
            "BertBase": counted(BertModel(BertConfig(**bert)), tokens),
            "BertLarge": counted(BertModel(BertConfig(**large)), tokens),
            "BertTiny": counted(BertModel(BertConfig(**tiny)), tokens),
        }


def main() -> int:
    try:
        expected = python_flops()
    except ImportError as missing:
        print(f"skipped: {missing}")
        return 77
    listed = subprocess.run([sys.argv[1], "layers", "--models", "--format", "json"], check=True,
                            capture_output=True, text=True).stdout
    ours = {layer["name"]: layer for layer in json.loads(listed) if layer.get("kind") == "model"}
    failures = []
    for name, flops in expected.items():
        got = ours[name]["matmul_flops_per_sample"]
        print(f"{name}: LayerBench {got:.0f}, FlopCounterMode {flops}")
        if got != flops:
            failures.append(name)
    if failures:
        print("differ: " + ", ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
