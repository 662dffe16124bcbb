#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests of the GPU-side scripts in bench/gpu/, run here on the CPU with tiny settings and hand-made
inputs (tests/device.cmake runs this file through CTest). Each TestCase is named after what it tests."""

import copy
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parents[2]
GPU_DIR = SOURCE_DIR / "bench" / "gpu"
sys.path.insert(0, str(GPU_DIR))

import torch  # noqa: E402

import layers  # noqa: E402
import validation_report  # noqa: E402


def run_script(name, *args):
    return subprocess.run([sys.executable, str(GPU_DIR / name), *map(str, args)], capture_output=True, text=True)


def cell(layer, batch_size, median_ms, noise=0.02, met=True, seconds=1.0):
    return {"layer": layer, "batch_size": batch_size, "status": "ok",
            "stats": {"median_ms": median_ms, "noise": noise, "noise_target_met": met}, "cell_seconds": seconds}


def dataset(cells, device="NVIDIA H100 80GB HBM3", matmul_tf32=False, cudnn_tf32=True):
    """The parts of a layerbench dataset (engine/dataset/io.cpp) that the report reads."""
    return {
        "id": "test", "created": "2026-11-22T00:00:00Z",
        "environment": {"device": {"type": "cuda", "name": device}, "matmul_allow_tf32": matmul_tf32,
                        "cudnn_allow_tf32": cudnn_tf32, "cudnn_benchmark": False},
        "layers": [{"name": "Linear", "params": 16781312, "flops_per_sample": 33558528.0,
                    "matmul_flops_per_sample": 33554432.0},
                   {"name": "Conv2d", "params": 73856, "flops_per_sample": 132825600.0,
                    "matmul_flops_per_sample": 132710400.0},
                   {"name": "Dropout", "params": 0, "flops_per_sample": 512.0, "matmul_flops_per_sample": 0.0}],
        "results": cells,
    }


TIMER = {"tool": "torch.utils.benchmark.Timer.blocked_autorange", "device": {"name": "NVIDIA H100 80GB HBM3"},
         "matmul_allow_tf32": False, "cudnn_allow_tf32": True, "cudnn_benchmark": False,
         "cells": [{"layer": "Linear", "batch_size": 8, "status": "ok", "median_ms": 0.100, "iqr_ms": 0.001},
                   {"layer": "Conv2d", "batch_size": 8, "status": "ok", "median_ms": 0.200, "iqr_ms": 0.002},
                   {"layer": "Dropout", "batch_size": 8, "status": "ok", "median_ms": 0.010, "iqr_ms": 0.0001}]}


def flops(device_type="cuda"):
    def entry(name, fused, decomposed, params):
        return {"layer": name, "params": params, "fused": {"flops_per_sample": fused},
                "decomposed": {"flops_per_sample": decomposed}}

    return {"device": {"type": device_type}, "layers": [
        entry("Linear", 33554432.0, 33554432.0, 16781312),
        entry("Conv2d", 132710400.0, 132710400.0, 73856),
        entry("Dropout", 0.0, 0.0, 0)]}


class Inputs:
    """Writes three runs, the timer and the FLOP counts into a temporary folder."""

    def __init__(self, folder, runs=None, timer=TIMER, counted=None):
        self.folder = Path(folder)
        if runs is None:
            runs = [[cell("Linear", 8, m), cell("Conv2d", 8, 0.2), cell("Dropout", 8, 0.012)]
                    for m in (0.099, 0.100, 0.101)]
        self.runs = []
        for i, cells in enumerate(runs, 1):
            path = self.folder / f"run-{i}.json"
            path.write_text(json.dumps(dataset(cells)))
            self.runs.append(str(path))
        self.timer = self.folder / "timer.json"
        self.timer.write_text(json.dumps(timer))
        self.flops = self.folder / "flops.json"
        self.flops.write_text(json.dumps(counted or flops()))

    def arguments(self):
        args = []
        for run in self.runs:
            args += ["--run", run]
        return args + ["--python-timer", self.timer, "--flops", self.flops,
                       "--out-json", self.folder / "v.json", "--out-md", self.folder / "v.md"]


class ValidationReportCells(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.inputs = Inputs(self.folder.name)

    def tearDown(self):
        self.folder.cleanup()

    def report(self):
        result = run_script("validation_report.py", *self.inputs.arguments())
        self.assertEqual(result.returncode, 0, result.stderr)
        return json.loads((Path(self.folder.name) / "v.json").read_text())

    def test_ratio_is_our_median_across_runs_over_python_median(self):
        row = self.report()["cells"][0]
        self.assertEqual((row["layer"], row["batch_size"]), ("Linear", 8))
        self.assertAlmostEqual(row["ours_median_ms"], 0.100)
        self.assertAlmostEqual(row["ratio"], 1.0)
        self.assertFalse(row["outside_band"])

    def test_cell_outside_band_is_flagged_with_a_hint(self):
        report = self.report()
        dropout = report["cells"][2]
        self.assertAlmostEqual(dropout["ratio"], 1.2)
        self.assertTrue(dropout["outside_band"])
        self.assertIn("under 50 µs", dropout["hint"])
        self.assertEqual(report["summary"]["cells_outside_band"], ["Dropout/8"])
        self.assertIn("**Dropout / 8**: ratio 1.200", (Path(self.folder.name) / "v.md").read_text())

    def test_cuda_method_is_the_median_over_runs_and_absent_before_1_3(self):
        runs = []
        for ratio, mhz in ((0.30, 1980.0), (0.40, 1970.0), (0.35, 1960.0)):
            linear = cell("Linear", 8, 0.1)
            linear["cuda"] = {"graph_over_eager": ratio, "cold_over_hot": 1.5, "l2_flush_bytes": 104857600,
                              "clocks": {"sm_mean_mhz": mhz, "sm_default_mhz": 1980, "threshold": 0.75,
                                         "event_reasons": ["sw_power_cap"] if mhz < 1970 else [],
                                         "dropped_samples": 1, "kept_below_threshold": 0}}
            dropout = cell("Dropout", 8, 0.012)
            dropout["cuda"] = {"graph_skip_reason": "operation not permitted when stream is capturing",
                               "cold_over_hot": 1.1, "clocks": {"threshold": 0.75, "event_reasons": [],
                                                                "dropped_samples": 0, "kept_below_threshold": 0}}
            runs.append([linear, cell("Conv2d", 8, 0.2), dropout])
        self.inputs = Inputs(self.folder.name, runs=runs)
        rows = {row["layer"]: row for row in self.report()["cells"]}
        self.assertAlmostEqual(rows["Linear"]["graph_over_eager"], 0.35)
        self.assertAlmostEqual(rows["Linear"]["sm_mean_mhz"], 1970.0)
        self.assertEqual(rows["Linear"]["dropped_samples"], 3)
        self.assertEqual(rows["Linear"]["clock_event_reasons"], ["sw_power_cap"])
        self.assertIsNone(rows["Dropout"]["graph_over_eager"])
        self.assertNotIn("graph_over_eager", rows["Conv2d"])  # no 1.3.0 record
        markdown = (Path(self.folder.name) / "v.md").read_text()
        self.assertIn("| Dropout | 8 | not captured: operation not permitted when stream is capturing | 1.100 |", markdown)

    def test_cross_run_cv_is_sample_stdev_over_mean(self):
        row = self.report()["cells"][0]
        self.assertAlmostEqual(row["cross_run_cv"], 0.01)  # 0.099, 0.100, 0.101: stdev 0.001
        self.assertAlmostEqual(row["within_run_noise_median"], 0.02)
        self.assertFalse(row["cv_exceeds_noise"])

    def test_achieved_tflops_uses_total_flops_and_datasheet_peaks(self):
        report = self.report()
        conv = report["cells"][1]
        self.assertAlmostEqual(conv["achieved_tflops"], 132825600.0 * 8 / 0.2e-3 / 1e12)
        self.assertEqual(conv["precision"], "tf32")  # cudnn_allow_tf32 in the hand-made runs
        self.assertEqual(report["cells"][0]["precision"], "fp32")
        self.assertAlmostEqual(conv["fraction_of_fp32_peak"], conv["achieved_tflops"] / 67.0)
        self.assertAlmostEqual(conv["fraction_of_tf32_dense_peak"], conv["achieved_tflops"] / 494.5)
        self.assertIn("datasheet", report["peak"]["note"])

    def test_runs_summarise_wall_time_and_noise_target(self):
        run = self.report()["runs"][0]
        self.assertEqual((run["cells"], run["cells_ok"], run["cells_noise_target_met"]), (3, 3, 3))
        self.assertAlmostEqual(run["wall_s"], 3.0)


class ValidationReportFlops(unittest.TestCase):
    def compare(self, counted):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "run.json"
            path.write_text(json.dumps(dataset([])))
            return validation_report.compare_flops(validation_report.Run(str(path)), counted, "flops.json")

    def test_equal_counts_are_equal(self):
        self.assertEqual({row["status"] for row in self.compare(flops())}, {"equal"})

    def test_documented_uncounted_fused_kernel_is_accepted(self):
        counted = flops(device_type="cpu")
        counted["layers"] = [{"layer": "TransformerEncoder", "params": 1,
                              "fused": {"flops_per_sample": 3221225472.0},
                              "decomposed": {"flops_per_sample": 3758096384.0}}]
        with tempfile.TemporaryDirectory() as folder:
            document = dataset([])
            document["layers"] = [{"name": "TransformerEncoder", "matmul_flops_per_sample": 3758096384.0}]
            path = Path(folder) / "run.json"
            path.write_text(json.dumps(document))
            row = validation_report.compare_flops(validation_report.Run(str(path)), counted, "f.json")[0]
        self.assertEqual(row["status"], "fused count lower, as documented")
        self.assertIn("scaled_dot_product_attention", row["reason"])

    def test_undocumented_fused_difference_still_confirms_the_formula(self):
        counted = flops()
        counted["layers"][1]["fused"]["flops_per_sample"] = 0.0
        self.assertTrue(self.compare(counted)[1]["status"].startswith("formula confirmed"))

    def test_formula_off_by_one_is_a_mismatch(self):
        counted = flops()
        counted["layers"][0]["decomposed"]["flops_per_sample"] += 1
        self.assertTrue(self.compare(counted)[0]["status"].startswith("MISMATCH"))


class ValidationReportPeaks(unittest.TestCase):
    def test_find_peak_by_device_name(self):
        self.assertEqual(validation_report.find_peak("NVIDIA H100 80GB HBM3")["device"], "H100 SXM5")
        self.assertEqual(validation_report.find_peak("NVIDIA H100 PCIe")["fp32_tflops"], 51.0)
        self.assertEqual(validation_report.find_peak("NVIDIA H100 NVL")["tf32_dense_tflops"], 417.5)
        self.assertIsNone(validation_report.find_peak("Tesla T4"))


class ValidationReportErrors(unittest.TestCase):
    def test_missing_file_is_named(self):
        with tempfile.TemporaryDirectory() as folder:
            inputs = Inputs(folder)
            arguments = inputs.arguments()
            arguments[1] = str(Path(folder) / "absent.json")
            result = run_script("validation_report.py", *arguments)
        self.assertEqual(result.returncode, 1)
        self.assertIn("absent.json: cannot read the dataset", result.stderr)

    def test_missing_median_is_named_by_json_pointer(self):
        broken = [cell("Linear", 8, 0.1)]
        del broken[0]["stats"]["median_ms"]
        with tempfile.TemporaryDirectory() as folder:
            result = run_script("validation_report.py", *Inputs(folder, runs=[broken]).arguments())
        self.assertEqual(result.returncode, 1)
        self.assertIn("run-1.json: /results/0/stats/median_ms is missing", result.stderr)

    def test_runs_of_two_devices_are_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            inputs = Inputs(folder)
            other = json.loads(Path(inputs.runs[2]).read_text())
            other["environment"]["device"]["name"] = "NVIDIA H200"
            Path(inputs.runs[2]).write_text(json.dumps(other))
            result = run_script("validation_report.py", *inputs.arguments())
            written = (Path(folder) / "v.json").exists()
        self.assertEqual(result.returncode, 1)
        self.assertIn("different devices", result.stderr)
        self.assertIn("run-3.json: NVIDIA H200", result.stderr)
        self.assertFalse(written)

    def test_skipped_cell_in_every_run_is_reported_not_compared(self):
        skipped = {"layer": "Linear", "batch_size": 8, "status": "skipped", "skip_reason": "out of memory"}
        with tempfile.TemporaryDirectory() as folder:
            inputs = Inputs(folder, runs=[[copy.deepcopy(skipped)] for _ in range(3)])
            result = run_script("validation_report.py", *inputs.arguments())
            report = json.loads((Path(folder) / "v.json").read_text())
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(report["cells"][0]["status"], "skipped in every run")


class LayersCatalog(unittest.TestCase):
    """The Python twins must have the C++ catalog's shapes (engine/catalog/catalog.cpp)."""

    OUTPUT_SHAPES = {
        "Conv2d": (2, 128, 30, 30), "Conv1d": (2, 512, 96), "ConvTranspose2d": (2, 64, 34, 34),
        "Linear": (2, 4096), "LSTM": (100, 2, 512), "GRU": (100, 2, 256), "TransformerEncoder": (512, 2, 512),
        "MultiheadAttention": (512, 2, 512), "BatchNorm2d": (2, 256, 32, 32), "LayerNorm": (2, 512, 512),
        "Embedding": (2, 128, 768), "MaxPool2d": (2, 128, 16, 16), "AvgPool2d": (2, 128, 16, 16),
        "Dropout": (2, 512),
    }

    def test_every_layer_has_the_catalog_output_shape_and_mode(self):
        self.assertEqual([layer.name for layer in layers.LAYERS], list(self.OUTPUT_SHAPES))
        for layer in layers.LAYERS:
            with self.subTest(layer=layer.name), torch.inference_mode():
                module, forward = layer.instantiate(2, torch.device("cpu"))
                self.assertEqual(tuple(forward().shape), self.OUTPUT_SHAPES[layer.name])
                self.assertEqual(module.training, layer.name == "Dropout")

    def test_need_weights_twin_computes_the_same_output(self):
        twin = layers.BY_NAME["TransformerEncoder[need_weights]"]
        torch.manual_seed(0)
        _, forward = layers.BY_NAME["TransformerEncoder"].instantiate(1, torch.device("cpu"))
        torch.manual_seed(0)
        _, twin_forward = twin.instantiate(1, torch.device("cpu"))
        with torch.inference_mode():
            torch.testing.assert_close(forward(), twin_forward())

    def test_select_rejects_unknown_names(self):
        with self.assertRaises(SystemExit) as raised:
            layers.select("Linear,Conv4d")
        self.assertIn("Conv4d", str(raised.exception))


