# SPDX-License-Identifier: MIT
"""The Python twins of LayerBench's whole-model cells (issue 25): what one timed step of a cell is.

One builder per model and mode, shared by compiled_train.py (torch.compile) and parity.py
(torch.utils.benchmark). A twin is a module, its inputs, and `step`, the cell's timed body:

- inference_mode: model.eval(); under torch.inference_mode() (and autocast for bf16/fp16) one forward.
- train: model.train(); optimizer.zero_grad(set_to_none=True); forward and loss (under autocast for
  bf16/fp16); backward; optimizer.step(). fp16 scales the loss with torch.amp.GradScaler.
- fp32 is IEEE float32 on CUDA too; tf32 (CUDA) lets matmuls and convolutions use TF32.

ResNet50 is torchvision's resnet50() on randn [B, 3, 224, 224]; its loss is cross_entropy against labels
randint(0, 1000, [B]); SGD(lr=1e-3, momentum=0.9, weight_decay=1e-4). BertBase and BertLarge are
transformers' BertModel (inference) and BertForPreTraining (train) built from a BertConfig of bert-base-cased's
or bert-large-cased's shape, on input_ids randint(1, 28996, [B, 128]) without an attention mask; the loss is
the pretraining loss transformers computes from `labels` (MLM_FRACTION of the positions hold a random token
id, all others -100) and `next_sentence_label` randint(0, 2, [B]); AdamW(lr=1e-4, weight_decay=0.01).
Random weights; nothing is downloaded.
"""

import contextlib
import dataclasses
import os
from typing import Callable, Optional

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before transformers is imported: no model hub, ever

import torch

SEQUENCE_LENGTH = 128
IMAGE_SIZE = 224
CLASSES = 1000
VOCABULARY = 28996  # bert-base-cased and bert-large-cased
MLM_FRACTION = 0.15
SEED = 0  # weights, inputs and the masked positions

MODES = ("inference_mode", "train")
PRECISIONS = ("fp32", "tf32", "bf16", "fp16")
CUDA_ONLY = {"tf32": "TF32 matmuls and convolutions", "fp16": "autocast float16 with a GradScaler"}
AUTOCAST_DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16}

# BertConfig's other defaults are bert-base-cased's: 512 positions, 2 token types, GELU (erf), eps 1e-12.
BERT_SHAPES = {
    "BertBase": dict(num_hidden_layers=12, hidden_size=768, num_attention_heads=12, intermediate_size=3072),
    "BertLarge": dict(num_hidden_layers=24, hidden_size=1024, num_attention_heads=16, intermediate_size=4096),
    "BertTiny": dict(num_hidden_layers=2, hidden_size=128, num_attention_heads=2, intermediate_size=512),
}
# torchvision's ResNet(Bottleneck, blocks per stage).
RESNET_BLOCKS = {"ResNet50": [3, 4, 6, 3], "ResNetTiny": [1, 1, 1, 1]}
MODELS = tuple(RESNET_BLOCKS) + tuple(BERT_SHAPES)
# What a cell's throughput counts.
SAMPLE_UNITS = {**{name: "images" for name in RESNET_BLOCKS}, **{name: "sequences" for name in BERT_SHAPES}}


@dataclasses.dataclass
class Twin:
    """One cell's model and its timed body. `module` is what torch.compile compiles."""
    model: str
    batch_size: int
    mode: str
    precision: str
    module: torch.nn.Module
    step: Callable[[], None]


def check_corner(model: str, mode: str, precision: str, device: torch.device) -> None:
    """ValueError naming what is wrong; the scripts turn it into a usage error."""
    if model not in MODELS:
        raise ValueError(f"unknown model '{model}' (models: {', '.join(MODELS)})")
    if mode not in MODES:
        raise ValueError(f"unknown mode '{mode}' (modes: {', '.join(MODES)})")
    if precision not in PRECISIONS:
        raise ValueError(f"unknown precision '{precision}' (precisions: {', '.join(PRECISIONS)})")
    if precision in CUDA_ONLY and device.type != "cuda":
        raise ValueError(f"precision {precision} ({CUDA_ONLY[precision]}) runs on CUDA only")


def set_float32(precision: str) -> None:
    """float32 is IEEE fp32 on cuBLAS and cuDNN except at tf32, as LayerBench sets it (bench/detail/corner.cpp):
    PyTorch lets cuDNN's convolutions use TF32 unless told otherwise. No effect on the CPU."""
    torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
    torch.backends.cudnn.allow_tf32 = precision == "tf32"


def autocast(precision: str, device: torch.device):
    if precision not in AUTOCAST_DTYPES:
        return contextlib.nullcontext()
    return torch.autocast(device_type=device.type, dtype=AUTOCAST_DTYPES[precision])


def generator(device: torch.device) -> torch.Generator:
    return torch.Generator(device=device).manual_seed(SEED)


def build_resnet(model: str):
    from torchvision.models.resnet import Bottleneck, ResNet
    return ResNet(Bottleneck, RESNET_BLOCKS[model], num_classes=CLASSES)


