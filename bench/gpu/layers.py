# SPDX-License-Identifier: MIT
"""The 14 benchmark layers as Python nn modules, configured exactly like the C++ catalog
(engine/bench/catalog.cpp), for the independent checks: the Python timer, the FLOP counter and the
tests. One entry per layer, in the catalog's order."""

import dataclasses
import warnings
from typing import Callable, Dict, List, Tuple

import torch
from torch import nn
from torch.nn import functional as F

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


def _attention_input(seq: int, d: int) -> Callable[[int, torch.device], Tuple[torch.Tensor, ...]]:
    def make(batch_size: int, device: torch.device) -> Tuple[torch.Tensor, ...]:
        x = torch.randn(seq, batch_size, d, device=device, dtype=torch.float32)
        return (x, x, x)

    return make


def _token_input(vocab: int, seq: int) -> Callable[[int, torch.device], Tuple[torch.Tensor, ...]]:
    def make(batch_size: int, device: torch.device) -> Tuple[torch.Tensor, ...]:
        return (torch.randint(0, vocab, (batch_size, seq), device=device, dtype=torch.int64),)

    return make


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


# Each layer's parameters with their defaults, named as `layerbench layers --parameters` names them
# (engine/catalog/user_shapes.cpp); tests/catalog_copies_check.py holds the two to each other.
PARAMETERS: Dict[str, Dict[str, float]] = {
    "Conv2d": {"in": 64, "out": 128, "k": 3, "h": 32, "w": 32},
    "Conv1d": {"in": 256, "out": 512, "k": 5, "len": 100},
    "ConvTranspose2d": {"in": 128, "out": 64, "k": 4, "stride": 2, "h": 16, "w": 16},
    "Linear": {"in": 4096, "out": 4096, "seq": 0},
    "LSTM": {"in": 512, "hidden": 256, "layers": 2, "directions": 2, "len": 100},
    "GRU": {"in": 512, "hidden": 256, "layers": 2, "directions": 1, "len": 100},
    "TransformerEncoder": {"d": 512, "heads": 8, "ff": 2048, "seq": 512},
    "MultiheadAttention": {"d": 512, "heads": 8, "seq": 512},
    "BatchNorm2d": {"c": 256, "h": 32, "w": 32},
    "LayerNorm": {"d": 512, "seq": 512},
    "Embedding": {"vocab": 50000, "d": 768, "seq": 128},
    "MaxPool2d": {"c": 128, "h": 32, "w": 32, "k": 2},
    "AvgPool2d": {"c": 128, "h": 32, "w": 32, "k": 2},
    "Dropout": {"d": 512, "p": 0.5},
}


# The layers of today's models beyond the reference page (engine/catalog/catalog.cpp, todays_layers()).
TODAY_PARAMETERS: Dict[str, Dict[str, float]] = {
    "RMSNorm": {"d": 512, "seq": 512},
    "GELU": {"d": 512, "seq": 512},
    "SiLU": {"d": 512, "seq": 512},
    "ScaledDotProductAttention": {"heads": 8, "kv_heads": 8, "head_dim": 64, "seq": 512},
    "GroupedQueryAttention": {"heads": 8, "kv_heads": 2, "head_dim": 64, "seq": 512},
    "DepthwiseConv2d": {"c": 256, "k": 3, "h": 32, "w": 32},
    "Conv3d": {"in": 64, "out": 64, "k": 3, "depth": 8, "h": 32, "w": 32, "groups": 1},
    "SwiGLU": {"d": 1024, "hidden": 2816, "seq": 128},
}


class _Sdpa(nn.Module):
    """F.scaled_dot_product_attention(q, k, v) as a module; grouped-query (enable_gqa) where k has fewer heads."""

    def __init__(self, grouped: bool):
        super().__init__()
        self.grouped = grouped

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        if self.grouped:
            return F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
        return F.scaled_dot_product_attention(q, k, v)