class PythonTimer(unittest.TestCase):
    def test_tiny_cpu_run_writes_every_cell(self):
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "timer.json"
            result = run_script("python_timer.py", "--device", "cpu", "--layers", "Dropout,MaxPool2d",
                                "--batch-sizes", "1,2", "--min-run-time", "0.01", "--warmup", "0", "--out", out)
            self.assertEqual(result.returncode, 0, result.stderr)
            report = json.loads(out.read_text())
        self.assertEqual([(c["layer"], c["batch_size"]) for c in report["cells"]],
                         [("MaxPool2d", 1), ("MaxPool2d", 2), ("Dropout", 1), ("Dropout", 2)])
        for timed in report["cells"]:
            self.assertEqual(len(timed["times"]), timed["runs"])
            self.assertGreaterEqual(timed["number_per_run"], 1)
            self.assertTrue(min(timed["times"]) <= timed["median_ms"] <= max(timed["times"]))
        self.assertEqual(report["device"]["type"], "cpu")
        self.assertIn("cudnn_allow_tf32", report)

    def test_bad_device_is_refused(self):
        result = run_script("python_timer.py", "--device", "tpu", "--out", "/dev/null")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("--device: 'tpu' is not one of auto, cpu, cuda", result.stderr)


class FlopCounter(unittest.TestCase):
    def test_counts_linear_and_dropout_per_sample(self):
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "flops.json"
            result = run_script("flop_counter.py", "--device", "cpu", "--layers", "Linear,Dropout",
                                "--batch-size", "4", "--out", out)
            self.assertEqual(result.returncode, 0, result.stderr)
            counted = {entry["layer"]: entry for entry in json.loads(out.read_text())["layers"]}
        self.assertEqual(counted["Linear"]["fused"]["flops_per_sample"], 2 * 4096 * 4096)
        self.assertEqual(counted["Linear"]["fused"]["by_op"], {"aten.addmm": 4 * 2 * 4096 * 4096})
        self.assertEqual(counted["Dropout"]["decomposed"]["flops_per_sample"], 0)


