# SPDX-License-Identifier: MIT
"""The 14 benchmark layers as Python nn modules, configured exactly like the C++ catalog
(engine/bench/catalog.cpp), for the independent checks: the Python timer, the FLOP counter and the
tests. One entry per layer, in the catalog's order."""

import dataclasses
import warnings
from typing import Callable, Dict, List, Tuple

import torch
from torch import nn

# `layerbench run`'s default batch sizes (engine/dataset/batch_sizes.hpp; a test holds this copy to it).
BATCH_SIZES = (1, 8, 32, 128)
BATCH_SIZES_TEXT = ",".join(str(size) for size in BATCH_SIZES)


def use_ieee_float32() -> None:
    """float32 means IEEE fp32 for cuBLAS and cuDNN, as LayerBench sets it before its first cell
    (engine/bench/device.cpp, use_ieee_float32): PyTorch 2.11 lets cuDNN's convolutions and RNNs use TF32
    unless told otherwise, so a Python twin left at the defaults would time another computation."""
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False  # convolutions and RNNs


@dataclasses.dataclass(frozen=True)
class Layer:
    name: str
    build: Callable[[], nn.Module]
    make_input: Callable[[int, torch.device], Tuple[torch.Tensor, ...]]
    train_mode: bool = False  # Dropout only, as the reference page measured it
    first_output: bool = False  # the module returns a tuple; keep its first element, like the C++ side

    def instantiate(self, batch_size: int, device: torch.device) -> Tuple[nn.Module, Callable[[], torch.Tensor]]:
        """The module on the device in its measured mode, and a callable doing one forward pass."""
        module = self.build().to(device)
        module.train(self.train_mode)
        held = [self.make_input(batch_size, device)]
        if self.first_output:
            forward = lambda: module(*held[0])[0]
        else:
            forward = lambda: module(*held[0])
        if device.type == "cpu":
            place_inputs_apart(forward, held)
        return module, forward


# LayerBench's input placement (engine/bench/detail/placement.hpp), so that both sides of the parity measure
# the same regime: an output within 4 KiB of its input's address plus a multiple of 256 MiB (the two sharing
# their low 28 address bits) made BatchNorm2d at batch 128 1.5 to 1.8 times slower on an AMD Zen 4, and the
# allocator's history decides whether it happens (docs/validity.md 3b).
ALIAS_PERIOD = 1 << 28
ALIAS_WINDOW = 4096
MAX_INPUT_MOVES = 4


def shares_low_address_bits(input_address: int, output_address: int) -> bool:
    ahead = (output_address - input_address) % ALIAS_PERIOD
    return ahead < ALIAS_WINDOW or ALIAS_PERIOD - ahead < ALIAS_WINDOW


def place_inputs_apart(forward: Callable[[], torch.Tensor], held: list) -> int:
    """Copies the first input elsewhere while one forward's output shares its low address bits, up to
    MAX_INPUT_MOVES times, as LayerBench's CellBody does; an input passed several times stays one tensor.
    Returns how many times it moved."""
    for moves in range(MAX_INPUT_MOVES):
        first = held[0][0]
        output = forward()
        if not isinstance(output, torch.Tensor) or not shares_low_address_bits(first.data_ptr(), output.data_ptr()):
            return moves
        moved = first.clone()
        held[0] = tuple(moved if t is first else t for t in held[0])
        del output
    return MAX_INPUT_MOVES


def _randn(*shape: int) -> Callable[[int, torch.device], Tuple[torch.Tensor, ...]]:
    """An input of `shape` with the batch first; -1 in `shape` marks where the batch goes instead."""

    def make(batch_size: int, device: torch.device) -> Tuple[torch.Tensor, ...]:
        full = [batch_size if s == -1 else s for s in shape] if -1 in shape else [batch_size, *shape]
        return (torch.randn(*full, device=device, dtype=torch.float32),)

    return make


def _attention_input(batch_size: int, device: torch.device) -> Tuple[torch.Tensor, ...]:
    x = torch.randn(512, batch_size, 512, device=device, dtype=torch.float32)
    return (x, x, x)


def _token_input(batch_size: int, device: torch.device) -> Tuple[torch.Tensor, ...]:
    return (torch.randint(0, 50000, (batch_size, 128), device=device, dtype=torch.int64),)


