#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Transcribes NVIDIA DeepLearningExamples' single-A100 training throughputs of ResNet-50 v1.5 and BERT large
(issue 25, item 5) into two unpublished LayerBench datasets of kind published-reference.

  transcribe_dle_models.py LAYERBENCH OUT_DIR

Writes OUT_DIR/dle-a100-80gb-resnet50-reference.json and OUT_DIR/dle-a100-80gb-bert-large-reference.json
(version 0); `layerbench publish FILE --id ID` makes each a version of data/. The figures below are typed in
from the READMEs' tables, each beside the row it comes from; nothing else on the pages is a figure of ours.

A published reference holds a median per cell and nothing derived (engine/dataset/validate.cpp), while the
pages give throughput; so median_ms = batch size / throughput x 1000, the time of one training step of one
batch, and each dataset's notes say so. The site's throughput of such a cell, batch / median, is the page's.
The reference corner (fp32 inference) at each batch size, which a reference without a methodology declares, is
recorded skipped: the pages publish no such figure.
"""

import json
import shlex
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from transcribe_seed import tool_version  # noqa: E402

AXES = {"precision": "fp32", "memory_format": "contiguous", "cudnn_benchmark": "off", "mode": "train",
        "compiled": "eager"}
DLE = "https://github.com/NVIDIA/DeepLearningExamples/blob"
RESNET_README = f"{DLE}/291f0d02e815b148fa5c2b81bf07aa3552142895/PyTorch/Classification/ConvNets/resnet50v1.5/README.md"
BERT_README = f"{DLE}/master/PyTorch/LanguageModeling/BERT/README.md"
DERIVED = ("median_ms is derived, not printed: batch size / the page's throughput x 1000, the time of one "
           "training step of one batch on one GPU; the page gives throughput only, no median or spread.")
CONFIGS_YML = "configs.yml (PyTorch/Classification/ConvNets/configs.yml, commit 097c7ff917b7c56246590b1246a8f5bd8957c534)"

RESNET50 = {
    "id": "dle-a100-80gb-resnet50-reference",
    "title": "ResNet-50 v1.5 training on one NVIDIA A100 80GB, as published by NVIDIA DeepLearningExamples "
             "(reference, not measured by LayerBench)",
    "layer": {"name": "ResNet50", "module": "torchvision.models.resnet50",
              "config": "ResNet-50 v1.5, 224x224 ImageNet images, one training step (NVIDIA's recipe)",
              "input_shape": "B x 3 x 224 x 224", "mode": "train",
              "train_step": "NVIDIA's: forward, cross-entropy with label smoothing 0.1, backward, SGD with momentum "
                            "0.875 (no weight decay on batch norm parameters); AMP with a static loss scale"},
    # README, "Training performance: NVIDIA DGX A100 (8x A100 80GB)", row "1 GPU":
    # | 1 | 938 img/s | 2470 img/s | 2.63 x | ...
    # Batch size and memory format: configs.yml, models.resnet50.DGXA100 (TF32: batch_size 256; AMP: batch_size
    # 256, memory_format nhwc).
    "cells": [(256, {"precision": "tf32"}, 938), (256, {"precision": "fp16", "memory_format": "channels_last"}, 2470)],
    "source": {
        "title": "NVIDIA DeepLearningExamples: ResNet50 v1.5 For PyTorch (README), \"Training performance: "
                 "NVIDIA DGX A100 (8x A100 80GB)\"",
        "url": RESNET_README,
        "date": "undated; its results name the pytorch-21.03 NGC container",
        "license": "not stated on the page",
        "attribution": "NVIDIA DeepLearningExamples, PyTorch/Classification/ConvNets/resnet50v1.5/README.md",
        "device": "NVIDIA A100 80GB (one GPU of a DGX A100)",
        "torch_version": "",
        "software": "pytorch-21.03 NGC container",
        "notes": [
            "The 1-GPU row of the table: 938 img/s (TF32) and 2470 img/s (mixed precision).",
            f"The table gives no batch size; 256 per GPU is the repository's {CONFIGS_YML} for resnet50 on "
            "DGXA100 (TF32 and AMP), and the README's main.py default (-b, per GPU).",
            "Mixed precision is recorded as precision fp16 and memory format channels_last: configs.yml runs AMP "
            "with memory_format nhwc and a static loss scale; TF32 runs NCHW (contiguous).",
            "NVIDIA's recipe, not LayerBench's step: ImageNet data loading as launch.py configures it, label smoothing "
            "0.1, SGD with momentum 0.875, no weight decay on batch norm parameters, AMP with a static loss scale "
            "(configs.yml: 128); the page says TF32 is enabled by default on Ampere.",
            DERIVED,
        ],
    },
}

BERT_LARGE = {
    "id": "dle-a100-80gb-bert-large-reference",
    "title": "BERT large pretraining at sequence length 128 on one NVIDIA A100 80GB, as published by NVIDIA "
             "DeepLearningExamples (reference, not measured by LayerBench)",
    "layer": {"name": "BertLarge", "module": "BertForPreTraining",
              "config": "BERT large (24 layers, 1024 wide, 16 heads), sequence length 128, one pretraining "
                        "micro-batch (NVIDIA's phase 1 recipe)",
              "input_shape": "B x 128", "mode": "train",
              "train_step": "NVIDIA's phase 1: forward, masked-LM and next-sentence loss, backward, accumulated "
                            "over 64 (TF32) or 32 (FP16) micro-batches per LAMB step"},
    # README, "Pre-training NVIDIA DGX A100 (8x A100 80GB)", first row:
    # | 1 | 128 and 256 | 8192 and 8192 | 64 and 32 | 128 | 317 | 580 | 1.83 | 1.00 | 1.00 |
    "cells": [(128, {"precision": "tf32"}, 317), (256, {"precision": "fp16"}, 580)],
    "source": {
        "title": "NVIDIA DeepLearningExamples: BERT For PyTorch (README), \"Pre-training NVIDIA DGX A100 "
                 "(8x A100 80GB)\"",
        "url": BERT_README,
        "date": "undated; its results name the pytorch:21.11-py3 NGC container",
        "license": "Apache License 2.0 (the LICENSE file of PyTorch/LanguageModeling/BERT)",
        "attribution": "NVIDIA DeepLearningExamples, PyTorch/LanguageModeling/BERT/README.md",
        "device": "NVIDIA A100 80GB (one GPU of a DGX A100)",
        "torch_version": "",
        "software": "pytorch:21.11-py3 NGC container; LAMB optimizer; AMP",
        "notes": [
            "The 1-GPU, sequence length 128 row: 317 sequences/s (TF32) and 580 sequences/s (mixed precision), "
            "with batch size per GPU 128 (TF32) and 256 (FP16), accumulated to 8192 in 64 and 32 steps.",
            "Each cell's batch size is the page's batch per GPU, one micro-batch: the optimizer (LAMB) steps once "
            "per 64 (TF32) or 32 (FP16) micro-batches, where LayerBench's step runs AdamW every batch.",
            "Mixed precision is recorded as precision fp16.",
            "The page says its numbers were averaged over a few training iterations. Its commands use the "
            "bert-large-uncased configuration; LayerBench's BertLarge is bert-large-cased (vocabulary 28,996): "
            "the same 24 x 1024 x 16 encoder, another vocabulary size.",
            "The url names the README's current version (master); the copy we read could not be tied to a commit.",
            DERIVED,
        ],
    },
}


def cell(model: str, batch_size: int, axes: dict, throughput: float) -> dict:
    return {"layer": model, "batch_size": batch_size, "axes": dict(AXES, **axes), "status": "ok",
            "stats": {"median_ms": round(batch_size / throughput * 1000.0, 6)}}


def unpublished_corner(model: str, batch_size: int) -> dict:
    """A reference's declared matrix (no methodology) is its layers x batch sizes at the reference corner
    (dataset::declared_matrix), which these pages do not measure: that cell is recorded skipped, with why."""
    return {"layer": model, "batch_size": batch_size, "status": "skipped",
            "skip_reason": "not published: the page gives training throughput only, no fp32 inference figure"}


def results(reference: dict) -> list:
    model = reference["layer"]["name"]
    batch_sizes = sorted({batch for batch, _, _ in reference["cells"]})
    return ([unpublished_corner(model, batch) for batch in batch_sizes]
            + [cell(model, batch, axes, throughput) for batch, axes, throughput in reference["cells"]])


def dataset(reference: dict, layerbench: str) -> dict:
    version, commit = tool_version(layerbench)
    # A whole model (schema 1.5.0); the pages list none of its layers, so `contains` is empty.
    layer = dict(reference["layer"], kind="model", contains=[])
    return {
        "schema_version": "1.5.0",
        "kind": "published-reference",
        "id": reference["id"],
        "version": 0,
        "replaces": None,
        "title": reference["title"],
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "license": {"id": "CC-BY-4.0", "url": "https://creativecommons.org/licenses/by/4.0/",
                    "attribution": f"Figures from {reference['source']['attribution']}, transcribed by LayerBench. "
                                   f"When reusing them, cite that page; LayerBench did not measure them."},
        "creators": [{"name": "LayerBench contributors"}],
        "provenance": {"tool": "layerbench", "tool_version": version, "git_commit": commit,
                       "command_line": shlex.join(["python3"] + sys.argv), "source": reference["source"]},
        "units": {"time": "ms", "memory": "bytes", "flops": "FLOP", "throughput": "samples/s", "flop_rate": "FLOP/s"},
        "environment": None,
        "methodology": None,
        "layers": [layer],
        "results": results(reference),
    }


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    layerbench, out_dir = sys.argv[1], Path(sys.argv[2])
    for reference in (RESNET50, BERT_LARGE):
        path = out_dir / f"{reference['id']}.json"
        path.write_text(json.dumps(dataset(reference, layerbench), indent=2) + "\n")
        print(f"{path}: {len(reference['cells'])} published figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
