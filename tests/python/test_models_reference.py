#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The whole models of engine/bench/models/ against their Python references (issue 25, docs/models.md):
torchvision's resnet50 and transformers' BertModel and BertForPreTraining, built with random weights;
nothing is downloaded (HF_HUB_OFFLINE=1, models built from a BertConfig, never from_pretrained).

For each model the Python reference saves its parameters and buffers, an input and its outputs with
torch.save; tests/bench_models_driver.cpp loads them into the C++ model by name, runs it and profiles one
forward. Checked: parameter counts equal exactly, eval-mode outputs equal within RTOL and ATOL, the aten::
operators of one forward equal by name and count, and one training forward and backward (dropout off, so
that both sides compute the same thing) equal in its loss, every gradient and the buffers it updates.

  test_models_reference.py --driver build/bench_models_driver [TestCase ...]

Exit 77 (CTest's skip code here) with the reason when torchvision or transformers is not installed.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"  # before transformers is imported: no model hub, ever
SKIP = 77

try:
    import torch
    import torch.jit._pickle
    import torchvision
    import transformers
except ImportError as missing:
    print(f"SKIPPED: {missing.name} is not installed in {sys.executable} (scripts/setup.sh installs torch, and torchvision\n"
          "and transformers from scripts/requirements-test.txt, into the venv)")
    sys.exit(SKIP)

DRIVER = None  # set from --driver

# fp32 on the CPU. Each compared tensor (output, loss, gradient, buffer) relative to its own scale:
# max |C++ - Python| <= RTOL * max |Python| + ATOL. The same kernels on both sides make them bit-equal here;
# the margin is for another machine or thread count.
RTOL = 1e-5
ATOL = 1e-6

# bert-base-cased and bert-large-cased as their config.json gives them (the rest is BertConfig's default:
# 512 positions, 2 token types, GELU (erf), LayerNorm eps 1e-12).
BERT_CONFIGS = {
    "bert-base-cased": dict(vocab_size=28996),
    "bert-large-cased": dict(vocab_size=28996, hidden_size=1024, num_hidden_layers=24, num_attention_heads=16,
                             intermediate_size=4096),
}
# The small BERT whose outputs are compared, so that the test stays fast.
# Dropout off: its random masks cannot be shared with the C++ side, and eval mode does not use it.
TINY_BERT = dict(vocab_size=1000, hidden_size=128, num_hidden_layers=2, num_attention_heads=2, intermediate_size=512,
                 hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
RESNET50_PUBLISHED_PARAMETERS = 25_557_032  # torchvision's model table for ResNet50_Weights.IMAGENET1K_V1


def python_counts(model):
    return sum(p.numel() for p in model.parameters())


def aten_calls(forward):
    """{name: calls} of the aten:: operators of one forward, after a first call as the driver makes one.

    Counted from Kineto's raw events, as bench/profile.cpp counts them: profile.events() would merge an
    operator into its parent of the same name where it is the only child (EventList._remove_dup_nodes),
    so that mean's aten::div_ (Scalar) calling aten::div_ (Tensor) would show as one call."""
    with torch.no_grad():
        forward()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as profile:
            forward()
    names = (event.name() for event in profile.profiler.kineto_results.events())
    return dict(collections.Counter(name for name in names if name.startswith("aten::")))


def state(model):
    """Parameters and buffers by name, tied weights once: what the C++ model's named_parameters and
    named_buffers must match one to one."""
    tensors = dict(model.named_parameters())
    tensors.update(model.named_buffers())
    return {name: tensor.detach().contiguous().clone() for name, tensor in tensors.items()}


def run_driver(folder, model, config, weights, inputs):
    paths = {name: str(Path(folder) / f"{name}.pt") for name in ("weights", "inputs", "outputs")}
    torch.save(weights, paths["weights"])
    torch.save(inputs, paths["inputs"])
    request = Path(folder) / "request.json"
    request.write_text(json.dumps({"model": model, "config": config, **paths}))
    done = subprocess.run([DRIVER, "run", str(request)], capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"bench_models_driver failed ({done.returncode}):\n{done.stderr}")
    # LibTorch's pickle_save tags a typed dict with restore_type_tag, which weights_only must be told of.
    with torch.serialization.safe_globals([torch.jit._pickle.restore_type_tag]):
        outputs = torch.load(paths["outputs"], weights_only=True)
    return json.loads(done.stdout), outputs


def train_step(model, loss):
    """One training forward and backward: the loss, the gradients and the buffers as training leaves them,
    named as the driver names them."""
    model.train()
    value = loss()
    value.backward()
    tensors = {"train.loss": value.detach()}
    tensors.update({f"grad.{name}": p.grad for name, p in model.named_parameters()})
    tensors.update({f"train.{name}": b.clone() for name, b in model.named_buffers()})
    return tensors


def operator_differences(ours, python):
    """{operator: (C++ calls, Python calls)} for the aten:: operators whose counts differ."""
    return {op: (ours.get(op, 0), python.get(op, 0))
            for op in sorted(set(ours) | set(python)) if ours.get(op, 0) != python.get(op, 0)}


class ModelCase(unittest.TestCase):
    def check_close(self, label, ours, reference):
        self.assertEqual(tuple(ours.shape), tuple(reference.shape), label)
        difference = (ours - reference).abs().max().item()
        scale = reference.abs().max().item()
        print(f"{label}: max |C++ - Python| = {difference:.3g} (max |Python| = {scale:.3g}, allowed {RTOL * scale + ATOL:.3g})")
        self.assertLessEqual(difference, RTOL * scale + ATOL, label)

    def check_all_close(self, label, ours, reference):
        """Every tensor of `reference` against the same name in `ours`, each relative to its own scale."""
        self.assertEqual(sorted(ours), sorted(reference), label)
        largest, where = 0.0, "all equal"
        for name, expected in reference.items():
            difference = (ours[name] - expected).abs().max().item()
            allowed = RTOL * expected.abs().max().item() + ATOL
            self.assertLessEqual(difference, allowed, f"{label}: {name}")
            if difference > largest:
                largest, where = difference, name
        print(f"{label}: {len(reference)} tensors, largest |C++ - Python| = {largest:.3g} ({where})")

    def check_operators(self, name, ours, python):
        # The C++ models call what Python's modules call (bench/detail/models/python_calls.hpp and the comments
        # in bert.cpp); docs/models.md says which choices that took.
        differences = operator_differences(ours, python)
        for op, (cpp, py) in differences.items():
            print(f"{name}: {op}: C++ {cpp}, Python {py}")
        print(f"{name}: {len(python)} aten:: operators, {sum(python.values())} calls in Python, "
              f"{sum(ours.values())} in C++; {len(differences)} differing")
        self.assertEqual(differences, {}, name)


class ParameterCounts(ModelCase):
    """Unique parameters (tied weights once), C++ against Python, for the published configurations."""

    def test_counts(self):
        done = subprocess.run([DRIVER, "counts"], capture_output=True, text=True, check=True)
        ours = json.loads(done.stdout)
        python = {"resnet50": python_counts(torchvision.models.resnet50())}
        # On the meta device: the counts need no memory and no initialisation.
        with torch.device("meta"):
            for name, fields in BERT_CONFIGS.items():
                config = transformers.BertConfig(**fields)
                python[name] = python_counts(transformers.BertModel(config))
                python[name + "+heads"] = python_counts(transformers.BertForPreTraining(config))
        for name in python:
            print(f"{name}: C++ {ours[name]:,}, Python {python[name]:,}")
        self.assertEqual(ours, python)
        self.assertEqual(python["resnet50"], RESNET50_PUBLISHED_PARAMETERS)


class ResNet50(ModelCase):
    """torchvision's resnet50 with random weights, BatchNorm statistics made non-trivial so that a buffer
    that fails to load shows; one 224 x 224 image."""

    @classmethod
    def setUpClass(cls):
        torch.manual_seed(25)
        model = torchvision.models.resnet50().eval()
        with torch.no_grad():
            for module in model.modules():
                if isinstance(module, torch.nn.BatchNorm2d):
                    module.running_mean.normal_(0, 0.1)
                    module.running_var.uniform_(0.5, 1.5)
                    module.weight.uniform_(0.5, 1.5)
                    module.bias.normal_(0, 0.1)
                    module.num_batches_tracked.fill_(7)
        images = torch.randn(1, 3, 224, 224)
        labels = torch.randint(0, 1000, (1,))
        weights = state(model)
        with torch.no_grad():
            cls.reference = model(images)
        cls.python_operators = aten_calls(lambda: model(images))
        cls.python_parameters = python_counts(model)
        cls.trained = train_step(model, lambda: torch.nn.functional.cross_entropy(model(images), labels))
        with tempfile.TemporaryDirectory() as folder:
            cls.report, cls.outputs = run_driver(folder, "resnet", {"blocks": [3, 4, 6, 3], "num_classes": 1000},
                                                 weights, {"images": images, "labels": labels})

    def test_parameters(self):
        self.assertEqual(self.report["parameters"], self.python_parameters)

    def test_outputs(self):
        self.check_close("resnet50 logits", self.outputs["logits"], self.reference)

    def test_operators(self):
        self.check_operators("resnet", self.report["operators"]["resnet"], self.python_operators)

    def test_training_step(self):
        # Batch statistics in BatchNorm, the running statistics it updates, cross-entropy and its gradients.
        ours = {name: tensor for name, tensor in self.outputs.items() if name.startswith(("grad.", "train."))}
        self.check_all_close("resnet50 training step", ours, self.trained)


class Bert(ModelCase):
    """A two-layer BertForPreTraining (TINY_BERT) with random weights, every parameter moved off its
    initial value (biases start at zero, LayerNorm at one) so that a weight that fails to load shows."""

    @classmethod
    def setUpClass(cls):
        torch.manual_seed(25)
        config = transformers.BertConfig(**TINY_BERT)
        model = transformers.BertForPreTraining(config).eval()
        cls.attention = model.config._attn_implementation
        with torch.no_grad():
            for parameter in model.parameters():
                parameter.add_(torch.randn_like(parameter) * 0.05)
        batch, length = 2, 16
        ids = torch.randint(1, config.vocab_size, (batch, length))
        types = torch.randint(0, config.type_vocab_size, (batch, length))
        labels = torch.full((batch, length), -100)
        masked = torch.rand(batch, length) < 0.3
        labels[masked] = torch.randint(0, config.vocab_size, (int(masked.sum()),))
        next_sentence = torch.randint(0, 2, (batch,))
        weights = state(model)
        with torch.no_grad():
            plain = model.bert(ids)
            typed = model.bert(ids, token_type_ids=types)
            heads = model(ids, labels=labels, next_sentence_label=next_sentence)
        cls.reference = {
            "last_hidden_state": plain.last_hidden_state, "pooler_output": plain.pooler_output,
            "typed.last_hidden_state": typed.last_hidden_state, "typed.pooler_output": typed.pooler_output,
            "prediction_logits": heads.prediction_logits, "seq_relationship_logits": heads.seq_relationship_logits,
            "loss": heads.loss,
        }
        cls.python_operators = {
            "bert": aten_calls(lambda: model.bert(ids)),
            "pretraining": aten_calls(lambda: model(ids, labels=labels, next_sentence_label=next_sentence)),
        }
        cls.trained = train_step(model, lambda: model(ids, token_type_ids=types, labels=labels,
                                                      next_sentence_label=next_sentence).loss)
        cls.python_parameters = python_counts(model.bert)
        cls.python_parameters_with_heads = python_counts(model)
        fields = config.to_dict()
        request = {key: fields[key] for key in ("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
                                                "intermediate_size", "max_position_embeddings", "type_vocab_size",
                                                "layer_norm_eps", "hidden_dropout_prob", "attention_probs_dropout_prob")}
        inputs = {"input_ids": ids, "token_type_ids": types, "masked_lm_labels": labels, "next_sentence_labels": next_sentence}
        with tempfile.TemporaryDirectory() as folder:
            cls.report, cls.outputs = run_driver(folder, "bert", request, weights, inputs)

    def test_attention_implementation(self):
        # The C++ model follows the sdpa path; a transformers release that picks another by default needs
        # bench/models/bert.cpp looked at again.
        self.assertEqual(self.attention, "sdpa")

    def test_parameters(self):
        self.assertEqual(self.report["parameters"], self.python_parameters)
        self.assertEqual(self.report["parameters_with_heads"], self.python_parameters_with_heads)

    def test_outputs(self):
        for name, reference in self.reference.items():
            with self.subTest(name):
                self.check_close(f"bert {name}", self.outputs[name], reference)

    def test_training_step(self):
        # The pretraining loss and its gradients, the tied word embeddings' from both of their uses.
        ours = {name: tensor for name, tensor in self.outputs.items() if name.startswith(("grad.", "train."))}
        self.check_all_close("bert training step", ours, self.trained)

    def test_operators(self):
        for name, python in self.python_operators.items():
            with self.subTest(name):
                self.check_operators(name, self.report["operators"][name], python)


def main():
    global DRIVER
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--driver", required=True, help="tests/bench_models_driver.cpp, built")
    parser.add_argument("cases", nargs="*", help="TestCase names (all when none)")
    args = parser.parse_args()
    DRIVER = args.driver
    print(f"torch {torch.__version__}, torchvision {torchvision.__version__}, transformers {transformers.__version__}")
    unittest.main(argv=[sys.argv[0], "-v", *args.cases])


if __name__ == "__main__":
    main()