class ValidationReportRounds(unittest.TestCase):
    """The lease runs no timer step: the parity rounds' Python sides stand in for it (--python-rounds)."""

    def test_median_over_the_rounds_is_the_python_median(self):
        with tempfile.TemporaryDirectory() as folder:
            inputs = Inputs(folder)
            for number, linear in ((1, 0.098), (2, 0.100), (3, 0.104)):
                (Path(folder) / f"python-{number}.json").write_text(
                    json.dumps({"Linear@8": linear, "Conv2d@8": 0.2, "Dropout@8": 0.01}))
            arguments = [str(a) for a in inputs.arguments()]
            at = arguments.index("--python-timer")
            arguments[at:at + 2] = ["--python-rounds", folder]
            result = run_script("validation_report.py", *arguments)
            self.assertEqual(result.returncode, 0, result.stderr)
            report = json.loads((Path(folder) / "v.json").read_text())
        linear = report["cells"][0]
        self.assertEqual((linear["layer"], linear["batch_size"]), ("Linear", 8))
        self.assertAlmostEqual(linear["ratio"], 1.0)
        self.assertIn("python-1.json, python-2.json, python-3.json", report["python_timer"]["tool"])

    def test_a_folder_without_rounds_is_named(self):
        with tempfile.TemporaryDirectory() as folder:
            arguments = [str(a) for a in Inputs(folder).arguments()]
            at = arguments.index("--python-timer")
            arguments[at:at + 2] = ["--python-rounds", folder]
            result = run_script("validation_report.py", *arguments)
        self.assertEqual(result.returncode, 1)
        self.assertIn("no python-N.json", result.stderr)