def bert_config(model: str):
    from transformers import BertConfig
    return BertConfig(vocab_size=VOCABULARY, **BERT_SHAPES[model])


def build_bert(model: str, mode: str):
    from transformers import BertForPreTraining, BertModel
    config = bert_config(model)
    return BertForPreTraining(config) if mode == "train" else BertModel(config)


def mlm_labels(batch_size: int, device: torch.device, rng: torch.Generator) -> torch.Tensor:
    """MLM_FRACTION of the positions (rounded, chosen by a seeded permutation) hold a random token id; -100 elsewhere."""
    positions = batch_size * SEQUENCE_LENGTH
    chosen = torch.randperm(positions, generator=rng, device=device)[:round(MLM_FRACTION * positions)]
    labels = torch.full((positions,), -100, dtype=torch.long, device=device)
    labels[chosen] = torch.randint(1, VOCABULARY, (chosen.numel(),), generator=rng, device=device)
    return labels.view(batch_size, SEQUENCE_LENGTH)


def inference_step(runner: Callable, inputs: tuple, precision: str, device: torch.device) -> Callable[[], None]:
    def step():
        with torch.inference_mode(), autocast(precision, device):
            runner(*inputs)
    return step


def train_step(loss_of: Callable[[], torch.Tensor], optimizer: torch.optim.Optimizer, precision: str,
               device: torch.device) -> Callable[[], None]:
    scaler = torch.amp.GradScaler(device.type) if precision == "fp16" else None

    def step():
        optimizer.zero_grad(set_to_none=True)
        with autocast(precision, device):
            loss = loss_of()
        if scaler is None:
            loss.backward()
            optimizer.step()
            return
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    return step


def resnet_twin(model: str, batch_size: int, mode: str, precision: str, device: torch.device,
                wrap: Callable) -> Twin:
    rng = generator(device)
    module = build_resnet(model).to(device)
    images = torch.randn(batch_size, 3, IMAGE_SIZE, IMAGE_SIZE, generator=rng, device=device)
    runner = wrap(module)
    if mode == "inference_mode":
        module.eval()
        return Twin(model, batch_size, mode, precision, module, inference_step(runner, (images,), precision, device))
    module.train()
    labels = torch.randint(0, CLASSES, (batch_size,), generator=rng, device=device)
    optimizer = torch.optim.SGD(module.parameters(), lr=1e-3, momentum=0.9, weight_decay=1e-4)
    loss_of = lambda: torch.nn.functional.cross_entropy(runner(images), labels)  # noqa: E731
    return Twin(model, batch_size, mode, precision, module, train_step(loss_of, optimizer, precision, device))


def bert_twin(model: str, batch_size: int, mode: str, precision: str, device: torch.device, wrap: Callable) -> Twin:
    rng = generator(device)
    module = build_bert(model, mode).to(device)
    input_ids = torch.randint(1, VOCABULARY, (batch_size, SEQUENCE_LENGTH), generator=rng, device=device)
    runner = wrap(module)
    if mode == "inference_mode":
        module.eval()
        return Twin(model, batch_size, mode, precision, module, inference_step(runner, (input_ids,), precision, device))
    module.train()
    labels = mlm_labels(batch_size, device, rng)
    next_sentence = torch.randint(0, 2, (batch_size,), generator=rng, device=device)
    optimizer = torch.optim.AdamW(module.parameters(), lr=1e-4, weight_decay=0.01)
    loss_of = lambda: runner(input_ids, labels=labels, next_sentence_label=next_sentence).loss  # noqa: E731
    return Twin(model, batch_size, mode, precision, module, train_step(loss_of, optimizer, precision, device))


def build(model: str, batch_size: int, mode: str, precision: str, device: torch.device,
          wrap: Optional[Callable] = None) -> Twin:
    """The cell's twin, with weights and inputs from SEED. `wrap(module)` returns what the step calls in place of
    the module (torch.compile for compiled cells); the optimizer steps the module's own parameters."""
    check_corner(model, mode, precision, device)
    if batch_size < 1:
        raise ValueError(f"batch size {batch_size} is not a positive integer")
    torch.manual_seed(SEED)
    set_float32(precision)
    wrap = wrap or (lambda module: module)
    if model in RESNET_BLOCKS:
        return resnet_twin(model, batch_size, mode, precision, device, wrap)
    return bert_twin(model, batch_size, mode, precision, device, wrap)


def example_input(model: str, batch_size: int, device: torch.device) -> torch.Tensor:
    """A model's input at a batch size, as its twin builds it: images for ResNet, token ids for BERT."""
    rng = generator(device)
    if model in RESNET_BLOCKS:
        return torch.randn(batch_size, 3, IMAGE_SIZE, IMAGE_SIZE, generator=rng, device=device)
    return torch.randint(1, VOCABULARY, (batch_size, SEQUENCE_LENGTH), generator=rng, device=device)


def runtime_versions() -> dict:
    import platform
    return {"python": platform.python_version(), "torch": torch.__version__}