class _WeightsEncoderLayer(nn.TransformerEncoderLayer):
    """nn.TransformerEncoderLayer whose attention also returns the head-averaged weights, as LibTorch's C++
    TransformerEncoderLayer does (need_weights=true): explicit softmax, no scaled_dot_product_attention."""

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=True)[0]
        return self.dropout1(x)


def _default_encoder(layer: nn.TransformerEncoderLayer) -> nn.TransformerEncoder:
    """nn.TransformerEncoder(layer, 1) with its defaults, as users build it. enable_nested_tensor=True is
    inert with batch_first=False (torch says so in a warning, silenced here): the same operators run."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="enable_nested_tensor is True")
        return nn.TransformerEncoder(layer, 1)


LAYERS: List[Layer] = [
    Layer("Conv2d", lambda: nn.Conv2d(64, 128, 3), _randn(64, 32, 32)),
    Layer("Conv1d", lambda: nn.Conv1d(256, 512, 5), _randn(256, 100)),
    Layer("ConvTranspose2d", lambda: nn.ConvTranspose2d(128, 64, 4, stride=2), _randn(128, 16, 16)),
    Layer("Linear", lambda: nn.Linear(4096, 4096), _randn(4096)),
    Layer("LSTM", lambda: nn.LSTM(512, 256, num_layers=2, bidirectional=True), _randn(100, -1, 512),
          first_output=True),
    Layer("GRU", lambda: nn.GRU(512, 256, num_layers=2), _randn(100, -1, 512), first_output=True),
    Layer("TransformerEncoder",
          lambda: _default_encoder(nn.TransformerEncoderLayer(512, 8, dim_feedforward=2048)),
          _randn(512, -1, 512)),
    Layer("MultiheadAttention", lambda: nn.MultiheadAttention(512, 8), _attention_input, first_output=True),
    Layer("BatchNorm2d", lambda: nn.BatchNorm2d(256), _randn(256, 32, 32)),
    Layer("LayerNorm", lambda: nn.LayerNorm(512), _randn(512, 512)),
    Layer("Embedding", lambda: nn.Embedding(50000, 768), _token_input),
    Layer("MaxPool2d", lambda: nn.MaxPool2d(2, stride=2), _randn(128, 32, 32)),
    Layer("AvgPool2d", lambda: nn.AvgPool2d(2, stride=2), _randn(128, 32, 32)),
    Layer("Dropout", lambda: nn.Dropout(0.5), _randn(512), train_mode=True),
]

# Not in the catalog: a twin that runs LibTorch's C++ TransformerEncoderLayer's computation (need_weights,
# bmm + softmax instead of scaled_dot_product_attention), to explain a timing ratio against older datasets.
VARIANTS: List[Layer] = [
    Layer("TransformerEncoder[need_weights]",
          lambda: _default_encoder(_WeightsEncoderLayer(512, 8, dim_feedforward=2048)),
          _randn(512, -1, 512)),
]

BY_NAME: Dict[str, Layer] = {layer.name: layer for layer in LAYERS + VARIANTS}


def select(names: str) -> List[Layer]:
    """Layers named in a comma-separated list ("all" or empty: every catalog layer), in the catalog's
    order; variants are taken only when named."""
    if not names or names == "all":
        return list(LAYERS)
    wanted = [name.strip() for name in names.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in BY_NAME]
    if unknown:
        raise SystemExit(f"unknown layer(s) {', '.join(unknown)}; known: {', '.join(BY_NAME)}")
    return [layer for layer in LAYERS + VARIANTS if layer.name in wanted]


def parse_batch_sizes(text: str) -> List[int]:
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise SystemExit(f"--batch-sizes: '{text}' is not a comma-separated list of integers") from None
    if not sizes or any(size < 1 for size in sizes):
        raise SystemExit(f"--batch-sizes: '{text}' must list positive integers")
    return sizes


def resolve_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise SystemExit("--device cuda: torch sees no CUDA device")
    if name not in ("cpu", "cuda"):
        raise SystemExit(f"--device: '{name}' is not one of auto, cpu, cuda")
    return torch.device(name)


def disable_attention_fast_path() -> None:
    """Kept for callers of older versions; the twins no longer use it. The "fast path" of Python's
    MultiheadAttention and TransformerEncoderLayer needs batch_first=True, so the default modules here
    never take it: profiled on the CPU with torch 2.11, both run the same aten:: operators with it enabled
    or disabled (docs/dispatch.md)."""
    torch.backends.mha.set_fastpath_enabled(False)