class ModelsFit(unittest.TestCase):
    """The lease's batch per model and mode (bench/gpu/models_fit.py)."""

    H100 = 81559 * 2**20  # MiB, as nvidia-smi showed an H100 80GB HBM3 here (the device tool's KINDS.md)
    H200 = 143771 * 2**20

    def fit(self, memory, seconds=0):
        import models_fit
        return {(model, mode): batch for model, mode, batch in
                models_fit.fit(["ResNet50", "BertBase", "BertLarge"], memory, 512, seconds)}

    def test_memory_alone_gives_the_largest_power_of_two_that_fits(self):
        h100, h200 = self.fit(self.H100), self.fit(self.H200)
        self.assertEqual(h100[("BertLarge", "train")], 256)
        self.assertEqual(h200[("BertLarge", "train")], 512)
        self.assertEqual(h100[("ResNet50", "inference_mode")], 512)

    def test_the_time_cap_narrows_the_slow_cells_only(self):
        capped = self.fit(self.H100, seconds=12)
        self.assertEqual(capped[("BertLarge", "inference_mode")], 64)
        self.assertEqual(capped[("ResNet50", "train")], 512)
        import models_fit
        for (model, mode), batch in capped.items():
            self.assertLessEqual(max(models_fit.cell_seconds(model, mode, p, batch) for p in models_fit.PRECISIONS), 12)

    def test_a_model_without_memory_figures_is_named(self):
        result = run_script("models_fit.py", "--models", "BertTiny", "--memory-bytes", "1e9")
        self.assertEqual(result.returncode, 1)
        self.assertIn("no peak memory of BertTiny", result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