class _SwiGlu(nn.Module):
    """LLaMA's feed-forward block: w2(silu(w1 x) * w3 x), bias-free projections."""

    def __init__(self, d: int, hidden: int):
        super().__init__()
        self.w1 = nn.Linear(d, hidden, bias=False)
        self.w3 = nn.Linear(d, hidden, bias=False)
        self.w2 = nn.Linear(hidden, d, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


def _sdpa_input(v: Dict[str, int]) -> Callable[[int, torch.device], Tuple[torch.Tensor, ...]]:
    def make(batch_size: int, device: torch.device) -> Tuple[torch.Tensor, ...]:
        q = torch.randn(batch_size, v["heads"], v["seq"], v["head_dim"], device=device, dtype=torch.float32)
        k = torch.randn(batch_size, v["kv_heads"], v["seq"], v["head_dim"], device=device, dtype=torch.float32)
        value = torch.randn(batch_size, v["kv_heads"], v["seq"], v["head_dim"], device=device, dtype=torch.float32)
        return (q, k, value)

    return make


def _recurrent(module: type, name: str, v: Dict[str, int]) -> Layer:
    return Layer(name, lambda: module(v["in"], v["hidden"], num_layers=v["layers"], bidirectional=v["directions"] == 2),
                 _randn(v["len"], -1, v["in"]), first_output=True)


def shaped(layer: str, parameters: Dict[str, float], name: str = "") -> Layer:
    """The Python twin of catalog layer `layer` at `parameters` (the defaults where one is not given), as a
    dataset records them in layers[].shape; named `name` (the layer's own name by default)."""
    tables = {**PARAMETERS, **TODAY_PARAMETERS}
    if layer not in tables:
        raise SystemExit(f"unknown layer {layer}; known: {', '.join(tables)}")
    unknown = sorted(set(parameters) - set(tables[layer]))
    if unknown:
        raise SystemExit(f"{layer} has no parameter(s) {', '.join(unknown)}")
    v = {**tables[layer], **parameters}
    v = {key: (value if key == "p" else int(value)) for key, value in v.items()}
    name = name or layer
    builders = {
        "Conv2d": lambda: Layer(name, lambda: nn.Conv2d(v["in"], v["out"], v["k"]), _randn(v["in"], v["h"], v["w"])),
        "Conv1d": lambda: Layer(name, lambda: nn.Conv1d(v["in"], v["out"], v["k"]), _randn(v["in"], v["len"])),
        "ConvTranspose2d": lambda: Layer(name, lambda: nn.ConvTranspose2d(v["in"], v["out"], v["k"], stride=v["stride"]),
                                         _randn(v["in"], v["h"], v["w"])),
        "Linear": lambda: Layer(name, lambda: nn.Linear(v["in"], v["out"]),
                                _randn(v["in"]) if v["seq"] == 0 else _randn(v["seq"], v["in"])),
        "LSTM": lambda: _recurrent(nn.LSTM, name, v),
        "GRU": lambda: _recurrent(nn.GRU, name, v),
        "TransformerEncoder": lambda: Layer(
            name, lambda: _default_encoder(nn.TransformerEncoderLayer(v["d"], v["heads"], dim_feedforward=v["ff"])),
            _randn(v["seq"], -1, v["d"])),
        "MultiheadAttention": lambda: Layer(name, lambda: nn.MultiheadAttention(v["d"], v["heads"]),
                                            _attention_input(v["seq"], v["d"]), first_output=True),
        "BatchNorm2d": lambda: Layer(name, lambda: nn.BatchNorm2d(v["c"]), _randn(v["c"], v["h"], v["w"])),
        "LayerNorm": lambda: Layer(name, lambda: nn.LayerNorm(v["d"]), _randn(v["seq"], v["d"])),
        "Embedding": lambda: Layer(name, lambda: nn.Embedding(v["vocab"], v["d"]), _token_input(v["vocab"], v["seq"])),
        "MaxPool2d": lambda: Layer(name, lambda: nn.MaxPool2d(v["k"], stride=v["k"]), _randn(v["c"], v["h"], v["w"])),
        "AvgPool2d": lambda: Layer(name, lambda: nn.AvgPool2d(v["k"], stride=v["k"]), _randn(v["c"], v["h"], v["w"])),
        "Dropout": lambda: Layer(name, lambda: nn.Dropout(v["p"]), _randn(v["d"]), train_mode=True),
        "RMSNorm": lambda: Layer(name, lambda: nn.RMSNorm(v["d"]), _randn(v["seq"], v["d"])),
        "GELU": lambda: Layer(name, lambda: nn.GELU(), _randn(v["seq"], v["d"])),
        "SiLU": lambda: Layer(name, lambda: nn.SiLU(), _randn(v["seq"], v["d"])),
        "ScaledDotProductAttention": lambda: Layer(name, lambda: _Sdpa(v["kv_heads"] != v["heads"]), _sdpa_input(v)),
        "GroupedQueryAttention": lambda: Layer(name, lambda: _Sdpa(v["kv_heads"] != v["heads"]), _sdpa_input(v)),
        "DepthwiseConv2d": lambda: Layer(name, lambda: nn.Conv2d(v["c"], v["c"], v["k"], groups=v["c"]),
                                         _randn(v["c"], v["h"], v["w"])),
        "Conv3d": lambda: Layer(name, lambda: nn.Conv3d(v["in"], v["out"], v["k"], groups=v["groups"]),
                                _randn(v["in"], v["depth"], v["h"], v["w"])),
        "SwiGLU": lambda: Layer(name, lambda: _SwiGlu(v["d"], v["hidden"]), _randn(v["seq"], v["d"])),
    }
    return builders[layer]()


LAYERS: List[Layer] = [shaped(layer, {}) for layer in PARAMETERS]
TODAY: List[Layer] = [shaped(layer, {}) for layer in TODAY_PARAMETERS]

# Not in the catalog: a twin that runs LibTorch's C++ TransformerEncoderLayer's computation (need_weights,
# bmm + softmax instead of scaled_dot_product_attention), to explain a timing ratio against older datasets.
VARIANTS: List[Layer] = [
    Layer("TransformerEncoder[need_weights]",
          lambda: _default_encoder(_WeightsEncoderLayer(512, 8, dim_feedforward=2048)),
          _randn(512, -1, 512)),
]

BY_NAME: Dict[str, Layer] = {layer.name: layer for layer in LAYERS + VARIANTS + TODAY}


def select(names: str) -> List[Layer]:
    """Layers named in a comma-separated list ("all" or empty: the fourteen of the reference; "today": the
    layers of today's models beyond them), in the catalog's order; variants are taken only when named."""
    if not names or names == "all":
        return list(LAYERS)
    if names == "today":
        return list(TODAY)
    wanted = [name.strip() for name in names.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in BY_NAME]
    if unknown:
        raise SystemExit(f"unknown layer(s) {', '.join(unknown)}; known: {', '.join(BY_NAME)}")
    return [layer for layer in LAYERS + TODAY + VARIANTS if layer.name in wanted]


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
